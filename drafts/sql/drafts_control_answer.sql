-- What an organiser's control answers once it is done (drafts_pause and the others beside
-- it): "ok", the pod's version, and the seats a pack reached the front of (p_arrivals: a jsonb
-- array of seat ids, from drafts_settle_pod and drafts_begin_round), whose pages are sent it.
CREATE OR REPLACE FUNCTION drafts_control_answer(p_pod bigint, p_arrivals jsonb) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('status', 'ok', 'version', p.version, 'arrivals', coalesce(p_arrivals, '[]'::jsonb))
    FROM drafts_pod p WHERE p.id = p_pod
$$;
