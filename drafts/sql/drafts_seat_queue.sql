-- A seat's packs in queue order, each with its cards in pack order (drafts.queue's rows):
-- [{"pack_id", "round", "picks_made", "initial_size", "deadline", "remaining_ms",
--   "cards": [each card's stored entry (drafts_draftcard_entry), ...]}, ...]
-- PL/pgSQL, not SQL: its plan is kept for the connection's life (migration drafts 0009).
-- json, not jsonb: the stored entries are json and go into the answer as they are, where
-- jsonb would parse each one again (5% of bench/pick_function, 5 December 2026).
CREATE OR REPLACE FUNCTION drafts_seat_queue(p_seat bigint) RETURNS json
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (
    SELECT coalesce(json_agg(json_build_object(
             'pack_id', k.id, 'round', k.round, 'picks_made', k.picks_made,
             'initial_size', k.initial_size, 'deadline', k.deadline, 'remaining_ms', k.remaining_ms,
             'cards', (SELECT coalesce(json_agg({{ CARD_ENTRY }} ORDER BY u.n), '[]'::json)
                         FROM unnest(k.card_ids) WITH ORDINALITY AS u(id, n)))
           ORDER BY k.queue_seq), '[]'::json)
      FROM drafts_pack k WHERE k.holder_id = p_seat
  );
END
$$;
