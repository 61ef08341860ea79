"""A pick costs the same on a site that keeps its history (issue 48).

A real site keeps every finished event: its packs (held by nobody), cards and picks stay in the
tables a pick reads. What a pick reads must not grow with them, whatever the planner's
statistics say. Measured in counts that do not depend on the machine's load: the rows each
table gives the pick's statement (sequential and index scans) and the blocks (buffers) it asks
for, from PostgreSQL's per-transaction statistics.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from django.db import connection, transaction

from drafts.models import Pack, Seat
from drafts.services.fastpath import PICK_LIVE_SQL
from tests.drafts.conftest import T0, make_pod, seconds


def load_history():
    """bench/history.py, by path (the bench's scripts import it as ``history``)."""
    spec = importlib.util.spec_from_file_location(
        "bench_history", Path(__file__).resolve().parents[2] / "bench" / "history.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# This transaction's reads per table so far (PostgreSQL counts them per backend until the
# transaction ends): rows returned by sequential scans, rows fetched through indexes, blocks asked
# for by the table and its indexes.
READS_SQL = """
SELECT t.relname, t.seq_tup_read, coalesce(t.idx_tup_fetch, 0),
       pg_stat_get_xact_blocks_fetched(t.relid)
       + coalesce((SELECT sum(pg_stat_get_xact_blocks_fetched(i.indexrelid))
                     FROM pg_index i WHERE i.indrelid = t.relid), 0)::bigint
  FROM pg_stat_xact_user_tables t WHERE t.relname LIKE 'drafts\\_%%'
"""
# The tables that hold a site's history by the thousand rows an event. (Pods and events are a
# few pages even here: a scan of a page or two is the planner's cheapest way until they grow,
# and the blocks are counted below.)
HISTORY_TABLES = ("drafts_pack", "drafts_seat", "drafts_draftcard", "drafts_pick")


def reads() -> dict[str, tuple[int, int, int]]:
    with connection.cursor() as cursor:
        cursor.execute(READS_SQL)
        return {table: (seq_rows, index_rows, blocks) for table, seq_rows, index_rows, blocks in cursor.fetchall()}


def pick_reads(pod) -> dict[str, tuple[int, int, int]]:
    """A live page's pick (drafts_pick_live, as the seat socket sends it) of the first card in
    front of the pod's first seat: what it read, per table (rows by sequential scans, rows
    through indexes, blocks)."""
    seat = Seat.objects.select_related("registration").get(pod=pod, position=0)
    pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
    assert pack is not None
    user = seat.registration.user_id
    at = T0 + seconds(1)
    params = [seat.pk, pack.card_ids[0], pack.pk, None, user, user, at, at, at - seconds(2), pod.pk, False]
    before = reads()
    with connection.cursor() as cursor:
        cursor.execute(PICK_LIVE_SQL, params)
        answer, document = cursor.fetchone()
    after = reads()
    assert answer["status"] == "ok", answer
    assert document is not None
    zero = (0, 0, 0)
    differences = {}
    for table, (seq_rows, index_rows, blocks) in after.items():
        was = before.get(table, zero)
        differences[table] = (seq_rows - was[0], index_rows - was[1], blocks - was[2])
    return differences


@pytest.mark.django_db
@pytest.mark.parametrize("plans", ["auto", "force_generic_plan"])
def test_a_pick_reads_no_more_on_a_site_with_finished_events(organiser, players, cube_names, plans):
    """The same pick (the first of two identical pods) on a site with nothing else, and on one
    with finished events and other pods drafting, its statistics taken while no pack was in a
    queue (as a quiet night's analyse leaves them): no table gives it more rows, and it asks for
    about as many blocks (an index one level deeper costs a block a lookup, not a block a row).
    Before drafts 0024-0025, such statistics made the planner find a pod's live packs by reading
    every live pack of the site."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config('plan_cache_mode', %s, true)", [plans])
    # The pick on a site with nothing else, then rolled back: no trace left for the statistics.
    undo = transaction.savepoint()
    empty = pick_reads(make_pod(organiser, players, cube_names, seed=11))
    transaction.savepoint_rollback(undo)

    with connection.cursor() as cursor:
        cursor.execute("SELECT id FROM cards_card ORDER BY id LIMIT 360")
        cards = [row[0] for row in cursor.fetchall()]
        load_history().write_events(cursor, events=2, players=240, cards=cards)
        # Statistics taken while no pack was in a queue, as a quiet night's analyse leaves them.
        cursor.execute("ANALYZE drafts_pod, " + ", ".join(HISTORY_TABLES))
    same = make_pod(organiser, players, cube_names, seed=11)
    for seed in range(5):  # other pods drafting meanwhile
        make_pod(organiser, players, cube_names, seed=seed)
    with_history = pick_reads(same)

    for table in HISTORY_TABLES:
        seq_rows, index_rows, _ = with_history.get(table, (0, 0, 0))
        assert seq_rows == 0, f"{table}: a sequential scan on a table that holds the site's history: {with_history}"
        before = empty.get(table, (0, 0, 0))
        assert index_rows <= before[1] + before[0], f"{table}: {with_history} with history, {empty} without"
    # Blocks depend also on where rows landed (a pod's packs, rewritten by every pick, spread
    # over more pages in a bigger table) and how deep an index is: a bound, not equality. Before
    # drafts 0024-0025 this pick asked for 90 times as many blocks here, and 12 times as many
    # per pick with 20 finished 1,000-player events (bench/results/README.md).
    blocks, blocks_before = sum(c[2] for c in with_history.values()), sum(c[2] for c in empty.values())
    assert blocks <= 3 * blocks_before, f"{blocks} blocks, {blocks_before} without history: {with_history} {empty}"
