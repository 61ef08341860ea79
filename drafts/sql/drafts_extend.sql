-- The organiser gives more time (p_args: {"seconds", "seat": a seat of the pod or null}) to
-- whatever clock runs in a pod whose row the caller has locked, once what fell due by p_cutoff
-- is applied (a clock that ran out longer ago is not brought back): every held pack's pick
-- clock (or the seat's), or the whole pod's review or deck-building clock. A paused pod's
-- clocks keep the extra time frozen. Answers as drafts_pause; a refusal's "clock" names the
-- clock that was not running.
CREATE OR REPLACE FUNCTION drafts_extend(
    p_pod bigint, p_actor integer, p_now timestamptz, p_cutoff timestamptz, p_args jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_seconds integer := (p_args->>'seconds')::integer;
  v_seat bigint := (p_args->>'seat')::bigint;
  v_settled jsonb;
  v_pod record;
  v_state text;
  v_paused boolean;
  v_clock text;
  v_count integer := 1;
BEGIN
  v_settled := drafts_settle_pod(p_pod, p_now, p_cutoff, NULL, NULL);
  SELECT p.state, p.paused_from, p.paused_remaining_ms, p.review_deadline, p.deck_building_deadline
    INTO v_pod FROM drafts_pod p WHERE p.id = p_pod;
  v_paused := v_pod.state = {{ STATE_PAUSED }};
  v_state := CASE WHEN v_paused THEN v_pod.paused_from ELSE v_pod.state END;
  IF v_state = {{ STATE_DRAFTING }} THEN
    v_clock := 'pick';
    UPDATE drafts_pack
       SET remaining_ms = CASE WHEN v_paused THEN remaining_ms + v_seconds * 1000 ELSE remaining_ms END,
           deadline = CASE WHEN v_paused THEN deadline ELSE deadline + v_seconds * interval '1 second' END
     WHERE pod_id = p_pod AND holder_id IS NOT NULL AND (v_seat IS NULL OR holder_id = v_seat)
       AND CASE WHEN v_paused THEN remaining_ms IS NOT NULL ELSE deadline IS NOT NULL END;
    GET DIAGNOSTICS v_count = ROW_COUNT;
    IF v_count = 0 THEN
      RETURN jsonb_build_object('status', 'refused', 'code', {{ REFUSED_NO_RUNNING_CLOCK }}, 'clock', v_clock);
    END IF;
  ELSIF v_state IN ({{ STATE_REVIEWING }}, {{ STATE_DECK_BUILDING }}) THEN
    v_clock := CASE WHEN v_state = {{ STATE_REVIEWING }} THEN 'review' ELSE 'deck_building' END;
    IF v_seat IS NOT NULL THEN  -- between rounds and in deck building the clock is the whole pod's
      RETURN jsonb_build_object('status', 'refused', 'code', {{ REFUSED_INVALID_TIMER }}, 'clock', v_clock);
    END IF;
    IF v_paused AND v_pod.paused_remaining_ms IS NOT NULL THEN
      UPDATE drafts_pod SET paused_remaining_ms = paused_remaining_ms + v_seconds * 1000 WHERE id = p_pod;
    ELSIF NOT v_paused AND v_clock = 'review' AND v_pod.review_deadline IS NOT NULL THEN
      UPDATE drafts_pod SET review_deadline = review_deadline + v_seconds * interval '1 second' WHERE id = p_pod;
    ELSIF NOT v_paused AND v_clock = 'deck_building' AND v_pod.deck_building_deadline IS NOT NULL THEN
      UPDATE drafts_pod SET deck_building_deadline = deck_building_deadline + v_seconds * interval '1 second'
       WHERE id = p_pod;
    ELSE
      RETURN jsonb_build_object('status', 'refused', 'code', {{ REFUSED_NO_RUNNING_CLOCK }}, 'clock', v_clock);
    END IF;
  ELSE
    RETURN jsonb_build_object('status', 'refused', 'code', {{ REFUSED_POD_NOT_DRAFTING }});
  END IF;
  UPDATE drafts_pod SET version = version + 1 WHERE id = p_pod;
  INSERT INTO drafts_podlogentry (pod_id, at, actor_id, action, details)
  VALUES (p_pod, p_now, p_actor, {{ ACTION_EXTEND_CLOCKS }},
          jsonb_build_object('seconds', v_seconds, 'clock', v_clock, 'clocks', v_count,
                             'seat', (SELECT s.position FROM drafts_seat s WHERE s.id = v_seat)));
  RETURN drafts_control_answer(p_pod, v_settled->'arrivals');
END
$$;
