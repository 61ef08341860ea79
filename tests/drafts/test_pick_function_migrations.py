"""The stored functions: written once (drafts/sql), applied by migrations, equal in the database.

The pick function's migrations change how PostgreSQL runs it, never what it answers; the
latest migration applies exactly what ``drafts.sql`` renders from the files and the Python
constants, so a changed constant fails here until its migration exists.
"""

from __future__ import annotations

import json

import pytest
from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor

from drafts import sql
from drafts.core import autopick, timing
from drafts.models import Seat
from drafts.sql import migration as sql_migration
from tests.drafts.conftest import T0, make_pod, seconds

CHECK_SCHEMA = "drafts_sql_check"


def queues(seat_ids: list[int]) -> list:
    with connection.cursor() as cursor:
        answers = []
        for seat_id in seat_ids:
            cursor.execute("SELECT drafts_seat_queue(%s)", [seat_id])
            (answer,) = cursor.fetchone()
            answers.append(json.loads(answer) if isinstance(answer, str) else answer)
        return answers


def result_type(name: str) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_get_function_result(p.oid) FROM pg_proc p WHERE p.proname = %s", [name])
        return cursor.fetchone()[0]


def language() -> str:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT l.lanname FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang WHERE p.proname = %s",
            ["drafts_seat_queue"],
        )
        return cursor.fetchone()[0]


def migrate(target: tuple[str, str]) -> None:
    executor = MigrationExecutor(connection)
    executor.migrate([target])


def definitions(cursor, schema: str) -> dict[str, str]:
    """Each drafts_ function of ``schema`` as PostgreSQL prints it, by signature (no schema)."""
    cursor.execute(
        "SELECT p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')', pg_get_functiondef(p.oid) "
        "FROM pg_proc p WHERE p.pronamespace = %s::regnamespace AND p.proname LIKE 'drafts\\_%%'",
        [schema],
    )
    return {signature: text.replace(f"{schema}.", "", 1) for signature, text in cursor.fetchall()}


def comments(cursor) -> dict[str, str | None]:
    cursor.execute(
        "SELECT p.proname, obj_description(p.oid, 'pg_proc') FROM pg_proc p "
        "WHERE p.pronamespace = current_schema()::regnamespace AND p.proname LIKE 'drafts\\_%%'"
    )
    return dict(cursor.fetchall())


def database_matches_files() -> None:
    """The database's functions are those the files render, as PostgreSQL prints both (the
    render created in a schema of its own, rolled back), each commented with its digest."""
    rendered = sql.render_all()
    with transaction.atomic(), connection.cursor() as cursor:
        live = definitions(cursor, "public")
        assert comments(cursor) == {name: sql.comment(name, text) for name, text in rendered.items()}
        savepoint = transaction.savepoint()
        try:
            cursor.execute(f"CREATE SCHEMA {CHECK_SCHEMA}")
            cursor.execute(f"SET LOCAL search_path = {CHECK_SCHEMA}, public")
            for text in rendered.values():
                cursor.execute(text)
            expected = definitions(cursor, CHECK_SCHEMA)
        finally:
            transaction.savepoint_rollback(savepoint)
    assert len(expected) == len(sql.FUNCTIONS)
    assert live == expected


# --- the files and the latest migration (any database) ------------------------------------


def test_the_latest_migration_applies_what_the_files_render():
    name, embedded = sql_migration.latest_functions()
    assert list(embedded) == list(sql.FUNCTIONS)
    changed = [function for function, text in sql.render_all().items() if embedded.get(function) != text]
    assert not changed, (
        f"drafts/sql renders {', '.join(changed)} differently from migration {name}: "
        "write the migration that applies them with `python -m drafts.sql migration`"
    )


def test_no_literal_stays_where_a_constant_is_rendered():
    rendered = sql.render_all()
    assert "{{" not in "".join(rendered.values())
    assert f"WHEN 1 THEN {timing.REVIEW_SECONDS[1]} " in rendered["drafts_review_seconds"]
    assert f"v_round >= {timing.ROUNDS} THEN" in rendered["drafts_settle_pod"]
    assert "WHEN 'mythic' THEN 0" in rendered["drafts_automatic_card"]


