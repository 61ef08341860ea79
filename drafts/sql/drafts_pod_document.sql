-- A pod's document (drafts/state.py): everything about the pod that any of its live pages
-- shows, as JSON text, read in one statement so that it is one version of the pod. PostgreSQL
-- builds the text: a web process neither walks rows nor encodes it again before publishing it.
-- Every card list is one pack's or one pile's array of ids (Pack.card_ids, Seat.pile_ids), in
-- the order pages show it, of the cards' stored entries (drafts_draftcard_entry: json, copied as
-- it is). The pod's cards are read once, through the (pod, is_dfc) index, and matched to every
-- list at once: a lookup per card costs twice the pick (bench/pick_function --live), and a
-- join that does not name the pod may be planned over the whole table (drafts.sql.CARD_ENTRY).
-- The pod's packs are read, then those in a queue kept: OFFSET 0 keeps "holder_id IS NOT NULL"
-- out of the scan, which the queue index (every live pack of the site, drafts 0024) could answer.
-- No nested loop but the lateral ones: a new pod's rows are not in the statistics yet (the
-- planner takes it for a pod of one card), and a nested loop over the pod's cards then re-read
-- the pod's packs once per card (tests/drafts/test_pick_history.py). The event by primary key.
-- No JIT: a disabled join's nominal cost would make every call compile the statement (1.7 s).
-- NULL for an unknown pod.
CREATE OR REPLACE FUNCTION drafts_pod_document(p_pod bigint) RETURNS text
LANGUAGE plpgsql STABLE SET enable_nestloop = off SET jit = off AS $$
BEGIN
  RETURN (
    WITH placed AS (
      SELECT k.id AS pack_id, NULL::bigint AS seat_id, u.id, u.n
        FROM (SELECT * FROM drafts_pack WHERE pod_id = p_pod OFFSET 0) k
       CROSS JOIN LATERAL unnest(k.card_ids) WITH ORDINALITY AS u(id, n)
       WHERE k.holder_id IS NOT NULL
      UNION ALL
      SELECT NULL, s.id, u.id, u.n
        FROM drafts_seat s CROSS JOIN LATERAL unnest(s.pile_ids) WITH ORDINALITY AS u(id, n)
       WHERE s.pod_id = p_pod
    ), lists AS (
      SELECT w.pack_id, w.seat_id, json_agg(c.document_entry ORDER BY w.n) AS cards
        FROM placed w JOIN drafts_draftcard c ON c.id = w.id AND c.pod_id = p_pod
       GROUP BY w.pack_id, w.seat_id
    )
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
                 CASE WHEN s.registration_id IS NULL THEN {{ AUTOMATIC_NAME }}
                      -- By primary key: a join was planned as a scan of every registration.
                      ELSE COALESCE((SELECT r.name FROM drafts_registration r WHERE r.id = s.registration_id), '') END,
                 s.registration_id, s.is_automatic, s.ready, COALESCE(s.pile_cover, ''))
               ORDER BY s.position, s.id)
          FROM drafts_seat s
         WHERE s.pod_id = p.id), '[]'),
      -- [id, holder, round, picks_made, initial_size, deadline, remaining_ms, cards], in queue order
      'packs', COALESCE((
        SELECT json_agg(json_build_array(
                 k.id, k.holder_id, k.round, k.picks_made, k.initial_size,
                 to_char(k.deadline AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"'), k.remaining_ms,
                 COALESCE(l.cards, '[]'))
               ORDER BY k.queue_seq, k.id)
          FROM (SELECT * FROM drafts_pack WHERE pod_id = p_pod OFFSET 0) k LEFT JOIN lists l ON l.pack_id = k.id
         WHERE k.holder_id IS NOT NULL), '[]'),
      -- seat id -> its pile, in pile order (seats with no card yet have no entry)
      'piles', COALESCE((SELECT json_object_agg(l.seat_id, l.cards) FROM lists l WHERE l.seat_id IS NOT NULL), '{}')
    )::text
    FROM drafts_pod p
   CROSS JOIN LATERAL (SELECT e.pick_timer, e.decklists_published FROM drafts_event e
                        WHERE e.id = p.event_id OFFSET 0) ev
   WHERE p.id = p_pod);
END;
$$;
