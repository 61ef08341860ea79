-- The organiser ends the review between rounds early, in a pod whose row the caller has
-- locked, once what fell due by p_cutoff is applied: the next round opens at p_now
-- (drafts_begin_round) and what that made due is settled. Answers as drafts_pause.
CREATE OR REPLACE FUNCTION drafts_advance_round(
    p_pod bigint, p_actor integer, p_now timestamptz, p_cutoff timestamptz, p_args jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_settled jsonb;
  v_arrivals jsonb;
  v_round integer;
BEGIN
  v_settled := drafts_settle_pod(p_pod, p_now, p_cutoff, NULL, NULL);
  SELECT p.round INTO v_round FROM drafts_pod p WHERE p.id = p_pod AND p.state = {{ STATE_REVIEWING }};
  IF NOT FOUND THEN
    RETURN jsonb_build_object('status', 'refused', 'code', {{ REFUSED_POD_NOT_REVIEWING }});
  END IF;
  INSERT INTO drafts_podlogentry (pod_id, at, actor_id, action, details)
  VALUES (p_pod, p_now, p_actor, {{ ACTION_ADVANCE_ROUND }}, jsonb_build_object('round', v_round + 1));
  v_arrivals := (v_settled->'arrivals') || to_jsonb(drafts_begin_round(p_pod, p_now));
  v_settled := drafts_settle_pod(p_pod, p_now, p_cutoff, NULL, NULL);
  RETURN drafts_control_answer(p_pod, v_arrivals || (v_settled->'arrivals'));
END
$$;
