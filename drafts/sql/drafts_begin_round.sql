-- Open the pod's next round at p_at (the Python _begin_round it replaces): every pack of the
-- round goes to its opener, in seat order, with its clock from p_at; no seat is ready; the
-- log says so and the pod row gets the round, the state and its version. For a pod whose row
-- the caller has locked: the review clock running out (drafts_settle_pod), or the organiser
-- starting the pod, advancing a round, or every player being ready (drafts.services.picks).
-- Returns the openers, whose pages are sent their pack.
CREATE OR REPLACE FUNCTION drafts_begin_round(p_pod bigint, p_at timestamptz) RETURNS bigint[]
LANGUAGE plpgsql AS $$
DECLARE
  v_round integer;
  v_seq bigint;
  v_timer boolean;
  v_openers bigint[];
BEGIN
  SELECT p.round + 1, p.queue_seq, e.pick_timer INTO v_round, v_seq, v_timer
    FROM drafts_pod p JOIN drafts_event e ON e.id = p.event_id
   WHERE p.id = p_pod;
  UPDATE drafts_seat SET ready = false WHERE pod_id = p_pod AND ready;
  WITH opened AS (
    SELECT k.id, k.opener_id, row_number() OVER (ORDER BY s.position) AS n
      FROM drafts_pack k JOIN drafts_seat s ON s.id = k.opener_id
     WHERE k.pod_id = p_pod AND k.round = v_round
  ), moved AS (
    UPDATE drafts_pack k
       SET holder_id = o.opener_id, queue_seq = v_seq + o.n, arrived_at = p_at,
           deadline = CASE WHEN v_timer
                           THEN p_at + make_interval(secs => drafts_pick_seconds(k.initial_size - k.picks_made)) END
      FROM opened o WHERE k.id = o.id
    RETURNING o.opener_id, o.n)
  SELECT coalesce(array_agg(m.opener_id ORDER BY m.n), '{}') INTO v_openers FROM moved m;
  INSERT INTO drafts_podlogentry (pod_id, at, actor_id, action, details)
  VALUES (p_pod, p_at, NULL, {{ ACTION_ROUND_START }}, jsonb_build_object('round', v_round));
  UPDATE drafts_pod
     SET round = v_round, state = {{ STATE_DRAFTING }}, review_deadline = NULL,
         queue_seq = v_seq + cardinality(v_openers), version = version + 1
   WHERE id = p_pod;
  RETURN v_openers;
END
$$;
