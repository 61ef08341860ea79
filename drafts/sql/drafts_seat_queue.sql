-- A seat's packs in queue order, each with its cards in pack order (drafts.queue's rows):
-- [{"pack_id", "round", "picks_made", "initial_size", "deadline", "remaining_ms",
--   "cards": [each card's stored entry (drafts_draftcard_entry), ...]}, ...]
-- PL/pgSQL, not SQL: its plan is kept for the connection's life (migration drafts 0009).
CREATE OR REPLACE FUNCTION drafts_seat_queue(p_seat bigint) RETURNS jsonb
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (
    SELECT coalesce(jsonb_agg(jsonb_build_object(
             'pack_id', k.id, 'round', k.round, 'picks_made', k.picks_made,
             'initial_size', k.initial_size, 'deadline', k.deadline, 'remaining_ms', k.remaining_ms,
             'cards', (SELECT coalesce(jsonb_agg({{ CARD_ENTRY }} ORDER BY u.n), '[]'::jsonb)
                         FROM unnest(k.card_ids) WITH ORDINALITY AS u(id, n)))
           ORDER BY k.queue_seq), '[]'::jsonb)
      FROM drafts_pack k WHERE k.holder_id = p_seat
  );
END
$$;
