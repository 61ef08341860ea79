-- What the engine must do by itself in a drafting pod, one row per thing: a pack's pick clock
-- (due at its deadline, whenever that is), its last card and an automatic drafter's front
-- pack (both due when the pack arrived). drafts_settle_pod applies what is due by its cutoff;
-- the selectors ask when the next thing is due (drafts.services.picks.next_due_at). The pod's
-- packs, then those in a queue (OFFSET 0: as drafts_pick's, never the site's live packs).
CREATE OR REPLACE FUNCTION drafts_due(p_pod bigint, p_now timestamptz)
RETURNS TABLE (pack_id bigint, holder_id bigint, at timestamptz, kind text, rank integer)
LANGUAGE sql STABLE AS $$
  SELECT k.id, k.holder_id, d.at, d.kind, d.rank
    FROM (SELECT h.*, h.queue_seq = min(h.queue_seq) OVER (PARTITION BY h.holder_id) AS head
            FROM (SELECT * FROM drafts_pack WHERE pod_id = p_pod OFFSET 0) h WHERE h.holder_id IS NOT NULL) k
    JOIN drafts_seat s ON s.id = k.holder_id
   CROSS JOIN LATERAL (VALUES
     (k.deadline, {{ KIND_TIMEOUT }}, 0),
     (CASE WHEN k.initial_size - k.picks_made = 1 THEN coalesce(k.arrived_at, p_now) END, {{ KIND_LAST_CARD }}, 1),
     (CASE WHEN k.head AND s.is_automatic THEN coalesce(k.arrived_at, p_now) END, {{ KIND_AUTOMATIC }}, 2))
     AS d(at, kind, rank)
   WHERE d.at IS NOT NULL
$$;
