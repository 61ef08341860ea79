-- A pick from a live page's socket: drafts_pick, then (p_pod given) the pod's document as the
-- pick left it, in one call. p_queues: as drafts_pick's (false where the pages draw from the
-- document: the answer then carries no queue's cards). Each statement of a PL/pgSQL function sees what the ones before
-- it wrote, so the document is read after the pick, in its transaction; one statement instead
-- of a pipelined pair costs the web process about half the driver's work per pick.
CREATE OR REPLACE FUNCTION drafts_pick_live(
    p_seat bigint, p_card bigint, p_pack bigint, p_position integer, p_actor integer,
    p_owner integer, p_received timestamptz, p_now timestamptz, p_cutoff timestamptz, p_pod bigint,
    p_queues boolean, OUT answer json, OUT document text)
LANGUAGE plpgsql AS $$
BEGIN
  answer := drafts_pick(p_seat, p_card, p_pack, p_position, p_actor, p_owner, p_received, p_now, p_cutoff,
                        p_queues);
  IF p_pod IS NOT NULL THEN
    document := drafts_pod_document(p_pod);
  END IF;
END;
$$;
