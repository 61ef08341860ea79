"""Whether the database keeps itself fast: autovacuum on, statistics fresh on the draft tables.

A database never vacuumed nor analysed slows down as events accumulate: measured, one reused
across six load runs made ``drafts_seat_queue`` 200 times slower (the planner's row counts
were those of an empty site). ``/healthz`` reports what this finds (``database_upkeep``), and
the ``drafts.W001``/``W002`` checks say it when ``migrate`` or ``check --database`` runs.
deploy/postgresql.md says what a production server needs.
"""

from __future__ import annotations

from django.db import connection

# The tables every pick writes or reads (drafts_pick, drafts_take, drafts_seat_queue).
DRAFT_TABLES = ("drafts_pod", "drafts_seat", "drafts_pack", "drafts_draftcard", "drafts_pick", "drafts_podlogentry")

# Statistics are stale once more rows changed since the last analyse than both this many and
# this share of the table: twice what autovacuum's defaults (50 rows + 10 %) let pass.
STALE_ROWS = 1000
STALE_SHARE = 0.2


def autovacuum_on() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('autovacuum')::boolean")
        (on,) = cursor.fetchone()
    return bool(on)


def stale_tables() -> list[str]:
    """The draft tables whose planner statistics lag far behind their rows, by name."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname FROM pg_stat_user_tables "
            "WHERE relname = ANY(%s) AND n_mod_since_analyze > %s "
            "AND n_mod_since_analyze > %s * greatest(n_live_tup, 0) ORDER BY relname",
            [list(DRAFT_TABLES), STALE_ROWS, STALE_SHARE],
        )
        return [name for (name,) in cursor.fetchall()]


def report() -> dict:
    """``{"autovacuum": bool, "stale_statistics": [table, ...]}`` (the fields /healthz shows)."""
    return {"autovacuum": autovacuum_on(), "stale_statistics": stale_tables()}


def check(app_configs=None, databases=None, **kwargs):
    """Django's system check (database tag): a warning for each thing that will slow picks."""
    from django.core.checks import Warning

    if not databases or "default" not in databases:
        return []
    found = report()
    warnings = []
    if not found["autovacuum"]:
        warnings.append(
            Warning(
                "autovacuum is off: the draft tables' statistics go stale and picks slow down as events accumulate.",
                hint="Set autovacuum = on (deploy/postgresql.md), or VACUUM ANALYZE after each event.",
                id="drafts.W001",
            )
        )
    if found["stale_statistics"]:
        warnings.append(
            Warning(
                "stale planner statistics on " + ", ".join(found["stale_statistics"]) + ".",
                hint="Run ANALYZE on them (deploy/postgresql.md).",
                id="drafts.W002",
            )
        )
    return warnings
