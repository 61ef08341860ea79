-- The organiser hands a seat of a pod whose row the caller has locked (p_args: {"seat",
-- "registration"}), its queue and pile, to another registered player (checked by the caller:
-- registered, seatless, with an account), or with no registration to an automatic drafter,
-- whose due picks are then settled. A finished pod's seats no longer change. Answers as
-- drafts_pause.
CREATE OR REPLACE FUNCTION drafts_hand_seat(
    p_pod bigint, p_actor integer, p_now timestamptz, p_cutoff timestamptz, p_args jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_seat bigint := (p_args->>'seat')::bigint;
  v_registration bigint := (p_args->>'registration')::bigint;
  v_position integer;
  v_previous text;
  v_settled jsonb;
BEGIN
  IF (SELECT p.state FROM drafts_pod p WHERE p.id = p_pod) = {{ STATE_DONE }} THEN
    RETURN jsonb_build_object('status', 'refused', 'code', {{ REFUSED_POD_FINISHED }});
  END IF;
  SELECT s.position, r.name INTO v_position, v_previous
    FROM drafts_seat s LEFT JOIN drafts_registration r ON r.id = s.registration_id
   WHERE s.id = v_seat AND s.pod_id = p_pod;
  IF NOT FOUND THEN
    RETURN jsonb_build_object('status', 'refused', 'code', {{ REFUSED_UNKNOWN_SEAT }});
  END IF;
  UPDATE drafts_pod SET version = version + 1 WHERE id = p_pod;
  IF v_registration IS NULL THEN
    UPDATE drafts_seat SET is_automatic = true WHERE id = v_seat;
    INSERT INTO drafts_podlogentry (pod_id, at, actor_id, action, details)
    VALUES (p_pod, p_now, p_actor, {{ ACTION_REPLACE_WITH_AUTOMATIC }}, jsonb_build_object('seat', v_position));
    v_settled := drafts_settle_pod(p_pod, p_now, p_cutoff, NULL, NULL);
    RETURN drafts_control_answer(p_pod, v_settled->'arrivals');
  END IF;
  UPDATE drafts_seat SET registration_id = v_registration, is_automatic = false WHERE id = v_seat;
  INSERT INTO drafts_podlogentry (pod_id, at, actor_id, action, details)
  SELECT p_pod, p_now, p_actor, {{ ACTION_HAND_SEAT }},
         jsonb_build_object('seat', v_position, 'previous', v_previous, 'to', r.name)
    FROM drafts_registration r WHERE r.id = v_registration;
  RETURN drafts_control_answer(p_pod, '[]'::jsonb);
END
$$;
