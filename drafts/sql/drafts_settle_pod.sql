-- The engine's heartbeat, for a pod whose row the caller has locked and written: in time
-- order, while the pod drafts, every clock that ran out by p_cutoff (seat p_own_seat's: by
-- p_own_limit), every automatic drafter's front pack and every last card, then the round's
-- end once no pack of it is held; a review clock that ran out by p_cutoff opens the next
-- round (drafts_begin_round), a deck-building clock ends the pod. Writes the pod row if
-- anything changed. Answers {"changed", "version", "state", "arrivals": [seats a pack
-- reached the front of]}.
CREATE OR REPLACE FUNCTION drafts_settle_pod(
    p_pod bigint, p_now timestamptz, p_cutoff timestamptz, p_own_seat bigint,
    p_own_limit timestamptz) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_state text;
  v_round integer;
  v_seq bigint;
  v_version bigint;
  v_review timestamptz;
  v_building timestamptz;
  v_timer boolean;
  v_minutes integer;
  v_seats bigint[];
  v_automatic bigint[];
  v_due record;
  v_take record;
  v_at timestamptz;
  v_position integer;
  v_round_over timestamptz;
  v_finished timestamptz;
  v_arrivals bigint[] := '{}';
  v_changed boolean := false;
BEGIN
  SELECT p.state, p.round, p.queue_seq, p.version, p.review_deadline, p.deck_building_deadline,
         e.pick_timer, e.deck_building_minutes
    INTO v_state, v_round, v_seq, v_version, v_review, v_building, v_timer, v_minutes
    FROM drafts_pod p JOIN drafts_event e ON e.id = p.event_id
   WHERE p.id = p_pod;
  SELECT array_agg(s.id ORDER BY s.position), coalesce(array_agg(s.id) FILTER (WHERE s.is_automatic), '{}')
    INTO v_seats, v_automatic
    FROM drafts_seat s WHERE s.pod_id = p_pod;
  <<settling>>
  LOOP
    IF v_state = {{ STATE_DRAFTING }} THEN
      LOOP
        -- The earliest thing due: by time, then pack, then kind (timeout, last card, automatic).
        SELECT d.pack_id AS id, d.holder_id, d.at, d.kind INTO v_due
          FROM drafts_due(p_pod, p_now) d
         WHERE d.kind <> {{ KIND_TIMEOUT }}
            OR d.at <= CASE WHEN d.holder_id = p_own_seat THEN p_own_limit ELSE p_cutoff END
         ORDER BY d.at, d.pack_id, d.rank
         LIMIT 1;
        EXIT WHEN NOT FOUND;
        v_at := least(v_due.at, p_now);
        v_position := array_position(v_seats, v_due.holder_id) - 1;
        v_take := drafts_take(v_seats, v_due.holder_id, v_position, v_due.id,
                              drafts_automatic_card(v_due.id, v_due.holder_id), v_due.kind,
                              NULL, v_at, v_at, NULL, v_timer, v_seq);
        v_seq := v_take.seq;
        v_version := v_version + 1;
        v_changed := true;
        IF v_due.kind <> {{ KIND_LAST_CARD }} THEN
          INSERT INTO drafts_podlogentry (pod_id, at, actor_id, action, details)
          VALUES (p_pod, v_at, NULL, {{ ACTION_AUTOMATIC_PICK }},
                  jsonb_build_object('seat', v_position, 'kind', v_due.kind, 'round', v_take.pack_round,
                                     'pick', v_take.pick_number));
        END IF;
        IF v_take.arrived_first AND v_take.cards_left > 1 THEN
          v_arrivals := v_arrivals || v_take.neighbour;
        END IF;
      END LOOP;
      -- The pod's packs of the round (OFFSET 0: as drafts_pick's, never the site's live packs).
      EXIT settling WHEN EXISTS (SELECT 1 FROM (SELECT * FROM drafts_pack WHERE pod_id = p_pod OFFSET 0) k
                                  WHERE k.holder_id IS NOT NULL AND k.round = v_round);
      -- Through the (seat, round, pick number) index: never a scan of every pick of the site.
      SELECT coalesce(max(k.made_at), p_now) INTO v_round_over
        FROM drafts_pick k WHERE k.seat_id = ANY (v_seats) AND k.round = v_round;
      INSERT INTO drafts_podlogentry (pod_id, at, actor_id, action, details)
      VALUES (p_pod, v_round_over, NULL, {{ ACTION_ROUND_END }}, jsonb_build_object('round', v_round));
      IF v_round >= {{ ROUNDS }} THEN
        v_state := {{ STATE_DECK_BUILDING }};
        v_building := v_round_over + make_interval(mins => v_minutes);
        INSERT INTO drafts_podlogentry (pod_id, at, actor_id, action, details)
        VALUES (p_pod, v_round_over, NULL, {{ ACTION_DECK_BUILDING_START }}, '{}'::jsonb);
      ELSE
        v_state := {{ STATE_REVIEWING }};
        v_review := CASE WHEN v_timer THEN v_round_over + make_interval(secs => drafts_review_seconds(v_round)) END;
      END IF;
      v_version := v_version + 1;
      v_changed := true;
    ELSIF v_state = {{ STATE_REVIEWING }} AND v_review <= p_cutoff THEN
      -- The next round opens when the review clock ran out: drafts_begin_round reads and
      -- writes the pod row, so it gets what this call did first.
      UPDATE drafts_pod SET state = v_state, review_deadline = v_review, deck_building_deadline = v_building,
                            queue_seq = v_seq, version = v_version
       WHERE id = p_pod;
      v_arrivals := v_arrivals || drafts_begin_round(p_pod, v_review);
      SELECT p.state, p.round, p.queue_seq, p.version, p.review_deadline
        INTO v_state, v_round, v_seq, v_version, v_review
        FROM drafts_pod p WHERE p.id = p_pod;
      v_changed := true;
    ELSIF v_state = {{ STATE_DECK_BUILDING }} AND v_building <= p_cutoff THEN
      v_state := {{ STATE_DONE }};
      v_finished := v_building;
      INSERT INTO drafts_podlogentry (pod_id, at, actor_id, action, details)
      VALUES (p_pod, v_building, NULL, {{ ACTION_DECK_BUILDING_OVER }}, '{}'::jsonb);
      v_version := v_version + 1;
      v_changed := true;
    ELSE
      EXIT settling;
    END IF;
  END LOOP;
  IF v_changed THEN
    UPDATE drafts_pod SET state = v_state, review_deadline = v_review, deck_building_deadline = v_building,
                          queue_seq = v_seq, version = v_version, finished_at = coalesce(v_finished, finished_at)
     WHERE id = p_pod;
  END IF;
  RETURN jsonb_build_object(
    'changed', v_changed, 'version', v_version, 'state', v_state, 'arrivals', to_jsonb(v_arrivals));
END
$$;
