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


SQUASH = ("drafts", "0031_squashed")


def migrate(target: tuple[str, str]) -> None:
    """To a migration the squash replaced, Django's way: it reads the graph without the squash."""
    executor = MigrationExecutor(connection)
    executor.migrate([target])


def migrate_to_latest() -> None:
    """Every app's newest migration, as the graph has it now: from a migration the squash
    replaced, the rest of the chain it replaced (the squash counts as applied at its end)."""
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


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


def test_the_generated_migration_embeds_only_the_functions_that_changed(monkeypatch):
    _name, embedded = sql_migration.latest_functions()
    monkeypatch.setitem(timing.REVIEW_SECONDS, 2, 120)
    rendered = sql.render_all()
    functions, previous = sql_migration.changes(rendered, embedded)
    assert list(functions) == ["drafts_review_seconds"]  # drafts_settle_pod calls it, unchanged
    assert functions["drafts_review_seconds"] == rendered["drafts_review_seconds"]
    assert previous == {"drafts_review_seconds": embedded["drafts_review_seconds"]}
    source = sql_migration.source(functions, previous, dependency="0027_stored_functions", doc="x")
    namespace: dict = {}
    exec(compile(source, "generated_migration.py", "exec"), namespace)
    assert namespace["SQL_FUNCTIONS"] == functions
    assert namespace["PREVIOUS_FUNCTIONS"] == previous
    assert namespace["Migration"].dependencies == [("drafts", "0027_stored_functions")]
    assert "drafts_pick(" not in source  # an unchanged function's text is not in it


def test_a_new_and_a_dropped_function_are_embedded_with_none_on_the_other_side():
    functions, previous = sql_migration.changes({"a": "A2", "b": "B", "new": "N"}, {"a": "A1", "b": "B", "gone": "G"})
    assert functions == {"a": "A2", "new": "N", "gone": None}
    assert previous == {"a": "A1", "new": None, "gone": "G"}


def test_write_writes_a_migration_of_the_changed_functions_only(monkeypatch, tmp_path):
    name, embedded = sql_migration.latest_functions()
    assert sql_migration.write() is None  # the files render what the migrations left
    names = sql_migration.names()
    monkeypatch.setattr(sql_migration, "names", lambda: names)
    monkeypatch.setattr(sql_migration, "MIGRATIONS", tmp_path)
    monkeypatch.setitem(autopick.RARITY_RANK, "special", 0)
    target = sql_migration.write()
    assert target == tmp_path / f"{int(names[-1][:4]) + 1:04d}_stored_functions.py"
    namespace: dict = {}
    exec(compile(target.read_text(encoding="utf-8"), str(target), "exec"), namespace)
    assert list(namespace["SQL_FUNCTIONS"]) == ["drafts_automatic_card"]
    assert namespace["PREVIOUS_FUNCTIONS"] == {"drafts_automatic_card": embedded["drafts_automatic_card"]}
    assert namespace["Migration"].dependencies == [("drafts", names[-1])]


def generated(functions: dict, previous: dict) -> dict:
    namespace: dict = {}
    source = sql_migration.source(functions, previous, dependency="0027_stored_functions", doc="x")
    exec(compile(source, "generated_migration.py", "exec"), namespace)
    return namespace


@pytest.mark.django_db
def test_a_generated_migration_applies_its_functions_and_its_way_back_restores_them(monkeypatch):
    """Forwards: the changed functions' new text, a new function created, a result type changed
    (dropped and created: CREATE OR REPLACE cannot); backwards: the previous text of just those."""
    _name, embedded = sql_migration.latest_functions()
    monkeypatch.setitem(timing.REVIEW_SECONDS, 1, 75)
    changed = sql.render_all()["drafts_review_seconds"]
    widened = embedded["drafts_pick_seconds"].replace("RETURNS integer", "RETURNS bigint", 1)
    new = "CREATE OR REPLACE FUNCTION drafts_zz_new() RETURNS integer LANGUAGE sql AS $$ SELECT 7 $$;\n"
    functions = {"drafts_pick_seconds": widened, "drafts_review_seconds": changed, "drafts_zz_new": new}
    previous = {name: embedded.get(name) for name in functions}
    module = generated(functions, previous)
    with connection.schema_editor() as editor:
        module["forwards"](None, editor)
    with connection.cursor() as cursor:
        cursor.execute("SELECT drafts_review_seconds(1), drafts_zz_new()")
        assert cursor.fetchone() == (75, 7)
        assert comments(cursor)["drafts_zz_new"] == sql.comment("drafts_zz_new", new)
        assert comments(cursor)["drafts_review_seconds"] == sql.comment("drafts_review_seconds", changed)
    assert result_type("drafts_pick_seconds") == "bigint"
    with connection.schema_editor() as editor:
        module["backwards"](None, editor)
    assert result_type("drafts_pick_seconds") == "integer"
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_proc WHERE proname = 'drafts_zz_new'")
        assert cursor.fetchone() == (0,)
    monkeypatch.undo()
    database_matches_files()  # every function as the migrations left it, comments included


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
    # Going back in drafts also unapplies the apps that depend on it (accounts, judge calls),
    # which the tests after this one need again: migrate_to_latest.
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
        migrate_to_latest()
    assert language() == "plpgsql"
    assert (result_type("drafts_seat_queue"), result_type("drafts_pick")) == ("json", "json")
    assert queues(seat_ids) == now
    database_matches_files()


@pytest.mark.django_db(transaction=True)
def test_where_each_card_is_survives_the_move_to_arrays_and_back(organiser, players, cube_names):
    """Migration 0021: a pod mid-draft keeps every card's place, in order, both ways: the arrays
    become each card row's pack, seat and pile position again, and come back the same."""
    from drafts import services
    from drafts.models import Pack
    from events.access import SYSTEM

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
        migrate_to_latest()
    assert dict(Pack.objects.filter(pod=pod).values_list("pk", "card_ids")) == packs
    assert dict(Seat.objects.filter(pod=pod).values_list("pk", "pile_ids")) == piles
    # A database at 0020 with a pod in it went on through 0021-0027 and so past the squash:
    # the graph has the squash again, applied, and nothing left to run.
    executor = MigrationExecutor(connection)
    assert SQUASH in executor.loader.applied_migrations
    assert ("drafts", "0020_stored_functions") not in executor.loader.graph.nodes
    assert executor.migration_plan(executor.loader.graph.leaf_nodes()) == []
    database_matches_files()


@pytest.mark.django_db
def test_no_stored_function_plans_a_scan_of_every_card(organiser, players, cube_names):
    """The stored functions find a pack's or a pile's cards by primary key or through their pod,
    never by scanning the cards table. PL/pgSQL keeps a statement's plan for the connection's
    life: a plan made while the table is small (here every plan generic, the table one pod's)
    is still the plan when it holds a thousand pods' (drafts.sql.CARD_ENTRY)."""
    from drafts import services
    from drafts.models import Pack
    from events.access import SYSTEM

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
