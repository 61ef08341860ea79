"""The stored functions that drafts/sql renders differently: drafts_pick_live changed."""

import hashlib

from django.db import DatabaseError, migrations, transaction

# Written by ``python -m drafts.sql migration`` from drafts/sql/*.sql: do not edit by hand.
# Only the functions this migration changes: their text now (None: dropped)...
SQL_FUNCTIONS = {
    "drafts_pick_live": r"""-- A pick from a live page's socket: drafts_pick, then (p_pod given) what the live pages need to
-- follow it, in one call. p_queues: as drafts_pick's (false where the pages draw from the
-- document: the answer then carries no queue's cards). Each statement of a PL/pgSQL function
-- sees what the ones before it wrote, so what is answered is read after the pick, in its
-- transaction; one statement instead of a pipelined pair costs the web process about half the
-- driver's work per pick.
--
-- The document answer is either the pod's whole document (drafts_pod_document) or, when the
-- pick changed nothing but what a pick writes, only that (drafts.state.Patch): the pod's
-- version before and after, the seats whose rows were written (the picker, and the seat the
-- pack went to or that took its last card), every pack those seats now hold, the pack picked
-- from (gone when no seat holds it) and their piles, all cards as ids. A web process patches its
-- copy of the document with it, so a pick no longer reads the pod's every card back (about
-- half a pick's PostgreSQL time). A pick is only a patch when its version moved by its own takes:
-- 1, or 2 when the seat it passed the pack to took the pack's last card (every change to a pod
-- moves its version, drafts_settle_pod one per take, round's end or new round). Anything else
-- (settling ran: a clock ran out, an automatic drafter, a round ended or began) answers the
-- whole document, and so does a p_known other than the version the pick found (the caller's
-- copy is not of the version the patch starts from), or a refusal that settled something.
-- A refusal that changed nothing answers no document. p_known NULL: a patch whenever one is
-- possible (the caller compares its copy's version with the patch's "from").
CREATE OR REPLACE FUNCTION drafts_pick_live(
    p_seat bigint, p_card bigint, p_pack bigint, p_position integer, p_actor integer,
    p_owner integer, p_received timestamptz, p_now timestamptz, p_cutoff timestamptz, p_pod bigint,
    p_queues boolean, p_known bigint DEFAULT NULL, OUT answer json, OUT document text)
LANGUAGE plpgsql AS $$
DECLARE
  v_before bigint;
  v_after bigint;
  v_pack bigint;
  v_number integer;
  v_holder bigint;
  v_initial integer;
  v_picks integer;
  v_seats bigint[];
BEGIN
  IF p_pod IS NOT NULL THEN
    -- The version the pick starts from: the pod's row locked first (drafts_pick locks it again).
    SELECT p.version INTO v_before FROM drafts_pod p WHERE p.id = p_pod FOR UPDATE;
  END IF;
  answer := drafts_pick(p_seat, p_card, p_pack, p_position, p_actor, p_owner, p_received, p_now, p_cutoff,
                        p_queues);
  IF p_pod IS NULL OR v_before IS NULL THEN
    RETURN;
  END IF;
  IF answer->>'status' <> 'ok' THEN
    IF coalesce((answer->>'changed')::boolean, false) THEN
      document := drafts_pod_document(p_pod);
    END IF;
    RETURN;
  END IF;
  v_after := (answer->'pod'->>'version')::bigint;
  IF (p_known IS NULL OR p_known = v_before) AND v_after - v_before IN (1, 2) THEN
    SELECT k.pack_id, k.pick_number INTO v_pack, v_number
      FROM drafts_pick k WHERE k.id = (answer->'pick'->>'id')::bigint;
    SELECT k.holder_id, k.initial_size, k.picks_made INTO v_holder, v_initial, v_picks
      FROM drafts_pack k WHERE k.id = v_pack;
    IF v_after - v_before = 2 THEN
      -- The one other take must be this pack's last card, by the seat the pack went to.
      IF v_holder IS NOT NULL OR v_picks <> v_initial OR v_number <> v_initial - 1 THEN
        v_pack := NULL;
      ELSE
        SELECT k.seat_id INTO v_holder FROM drafts_pick k WHERE k.pack_id = v_pack AND k.pick_number = v_initial;
      END IF;
    END IF;
    IF v_pack IS NOT NULL THEN
      v_seats := CASE WHEN v_holder IS NULL OR v_holder = p_seat THEN ARRAY[p_seat] ELSE ARRAY[p_seat, v_holder] END;
      -- [id, holder, round, picks_made, initial_size, deadline, remaining_ms, card ids], as the
      -- document's packs, in queue order; through the queue index (holder, queue order).
      document := json_build_object(
        'from', v_before, 'version', v_after, 'seats', v_seats, 'gone', v_pack,
        'packs', coalesce((
          SELECT json_agg(json_build_array(
                   k.id, k.holder_id, k.round, k.picks_made, k.initial_size,
                   to_char(k.deadline AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"'), k.remaining_ms,
                   k.card_ids)
                 ORDER BY k.queue_seq, k.id)
            FROM drafts_pack k WHERE k.holder_id = ANY (v_seats) AND k.holder_id IS NOT NULL), '[]'),
        'piles', (SELECT json_object_agg(s.id, s.pile_ids) FROM drafts_seat s WHERE s.id = ANY (v_seats)))::text;
      RETURN;
    END IF;
  END IF;
  document := drafts_pod_document(p_pod);
END;
$$;
""",
}