@pytest.mark.parametrize(
    "edit",
    [
        lambda mp: mp.setitem(timing.REVIEW_SECONDS, 1, 75),
        lambda mp: mp.setitem(timing.PICK_SECONDS, 15, 45),
        lambda mp: mp.setattr(timing, "ROUNDS", 4),
        lambda mp: mp.setattr(timing, "pass_direction", lambda round_number: -1 if round_number % 2 else 1),
        lambda mp: mp.setitem(autopick.RARITY_RANK, "special", 0),
    ],
    ids=["review", "pick-clock", "rounds", "pass-direction", "rarity-rank"],
)
def test_a_changed_constant_changes_the_rendered_sql_and_calls_for_a_migration(monkeypatch, edit):
    before = sql.render_all()
    edit(monkeypatch)
    after = sql.render_all()
    assert after != before
    _name, embedded = sql_migration.latest_functions()
    assert after != embedded  # what test_the_latest_migration_applies_what_the_files_render sees


def test_the_generated_migration_embeds_the_render(monkeypatch):
    monkeypatch.setitem(timing.REVIEW_SECONDS, 2, 120)
    rendered = sql.render_all()
    source = sql_migration.source(
        rendered, dependency="0011_stored_functions", previous="drafts.migrations.0011_stored_functions", doc="x"
    )
    namespace: dict = {}
    exec(compile(source, "generated_migration.py", "exec"), namespace)
    assert namespace["SQL_FUNCTIONS"] == rendered
    assert namespace["Migration"].dependencies == [("drafts", "0011_stored_functions")]


def test_an_unknown_placeholder_is_an_error(tmp_path, monkeypatch):
    (tmp_path / "drafts_pick_seconds.sql").write_text("SELECT {{ NO_SUCH_VALUE }}")
    monkeypatch.setattr(sql, "DIRECTORY", tmp_path)
    with pytest.raises(KeyError, match="NO_SUCH_VALUE"):
        sql.render("drafts_pick_seconds")


# --- the database -------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_database_functions_are_the_rendered_files():
    database_matches_files()


@pytest.mark.django_db(transaction=True)
def test_the_seat_queue_answers_the_same_as_plpgsql_and_back(organiser, players, cube_names):
    pod = make_pod(organiser, players, cube_names)
    seat_ids = list(Seat.objects.filter(pod=pod).order_by("position").values_list("pk", flat=True))
    # Every app's newest migration: going back in drafts also unapplies the apps that depend
    # on it (accounts, judge calls), which the tests after this one need again.
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    now = queues(seat_ids)
    assert language() == "plpgsql"  # planned once per connection (0009)
    assert (result_type("drafts_seat_queue"), result_type("drafts_pick")) == ("json", "json")  # 0023
    assert all(len(queue) == 1 and queue[0]["cards"] for queue in now)
    try:
        migrate(("drafts", "0010_settle_function"))
        # 0023's way back changed the result types that CREATE OR REPLACE cannot.
        assert (result_type("drafts_seat_queue"), result_type("drafts_pick")) == ("jsonb", "jsonb")
        with connection.cursor() as cursor:  # 0010's own texts again, without the digests
            assert set(comments(cursor).values()) == {None}
            cursor.execute("SELECT prosrc FROM pg_proc WHERE proname = 'drafts_pick'")
            (body,) = cursor.fetchone()
        old = __import__("drafts.migrations.0010_settle_function", fromlist=["FUNCTIONS"]).FUNCTIONS
        assert body in old
        assert queues(seat_ids) == now
        migrate(("drafts", "0008_pod_log_actions"))
        assert language() == "sql"
        assert queues(seat_ids) == now
    finally:
        MigrationExecutor(connection).migrate(latest)
    assert language() == "plpgsql"
    assert (result_type("drafts_seat_queue"), result_type("drafts_pick")) == ("json", "json")
    assert queues(seat_ids) == now
    database_matches_files()


