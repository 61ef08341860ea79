-- A pod's document (drafts/state.py): everything about the pod that any of its live pages
-- shows, as JSON text, read in one statement so that it is one version of the pod. PostgreSQL
-- builds the text: a web process neither walks rows nor encodes it again before publishing it.
-- Every card list is one pack's or one pile's array of ids (Pack.card_ids, Seat.pile_ids), in
-- the order pages show it, each id looked up by primary key for the card's stored entry (drafts_draftcard_entry: json, copied as
-- it is). NULL for an unknown pod.
CREATE OR REPLACE FUNCTION drafts_pod_document(p_pod bigint) RETURNS text
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (
    SELECT json_build_object(
      'pod', json_build_object(
        'id', p.id, 'event_id', p.event_id, 'number', p.number, 'round', p.round,
        'paused_remaining_ms', p.paused_remaining_ms, 'version', p.version,
        'pick_timer', ev.pick_timer, 'decklists_published', ev.decklists_published,
        'state', p.state, 'paused_from', COALESCE(p.paused_from, ''),
        'review_deadline', to_char(p.review_deadline AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"'),
        'deck_building_deadline',
          to_char(p.deck_building_deadline AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"')),
      -- [id, position, name, registration id, is_automatic, ready, pile_cover], in seat order
      'seats', COALESCE((
        SELECT json_agg(json_build_array(
                 s.id, s.position,
                 CASE WHEN s.registration_id IS NULL THEN {{ AUTOMATIC_NAME }} ELSE COALESCE(r.name, '') END,
                 s.registration_id, s.is_automatic, s.ready, COALESCE(s.pile_cover, ''))
               ORDER BY s.position, s.id)
          FROM drafts_seat s LEFT JOIN drafts_registration r ON r.id = s.registration_id
         WHERE s.pod_id = p.id), '[]'),
      -- [id, holder, round, picks_made, initial_size, deadline, remaining_ms, cards], in queue order
      'packs', COALESCE((
        SELECT json_agg(json_build_array(
                 k.id, k.holder_id, k.round, k.picks_made, k.initial_size,
                 to_char(k.deadline AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"'), k.remaining_ms,
                 COALESCE((SELECT json_agg({{ CARD_ENTRY }} ORDER BY u.n)
                             FROM unnest(k.card_ids) WITH ORDINALITY AS u(id, n)), '[]'))
               ORDER BY k.queue_seq, k.id)
          FROM drafts_pack k WHERE k.pod_id = p.id AND k.holder_id IS NOT NULL), '[]'),
      -- seat id -> its pile, in pile order (seats with no card yet have no entry)
      'piles', COALESCE((
        SELECT json_object_agg(s.id, pile)
          FROM drafts_seat s
          CROSS JOIN LATERAL (
            SELECT json_agg({{ CARD_ENTRY }} ORDER BY u.n) AS pile
              FROM unnest(s.pile_ids) WITH ORDINALITY AS u(id, n)) piles
         WHERE s.pod_id = p.id AND pile IS NOT NULL), '{}')
    )::text
    FROM drafts_pod p JOIN drafts_event ev ON ev.id = p.event_id WHERE p.id = p_pod);
END;
$$;
