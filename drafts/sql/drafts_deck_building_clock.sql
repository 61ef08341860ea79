-- The organiser changes the deck-building time (p_args: {"minutes"}) of a pod whose row the
-- caller has locked, once what fell due by p_cutoff is applied: in deck building the clock
-- restarts with that much from p_now (frozen at it if paused); before, the event's
-- deck-building minutes change (this pod and the event's others get that much when their
-- last pick is made). Answers as drafts_pause, with "scope": "pod" or "event".
CREATE OR REPLACE FUNCTION drafts_deck_building_clock(
    p_pod bigint, p_actor integer, p_now timestamptz, p_cutoff timestamptz, p_args jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_minutes integer := (p_args->>'minutes')::integer;
  v_settled jsonb;
  v_pod record;
  v_scope text;
BEGIN
  v_settled := drafts_settle_pod(p_pod, p_now, p_cutoff, NULL, NULL);
  SELECT p.state, p.paused_from, p.event_id INTO v_pod FROM drafts_pod p WHERE p.id = p_pod;
  IF (CASE WHEN v_pod.state = {{ STATE_PAUSED }} THEN v_pod.paused_from ELSE v_pod.state END) = {{ STATE_DONE }} THEN
    RETURN jsonb_build_object('status', 'refused', 'code', {{ REFUSED_POD_FINISHED }});
  END IF;
  IF v_pod.state = {{ STATE_PAUSED }} AND v_pod.paused_from = {{ STATE_DECK_BUILDING }} THEN
    v_scope := 'pod';
    UPDATE drafts_pod SET paused_remaining_ms = v_minutes * 60000 WHERE id = p_pod;
  ELSIF v_pod.state = {{ STATE_DECK_BUILDING }} THEN
    v_scope := 'pod';
    UPDATE drafts_pod SET deck_building_deadline = p_now + make_interval(mins => v_minutes) WHERE id = p_pod;
  ELSE
    v_scope := 'event';
    UPDATE drafts_event SET deck_building_minutes = v_minutes WHERE id = v_pod.event_id;
  END IF;
  UPDATE drafts_pod SET version = version + 1 WHERE id = p_pod;
  INSERT INTO drafts_podlogentry (pod_id, at, actor_id, action, details)
  VALUES (p_pod, p_now, p_actor, {{ ACTION_DECK_BUILDING_CLOCK }},
          jsonb_build_object('minutes', v_minutes, 'scope', v_scope));
  RETURN drafts_control_answer(p_pod, v_settled->'arrivals') || jsonb_build_object('scope', v_scope);
END
$$;
