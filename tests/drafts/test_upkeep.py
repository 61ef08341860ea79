"""A database that stays fast: /healthz and the start-up checks say when autovacuum is off or
the draft tables' statistics are stale (draftsite.upkeep)."""

from __future__ import annotations

import pytest
from django.db import connection

from draftsite import upkeep
from tests.drafts.conftest import make_pod


def server_autovacuum() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SHOW autovacuum")
        return cursor.fetchone()[0] == "on"


@pytest.mark.django_db
def test_healthz_reports_autovacuum_and_stale_statistics_in_stable_fields(client):
    body = client.get("/healthz").json()
    assert body["status"] == "ok"
    assert set(body["database_upkeep"]) == {"autovacuum", "stale_statistics"}
    assert body["database_upkeep"]["autovacuum"] is server_autovacuum()
    assert body["database_upkeep"]["stale_statistics"] == upkeep.stale_tables()
    assert set(body["database_upkeep"]["stale_statistics"]) <= set(upkeep.DRAFT_TABLES)


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_draft_table_changed_since_its_last_analyse_is_stale_until_analysed(
    monkeypatch, organiser, players, cube_names
):
    monkeypatch.setattr(upkeep, "STALE_ROWS", 10)
    monkeypatch.setattr(upkeep, "STALE_SHARE", 0.0)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE drafts_draftcard")
    assert "drafts_draftcard" not in upkeep.stale_tables()
    make_pod(organiser, players, cube_names)  # commits 360 cards
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_force_next_flush()")  # this backend's counts, now
    assert "drafts_draftcard" in upkeep.stale_tables()
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE drafts_draftcard")
        cursor.execute("SELECT pg_stat_force_next_flush()")
    assert "drafts_draftcard" not in upkeep.stale_tables()


@pytest.mark.django_db
def test_the_start_up_check_warns_when_autovacuum_is_off(monkeypatch):
    assert upkeep.check(databases=None) == []  # no database asked for: no query
    monkeypatch.setattr(upkeep, "stale_tables", lambda: [])
    monkeypatch.setattr(upkeep, "autovacuum_on", lambda: False)
    assert [w.id for w in upkeep.check(databases=["default"])] == ["drafts.W001"]
    monkeypatch.setattr(upkeep, "autovacuum_on", lambda: True)
    assert upkeep.check(databases=["default"]) == []
    monkeypatch.setattr(upkeep, "stale_tables", lambda: ["drafts_pick"])
    (warning,) = upkeep.check(databases=["default"])
    assert warning.id == "drafts.W002" and "drafts_pick" in warning.msg


@pytest.mark.django_db
def test_the_check_runs_with_the_database_checks():
    from django.core import checks

    found = checks.run_checks(databases=["default"], tags=[checks.Tags.database])
    assert any(w.id == "drafts.W001" for w in found) is not server_autovacuum()
