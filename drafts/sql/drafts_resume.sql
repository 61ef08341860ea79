-- The organiser resumes a paused pod whose row the caller has locked: every clock restarts
-- from p_now with exactly the time it had left, the pod goes back to the state it was paused
-- in, and whatever that makes due (an automatic drafter, a clock already at 0) is settled.
-- Answers as drafts_pause.
CREATE OR REPLACE FUNCTION drafts_resume(
    p_pod bigint, p_actor integer, p_now timestamptz, p_cutoff timestamptz, p_args jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_state text;
  v_settled jsonb;
BEGIN
  SELECT coalesce(nullif(p.paused_from, ''), {{ STATE_DRAFTING }}) INTO v_state
    FROM drafts_pod p WHERE p.id = p_pod AND p.state = {{ STATE_PAUSED }};
  IF NOT FOUND THEN
    RETURN jsonb_build_object('status', 'refused', 'code', {{ REFUSED_POD_NOT_PAUSED }});
  END IF;
  UPDATE drafts_pack
     SET deadline = p_now + remaining_ms * interval '1 millisecond', remaining_ms = NULL
   WHERE pod_id = p_pod AND holder_id IS NOT NULL AND remaining_ms IS NOT NULL;
  UPDATE drafts_pod
     SET state = v_state,
         review_deadline = CASE WHEN v_state = {{ STATE_REVIEWING }} AND paused_remaining_ms IS NOT NULL
                                THEN p_now + paused_remaining_ms * interval '1 millisecond'
                                ELSE review_deadline END,
         deck_building_deadline = CASE WHEN v_state = {{ STATE_DECK_BUILDING }} AND paused_remaining_ms IS NOT NULL
                                       THEN p_now + paused_remaining_ms * interval '1 millisecond'
                                       ELSE deck_building_deadline END,
         paused_from = '', paused_remaining_ms = NULL, version = version + 1
   WHERE id = p_pod;
  INSERT INTO drafts_podlogentry (pod_id, at, actor_id, action, details)
  VALUES (p_pod, p_now, p_actor, {{ ACTION_RESUME }}, '{}'::jsonb);
  v_settled := drafts_settle_pod(p_pod, p_now, p_cutoff, NULL, NULL);
  RETURN drafts_control_answer(p_pod, v_settled->'arrivals');
END
$$;