@pytest.mark.django_db(transaction=True)
def test_where_each_card_is_survives_the_move_to_arrays_and_back(organiser, players, cube_names):
    """Migration 0021: a pod mid-draft keeps every card's place, in order, both ways: the arrays
    become each card row's pack, seat and pile position again, and come back the same."""
    from drafts import services
    from drafts.access import SYSTEM
    from drafts.models import Pack

    pod = make_pod(organiser, players, cube_names)
    seats = list(Seat.objects.filter(pod=pod).order_by("position"))
    for _ in range(2):
        for seat in seats:
            head = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
            services.make_pick(
                seat_id=seat.pk, draft_card_id=head.card_ids[-1], position=0, now=T0 + seconds(1), actor=SYSTEM
            )
    packs = dict(Pack.objects.filter(pod=pod).values_list("pk", "card_ids"))
    piles = dict(Seat.objects.filter(pod=pod).values_list("pk", "pile_ids"))
    assert all(len(pile) == 2 for pile in piles.values())
    # Every app's leaf: going back unapplies the migrations of other apps that depend on drafts.
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    try:
        migrate(("drafts", "0020_stored_functions"))
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT id, pack_id, seat_id, pile_position, slot FROM drafts_draftcard WHERE pod_id = %s", [pod.pk]
            )
            rows = cursor.fetchall()
        assert len(rows) == sum(map(len, packs.values())) + sum(map(len, piles.values()))
        in_packs = {
            pk: [card for card, *_ in sorted((r for r in rows if r[1] == pk), key=lambda r: r[4])] for pk in packs
        }
        in_piles = {
            pk: [card for card, *_ in sorted((r for r in rows if r[2] == pk), key=lambda r: r[3])] for pk in piles
        }
        assert (in_packs, in_piles) == (packs, piles)
    finally:
        MigrationExecutor(connection).migrate(latest)
    assert dict(Pack.objects.filter(pod=pod).values_list("pk", "card_ids")) == packs
    assert dict(Seat.objects.filter(pod=pod).values_list("pk", "pile_ids")) == piles


@pytest.mark.django_db
def test_no_stored_function_plans_a_scan_of_every_card(organiser, players, cube_names):
    """The stored functions find a pack's or a pile's cards by primary key or through their pod,
    never by scanning the cards table. PL/pgSQL keeps a statement's plan for the connection's
    life: a plan made while the table is small (here every plan generic, the table one pod's)
    is still the plan when it holds a thousand pods' (drafts.sql.CARD_ENTRY)."""
    from drafts import services
    from drafts.access import SYSTEM
    from drafts.models import Pack

    pod = make_pod(organiser, players, cube_names)
    seat = Seat.objects.get(pod=pod, position=0)
    pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
    plans: list[str] = []
    connection.ensure_connection()
    listen = lambda notice: plans.append(notice.message_primary or "")  # noqa: E731
    connection.connection.add_notice_handler(listen)
    settings = {
        "auto_explain.log_min_duration": "0",
        "auto_explain.log_nested_statements": "on",
        "client_min_messages": "log",
        "plan_cache_mode": "force_generic_plan",
    }
    try:
        with connection.cursor() as cursor:
            cursor.execute("LOAD 'auto_explain'")
            for name, value in settings.items():
                cursor.execute("SELECT set_config(%s, %s, false)", [name, value])
            cursor.execute("SELECT drafts_seat_queue(%s)", [seat.pk])
            cursor.execute("SELECT drafts_automatic_card(%s, %s)", [pack.pk, seat.pk])
            services.make_pick(seat_id=seat.pk, draft_card_id=pack.card_ids[0], now=T0 + seconds(1), actor=SYSTEM)
            cursor.execute("SELECT drafts_pod_document(%s)", [pod.pk])
            cursor.execute("RESET ALL")
    finally:
        connection.connection.remove_notice_handler(listen)
    nested = [plan for plan in plans if "drafts_draftcard" in plan]
    assert len(nested) >= 4  # the queue, the automatic card's two reads, the document
    assert not [plan for plan in nested if "Seq Scan on drafts_draftcard" in plan]
