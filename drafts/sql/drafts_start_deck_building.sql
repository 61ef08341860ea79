-- The organiser starts the deck-building clock now (p_args: {"minutes"}, or null for the
-- event's), in a pod whose row the caller has locked, once what fell due by p_cutoff is
-- applied: deck building restarts, or the review after the last round ends early. Refused
-- while paused, before the start, after the end, and while packs are still going round.
-- Answers as drafts_pause.
CREATE OR REPLACE FUNCTION drafts_start_deck_building(
    p_pod bigint, p_actor integer, p_now timestamptz, p_cutoff timestamptz, p_args jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_settled jsonb;
  v_pod record;
  v_minutes integer;
BEGIN
  v_settled := drafts_settle_pod(p_pod, p_now, p_cutoff, NULL, NULL);
  SELECT p.state, p.round, e.deck_building_minutes INTO v_pod
    FROM drafts_pod p JOIN drafts_event e ON e.id = p.event_id WHERE p.id = p_pod;
  IF v_pod.state = {{ STATE_PAUSED }} THEN
    RETURN jsonb_build_object('status', 'refused', 'code', {{ REFUSED_POD_PAUSED }});
  ELSIF v_pod.state = {{ STATE_DONE }} THEN
    RETURN jsonb_build_object('status', 'refused', 'code', {{ REFUSED_POD_FINISHED }});
  ELSIF v_pod.state = {{ STATE_NOT_STARTED }} THEN
    RETURN jsonb_build_object('status', 'refused', 'code', {{ REFUSED_POD_NOT_STARTED }});
  ELSIF v_pod.state <> {{ STATE_DECK_BUILDING }}
        AND NOT (v_pod.state = {{ STATE_REVIEWING }} AND v_pod.round >= {{ ROUNDS }}) THEN
    RETURN jsonb_build_object('status', 'refused', 'code', {{ REFUSED_DRAFT_NOT_OVER }});
  END IF;
  v_minutes := coalesce((p_args->>'minutes')::integer, v_pod.deck_building_minutes);
  UPDATE drafts_pod
     SET state = {{ STATE_DECK_BUILDING }}, review_deadline = NULL,
         deck_building_deadline = p_now + make_interval(mins => v_minutes), version = version + 1
   WHERE id = p_pod;
  INSERT INTO drafts_podlogentry (pod_id, at, actor_id, action, details)
  VALUES (p_pod, p_now, p_actor, {{ ACTION_START_DECK_BUILDING }}, jsonb_build_object('minutes', v_minutes));
  RETURN drafts_control_answer(p_pod, v_settled->'arrivals');
END
$$;
