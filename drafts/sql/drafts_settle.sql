-- The enforcers' call (beat's sweep, reads that find a clock due): lock the pod, settle it;
-- "arrivals" with the seats' queues. "none" for no such pod or a paper pod (the paper app's
-- clocks are its own).
CREATE OR REPLACE FUNCTION drafts_settle(p_pod bigint, p_now timestamptz, p_cutoff timestamptz)
RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_format text;
  v_answer jsonb;
BEGIN
  SELECT e.draft_format INTO v_format
    FROM drafts_pod p JOIN drafts_event e ON e.id = p.event_id
   WHERE p.id = p_pod FOR UPDATE OF p;
  IF v_format IS NULL OR v_format = {{ FORMAT_PAPER }} THEN
    RETURN jsonb_build_object('status', 'none');
  END IF;
  v_answer := drafts_settle_pod(p_pod, p_now, p_cutoff, NULL, NULL);
  RETURN v_answer || jsonb_build_object(
    'status', 'ok',
    'arrivals', drafts_seat_queues(ARRAY(SELECT jsonb_array_elements_text(v_answer->'arrivals')::bigint)));
END
$$;
