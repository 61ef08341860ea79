-- The whole manual pick. Answers {"status": "ok" | "refused", ...}; whatever fell due before
-- the pick was received (a clock, a review's end) is applied first and stays applied even
-- when the pick is refused: the answer then carries "changed", "pod_id", "version" and
-- "arrivals". With p_queues false a made pick's answer leaves out the cards of the picker's
-- queue and of the arrivals' queues (the arrivals name the seats only): for a caller whose pages
-- draw from the pod's document instead (drafts_pick_live). The answer is json (built as text,
-- the queues' entries copied in: drafts_seat_queue); a refusal with changes joins jsonb.
CREATE OR REPLACE FUNCTION drafts_pick(
    p_seat bigint, p_card bigint, p_pack bigint, p_position integer, p_actor integer,
    p_owner integer, p_received timestamptz, p_now timestamptz, p_cutoff timestamptz,
    p_queues boolean DEFAULT true) RETURNS json
LANGUAGE plpgsql AS $$
DECLARE
  v_seat_position integer;
  v_seat_owner integer;
  v_pod_id bigint;
  v_event_id bigint;
  v_number integer;
  v_state text;
  v_round integer;
  v_queue_seq bigint;
  v_version bigint;
  v_timer boolean;
  v_review timestamptz;
  v_building timestamptz;
  v_due boolean;
  v_round_open boolean;
  v_head bigint;
  v_in_head boolean;
  v_picked boolean;
  v_take record;
  v_last record;
  v_settle boolean;
  v_settled jsonb;
  v_seats bigint[];
  v_automatic bigint[];
  v_arrivals bigint[] := '{}';
  v_changes jsonb := '{}';
BEGIN
  -- The seat's pod, locked: the pod row only (not the event's: pods of one event never wait
  -- for each other). One statement: each costs (bench/pick_function).
  SELECT p.id, p.event_id, p.number, p.state, p.round, p.queue_seq, p.version, p.review_deadline,
         p.deck_building_deadline, e.pick_timer
    INTO v_pod_id, v_event_id, v_number, v_state, v_round, v_queue_seq, v_version, v_review, v_building,
         v_timer
    FROM drafts_pod p JOIN drafts_event e ON e.id = p.event_id
   WHERE p.id = (SELECT s.pod_id FROM drafts_seat s WHERE s.id = p_seat) FOR UPDATE OF p;
  IF v_pod_id IS NULL THEN
    RETURN json_build_object('status', 'refused', 'code', {{ REFUSED_UNKNOWN_SEAT }});
  END IF;
  -- Once the pod is ours, in one statement: the pod's seats by position, through the (pod,
  -- position) index, who holds this seat now (a hand-over may have committed while this pick
  -- waited: a socket authenticated before it picks no more) and whether its pile has the card.
  SELECT array_agg(s.id ORDER BY s.position), coalesce(array_agg(s.id) FILTER (WHERE s.is_automatic), '{}'),
         min(s.position) FILTER (WHERE s.id = p_seat),
         (SELECT r.user_id FROM drafts_registration r
           WHERE r.id = min(s.registration_id) FILTER (WHERE s.id = p_seat)),
         coalesce(bool_or(p_card = ANY (s.pile_ids)) FILTER (WHERE s.id = p_seat), false)
    INTO v_seats, v_automatic, v_seat_position, v_seat_owner, v_picked
    FROM drafts_seat s WHERE s.pod_id = v_pod_id;
  IF p_owner IS NOT NULL AND v_seat_owner IS DISTINCT FROM p_owner THEN
    RETURN json_build_object('status', 'refused', 'code', {{ REFUSED_NOT_YOUR_SEAT }});
  END IF;
  IF v_state = {{ STATE_PAUSED }} THEN
    RETURN json_build_object('status', 'refused', 'code', {{ REFUSED_POD_PAUSED }});
  END IF;

  IF v_state = {{ STATE_DRAFTING }} THEN
    -- The packs in queues, in one pass: is anything due by the time the pick was received, is
    -- the round still open, which pack is in front of this seat and whether it has the card.
    -- The picker's clock ran out if its deadline came before the pick was received; another
    -- seat's only past the grace period (p_cutoff), as that player's own pick may be on its way.
    -- The pod's packs, then those in a queue: OFFSET 0 keeps "holder_id IS NOT NULL" out of the
    -- scan, which the queue index (every live pack of the site, drafts 0024) could answer.
    SELECT bool_or(k.deadline <= CASE WHEN k.holder_id = p_seat THEN p_received
                                      ELSE least(p_received, p_cutoff) END
                   OR k.initial_size - k.picks_made <= 1 OR k.holder_id = ANY (v_automatic)),
           bool_or(k.round = v_round),
           (array_agg(k.id ORDER BY k.queue_seq) FILTER (WHERE k.holder_id = p_seat))[1],
           (array_agg(p_card = ANY (k.card_ids) ORDER BY k.queue_seq) FILTER (WHERE k.holder_id = p_seat))[1]
      INTO v_due, v_round_open, v_head, v_in_head
      FROM (SELECT * FROM drafts_pack WHERE pod_id = v_pod_id OFFSET 0) k
     WHERE k.holder_id IS NOT NULL;
  END IF;
  IF v_state <> {{ STATE_DRAFTING }} OR v_due OR NOT coalesce(v_round_open, false) THEN
    -- Apply what fell due by the moment the pick was received first (a review that ended
    -- opens the next round; the pick is then made in it).
    v_settled := drafts_settle_pod(v_pod_id, p_received, least(p_received, p_cutoff), p_seat, p_received);
    IF (v_settled->>'changed')::boolean THEN
      v_arrivals := ARRAY(SELECT jsonb_array_elements_text(v_settled->'arrivals')::bigint);
      v_changes := jsonb_build_object('changed', true, 'pod_id', v_pod_id, 'version', v_settled->'version',
                                      'arrivals', drafts_seat_queues(v_arrivals));
    END IF;
    SELECT p.state, p.round, p.queue_seq, p.version, p.review_deadline, p.deck_building_deadline
      INTO v_state, v_round, v_queue_seq, v_version, v_review, v_building
      FROM drafts_pod p WHERE p.id = v_pod_id;
    IF v_state <> {{ STATE_DRAFTING }} THEN
      RETURN (jsonb_build_object('status', 'refused', 'code', {{ REFUSED_POD_NOT_DRAFTING }}) || v_changes)::json;
    END IF;
    -- What settling took (a clock that ran out) may have been this very card.
    SELECT k.id, p_card = ANY (k.card_ids) INTO v_head, v_in_head
      FROM drafts_pack k WHERE k.holder_id = p_seat ORDER BY k.queue_seq LIMIT 1;
    SELECT p_card = ANY (s.pile_ids) INTO v_picked FROM drafts_seat s WHERE s.id = p_seat;
  END IF;

  IF coalesce(v_picked, false) THEN
    RETURN (jsonb_build_object('status', 'refused', 'code', {{ REFUSED_ALREADY_PICKED }}) || v_changes)::json;
  END IF;
  IF v_head IS NULL THEN
    RETURN (jsonb_build_object('status', 'refused', 'code', {{ REFUSED_NO_PACK }}) || v_changes)::json;
  END IF;
  IF p_pack IS NOT NULL AND p_pack <> v_head THEN
    RETURN (jsonb_build_object('status', 'refused', 'code', {{ REFUSED_WRONG_PACK }}) || v_changes)::json;
  END IF;
  IF NOT coalesce(v_in_head, false) THEN
    RETURN (jsonb_build_object('status', 'refused', 'code', {{ REFUSED_CARD_NOT_IN_PACK }}) || v_changes)::json;
  END IF;

  v_take := drafts_take(v_seats, p_seat, v_seat_position, v_head, p_card, {{ KIND_MANUAL }},
                        p_actor, p_received, p_now, p_position, v_timer, v_queue_seq);
  v_queue_seq := v_take.seq;
  v_version := v_version + 1;
  IF v_take.arrived_first AND v_take.cards_left > 1 THEN
    v_arrivals := v_arrivals || v_take.neighbour;
  END IF;

  -- What the pick made due: a clock that ran out meanwhile, an automatic drafter, the pack's
  -- last card, the round's end. Usually nothing, found in one pass.
  SELECT coalesce(bool_or(k.deadline <= p_cutoff OR k.holder_id = ANY (v_automatic)), false),
         coalesce(bool_or(k.round = v_round AND NOT (k.id = v_head AND v_take.cards_left = 1)), false)
    INTO v_settle, v_round_open
    FROM (SELECT * FROM drafts_pack WHERE pod_id = v_pod_id OFFSET 0) k
   WHERE k.holder_id IS NOT NULL;
  IF v_take.cards_left = 1 AND NOT v_settle THEN
    -- Only the last card is due (after a pack's second-to-last pick): the neighbour takes it
    -- here, cheaper than the general settle below (bench/pick_function).
    v_last := drafts_take(v_seats, v_take.neighbour, array_position(v_seats, v_take.neighbour) - 1,
                          v_head, (SELECT k.card_ids[1] FROM drafts_pack k WHERE k.id = v_head),
                          {{ KIND_LAST_CARD }}, NULL, p_now, p_now, NULL, v_timer, v_queue_seq);
    v_queue_seq := v_last.seq;
    v_version := v_version + 1;
  END IF;
  UPDATE drafts_pod SET queue_seq = v_queue_seq, version = v_version WHERE id = v_pod_id;
  IF v_settle OR NOT v_round_open THEN
    v_settled := drafts_settle_pod(v_pod_id, p_now, p_cutoff, NULL, NULL);
    v_arrivals := v_arrivals || ARRAY(SELECT jsonb_array_elements_text(v_settled->'arrivals')::bigint);
    SELECT p.state, p.round, p.version, p.review_deadline, p.deck_building_deadline
      INTO v_state, v_round, v_version, v_review, v_building
      FROM drafts_pod p WHERE p.id = v_pod_id;
  END IF;

  -- json keeps a repeated key, jsonb did not: a seat the pack reached twice is named once.
  RETURN json_build_object(
    'status', 'ok',
    'pick', json_build_object('id', v_take.pick_id, 'card', p_card, 'round', v_take.pack_round,
                               'pick_number', v_take.pick_number, 'kind', {{ KIND_MANUAL }}),
    'pod', json_build_object('id', v_pod_id, 'event_id', v_event_id, 'number', v_number,
                              'state', v_state, 'paused_from', '', 'round', v_round,
                              'review_deadline', v_review, 'deck_building_deadline', v_building,
                              'paused_remaining_ms', NULL, 'pick_timer', v_timer, 'version', v_version),
    'queue', CASE WHEN p_queues THEN drafts_seat_queue(p_seat) ELSE '[]'::json END,
    'arrivals', CASE WHEN p_queues THEN drafts_seat_queues(v_arrivals)
                     ELSE (SELECT coalesce(json_object_agg(a, '[]'::json), '{}'::json)
                             FROM (SELECT DISTINCT unnest(v_arrivals) AS a) s) END);
END
$$;
