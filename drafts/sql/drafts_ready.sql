-- A player is done reviewing (the page's "Ready"): lock the pod, apply whatever fell due first
-- (drafts_settle_pod), mark the seat ready, and when every seat with a player is, open the next
-- round now (drafts_begin_round) and settle what that made due (automatic drafters). p_owner,
-- when given, is the user who must hold the seat (a socket authenticated before a hand-over
-- readies no more). Answers {"status": "ok" | "refused", "code", "changed", "pod_id",
-- "version", "arrivals"}; what fell due is applied even when the ready is refused.
-- p_document: also answer the pod's document as the call left it (the live pages').
CREATE OR REPLACE FUNCTION drafts_ready(
    p_seat bigint, p_owner integer, p_now timestamptz, p_cutoff timestamptz, p_document boolean,
    OUT answer jsonb, OUT document text)
LANGUAGE plpgsql AS $$
DECLARE
  v_pod_id bigint;
  v_format text;
  v_owner integer;
  v_state text;
  v_round integer;
  v_settled jsonb;
  v_arrivals bigint[];
  v_changed boolean;
BEGIN
  SELECT s.pod_id INTO v_pod_id FROM drafts_seat s WHERE s.id = p_seat;
  IF v_pod_id IS NULL THEN
    answer := jsonb_build_object('status', 'refused', 'code', {{ REFUSED_UNKNOWN_SEAT }}, 'changed', false);
    RETURN;
  END IF;
  SELECT e.draft_format INTO v_format
    FROM drafts_pod p JOIN drafts_event e ON e.id = p.event_id
   WHERE p.id = v_pod_id FOR UPDATE OF p;
  IF v_format = {{ FORMAT_PAPER }} THEN
    answer := jsonb_build_object('status', 'refused', 'code', {{ REFUSED_PAPER_POD }}, 'changed', false);
    RETURN;
  END IF;
  SELECT r.user_id INTO v_owner
    FROM drafts_seat s JOIN drafts_registration r ON r.id = s.registration_id WHERE s.id = p_seat;
  IF p_owner IS NOT NULL AND v_owner IS DISTINCT FROM p_owner THEN
    answer := jsonb_build_object('status', 'refused', 'code', {{ REFUSED_NOT_YOUR_SEAT }}, 'changed', false);
    RETURN;
  END IF;
  v_settled := drafts_settle_pod(v_pod_id, p_now, p_cutoff, NULL, NULL);
  v_changed := (v_settled->>'changed')::boolean;
  v_arrivals := ARRAY(SELECT a::bigint FROM jsonb_array_elements_text(v_settled->'arrivals') a);
  SELECT p.state, p.round INTO v_state, v_round FROM drafts_pod p WHERE p.id = v_pod_id;
  IF v_state = {{ STATE_REVIEWING }} THEN
    UPDATE drafts_seat SET ready = true WHERE id = p_seat;
    UPDATE drafts_pod SET version = version + 1 WHERE id = v_pod_id;
    v_changed := true;
    IF NOT EXISTS (SELECT 1 FROM drafts_seat s WHERE s.pod_id = v_pod_id AND NOT s.ready AND NOT s.is_automatic) THEN
      INSERT INTO drafts_podlogentry (pod_id, at, actor_id, action, details)
      VALUES (v_pod_id, p_now, NULL, {{ ACTION_ALL_READY }}, jsonb_build_object('round', v_round + 1));
      v_arrivals := v_arrivals || drafts_begin_round(v_pod_id, p_now);
      v_settled := drafts_settle_pod(v_pod_id, p_now, p_cutoff, NULL, NULL);
      v_arrivals := v_arrivals || ARRAY(SELECT a::bigint FROM jsonb_array_elements_text(v_settled->'arrivals') a);
    END IF;
  END IF;
  answer := jsonb_build_object(
    'status', CASE WHEN v_state = {{ STATE_REVIEWING }} THEN 'ok' ELSE 'refused' END,
    'code', CASE WHEN v_state = {{ STATE_REVIEWING }} THEN NULL ELSE {{ REFUSED_POD_NOT_REVIEWING }} END,
    'changed', v_changed, 'pod_id', v_pod_id,
    'version', (SELECT p.version FROM drafts_pod p WHERE p.id = v_pod_id),
    'arrivals', to_jsonb(v_arrivals));
  IF p_document THEN
    document := drafts_pod_document(v_pod_id);
  END IF;
END;
$$;
