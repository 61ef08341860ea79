-- The organiser starts a pod whose row the caller has locked, its packs and cards just opened
-- (drafts.services.picks.start_pod: the packs of every round with their cards, unmoved): each
-- pack lists its cards in pack order, the log names the seed, round 1 opens at p_now
-- (drafts_begin_round) and what that made due (automatic drafters) is settled. Answers as
-- drafts_pause.
CREATE OR REPLACE FUNCTION drafts_start(
    p_pod bigint, p_actor integer, p_now timestamptz, p_cutoff timestamptz, p_args jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_openers bigint[];
  v_settled jsonb;
BEGIN
  IF (SELECT p.state FROM drafts_pod p WHERE p.id = p_pod) <> {{ STATE_NOT_STARTED }} THEN
    RETURN jsonb_build_object('status', 'refused', 'code', {{ REFUSED_POD_ALREADY_STARTED }});
  END IF;
  UPDATE drafts_pack k
     SET card_ids = ARRAY(SELECT c.id FROM drafts_draftcard c WHERE c.opened_in_id = k.id ORDER BY c.slot)
   WHERE k.pod_id = p_pod;
  UPDATE drafts_pod SET started_at = p_now WHERE id = p_pod;
  INSERT INTO drafts_podlogentry (pod_id, at, actor_id, action, details)
  SELECT p_pod, p_now, p_actor, {{ ACTION_START }}, jsonb_build_object('seed', p.seed)
    FROM drafts_pod p WHERE p.id = p_pod;
  v_openers := drafts_begin_round(p_pod, p_now);
  v_settled := drafts_settle_pod(p_pod, p_now, p_cutoff, NULL, NULL);
  RETURN drafts_control_answer(p_pod, to_jsonb(v_openers) || (v_settled->'arrivals'));
END
$$;
