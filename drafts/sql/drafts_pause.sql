-- The organiser pauses a pod whose row the caller has locked (drafts.services.control): apply
-- whatever fell due by p_cutoff first (drafts_settle_pod), then freeze every clock with the
-- time left on it: each held pack's pick clock (remaining_ms) and the review or deck-building
-- clock (paused_remaining_ms); the pod remembers the state it resumes to. Answers
-- {"status": "ok" | "refused", "code", "version", "arrivals"}; the caller rolls a refusal back.
CREATE OR REPLACE FUNCTION drafts_pause(
    p_pod bigint, p_actor integer, p_now timestamptz, p_cutoff timestamptz, p_args jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_settled jsonb;
  v_pod record;
BEGIN
  v_settled := drafts_settle_pod(p_pod, p_now, p_cutoff, NULL, NULL);
  SELECT p.state, p.review_deadline, p.deck_building_deadline INTO v_pod FROM drafts_pod p WHERE p.id = p_pod;
  IF v_pod.state = {{ STATE_PAUSED }} THEN
    RETURN jsonb_build_object('status', 'refused', 'code', {{ REFUSED_POD_PAUSED }});
  ELSIF v_pod.state NOT IN ({{ ACTIVE_STATES }}) THEN
    RETURN jsonb_build_object('status', 'refused', 'code', {{ REFUSED_POD_NOT_DRAFTING }});
  END IF;
  UPDATE drafts_pack
     SET remaining_ms = drafts_ms_left(deadline, p_now), deadline = NULL
   WHERE pod_id = p_pod AND holder_id IS NOT NULL AND deadline IS NOT NULL;
  UPDATE drafts_pod
     SET paused_remaining_ms = drafts_ms_left(CASE state WHEN {{ STATE_REVIEWING }} THEN review_deadline
                                                         WHEN {{ STATE_DECK_BUILDING }} THEN deck_building_deadline END,
                                              p_now),
         paused_from = state, state = {{ STATE_PAUSED }}, version = version + 1
   WHERE id = p_pod;
  INSERT INTO drafts_podlogentry (pod_id, at, actor_id, action, details)
  VALUES (p_pod, p_now, p_actor, {{ ACTION_PAUSE }}, '{}'::jsonb);
  RETURN drafts_control_answer(p_pod, v_settled->'arrivals');
END
$$;
