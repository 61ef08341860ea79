-- Move one card of a pack into a seat's pile and pass the pack on: the pack's row and the seat's
-- are written, the card's is not (its place is the array that lists it).
-- Returns the neighbour seat that received the pack (NULL once it is empty) and whether the
-- pack arrived at the front of that seat's queue. Few statements on purpose: each costs.
-- p_seats: the pod's seat ids in position order (the neighbour is one of them).
CREATE OR REPLACE FUNCTION drafts_take(
    p_seats bigint[], p_seat bigint, p_seat_position integer, p_pack bigint, p_card bigint,
    p_kind text, p_actor integer, p_made_at timestamptz, p_at timestamptz, p_position integer,
    p_timer boolean, INOUT seq bigint, OUT pick_id bigint, OUT pick_number integer,
    OUT pack_round integer, OUT neighbour bigint, OUT arrived_first boolean, OUT cards_left integer)
LANGUAGE plpgsql AS $$
DECLARE
  v_initial integer;
  v_contents bigint[];
BEGIN
  SELECT k.round, k.picks_made + 1, k.initial_size, k.card_ids
    INTO pack_round, pick_number, v_initial, v_contents
    FROM drafts_pack k WHERE k.id = p_pack;
  INSERT INTO drafts_pick (seat_id, draft_card_id, pack_id, round, pick_number, kind,
                           made_by_id, made_at, pack_contents)
  VALUES (p_seat, p_card, p_pack, pack_round, pick_number, p_kind, p_actor, p_made_at, to_jsonb(v_contents))
  RETURNING id INTO pick_id;
  -- Into the pile at p_position (0-based; NULL or past the end: last). The card row is not written.
  UPDATE drafts_seat
     SET last_pick_at = p_made_at,
         pile_ids = CASE WHEN p_position IS NULL THEN pile_ids || p_card
                         ELSE pile_ids[:p_position] || p_card || pile_ids[p_position + 1:] END
   WHERE id = p_seat;

  cards_left := v_initial - pick_number;
  arrived_first := false;
  IF cards_left = 0 THEN
    UPDATE drafts_pack SET holder_id = NULL, deadline = NULL, picks_made = pick_number,
           card_ids = array_remove(card_ids, p_card)
     WHERE id = p_pack;
  ELSE
    -- The direction by round (drafts.core.timing.pass_direction): +1 the next seat, -1 the one before.
    neighbour := p_seats[((p_seat_position + CASE pack_round {{ PASS_DIRECTION_BY_ROUND }} END)
                          % cardinality(p_seats) + cardinality(p_seats)) % cardinality(p_seats) + 1];
    seq := seq + 1;
    arrived_first := NOT EXISTS (SELECT 1 FROM drafts_pack WHERE holder_id = neighbour AND id <> p_pack);
    UPDATE drafts_pack
       SET holder_id = neighbour, queue_seq = seq, arrived_at = p_at, picks_made = pick_number,
           card_ids = array_remove(card_ids, p_card),
           deadline = CASE WHEN arrived_first AND p_timer
                           THEN p_at + make_interval(secs => drafts_pick_seconds(cards_left)) END
     WHERE id = p_pack;
  END IF;
  -- The seat's next pack (if one is queued) starts its clock now.
  IF p_timer THEN
    UPDATE drafts_pack
       SET deadline = p_at + make_interval(secs => drafts_pick_seconds(initial_size - picks_made))
     WHERE id = (SELECT id FROM drafts_pack WHERE holder_id = p_seat ORDER BY queue_seq LIMIT 1)
       AND deadline IS NULL;
  END IF;
END
$$;