# ... and before it (None: it did not exist), which the way back applies.
PREVIOUS_FUNCTIONS = {
    "drafts_pick_live": r"""-- A pick from a live page's socket: drafts_pick, then (p_pod given) the pod's document as the
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
""",
}


def drop(cursor, name, keep=None):
    """Drop every overload of the function ``name`` but the one whose body is ``keep``."""
    cursor.execute(
        "SELECT p.oid::regprocedure::text, p.prosrc FROM pg_proc p "
        "WHERE p.proname = %s AND p.pronamespace = current_schema()::regnamespace",
        [name],
    )
    for signature, body in cursor.fetchall():
        if body != keep:
            cursor.execute(f"DROP FUNCTION {signature}")


def create(schema_editor, name, text):
    """Create or replace one function. CREATE OR REPLACE cannot change a function's result
    type (SQLSTATE 42P13): such a function is dropped first, in the migration's transaction."""
    try:
        with transaction.atomic(using=schema_editor.connection.alias):
            schema_editor.execute(text, params=None)
    except DatabaseError as error:
        if getattr(error.__cause__, "sqlstate", None) != "42P13":
            raise
        with schema_editor.connection.cursor() as cursor:
            drop(cursor, name)
        schema_editor.execute(text, params=None)


def apply(schema_editor, functions):
    """Create or replace each function (``None``: drop it), drop its other overloads (arguments
    that changed), and leave the digest of its SQL in its comment (``drafts.sql.comment``)."""
    for name, text in functions.items():
        if text is not None:
            create(schema_editor, name, text)
    with schema_editor.connection.cursor() as cursor:
        for name, text in functions.items():
            if text is None:
                drop(cursor, name)
                continue
            drop(cursor, name, keep=text.split("$$")[1])
            digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
            cursor.execute(
                "SELECT p.oid::regprocedure::text FROM pg_proc p "
                "WHERE p.proname = %s AND p.pronamespace = current_schema()::regnamespace",
                [name],
            )
            for (signature,) in cursor.fetchall():
                cursor.execute(f"COMMENT ON FUNCTION {signature} IS 'drafts/sql/{name}.sql sha256:{digest}'")


def forwards(apps, schema_editor):
    apply(schema_editor, SQL_FUNCTIONS)


def backwards(apps, schema_editor):
    apply(schema_editor, PREVIOUS_FUNCTIONS)


class Migration(migrations.Migration):
    dependencies = [
        ("drafts", "0030_event_collation_version"),
    ]

    operations = [
        migrations.RunPython(forwards, backwards, elidable=False),
    ]
