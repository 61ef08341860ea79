"""Writes the migration that applies the stored functions as ``drafts/sql`` renders them now.

Run ``python -m drafts.sql migration`` after changing a file here or a constant they use
(``drafts.core.timing``, ``drafts.core.autopick``, the enums of ``drafts.models``). The migration embeds
the rendered SQL, so it applies the same text whenever it runs (history does not move with the
files); its way back applies the previous one's.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from drafts import sql

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"
PACKAGE = "drafts.migrations"

# What every generated migration runs (kept in the migration itself, so that it never changes
# once written).
APPLY = '''

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
            cursor.execute(
                "SELECT p.oid::regprocedure::text FROM pg_proc p "
                "WHERE p.proname = %s AND p.pronamespace = current_schema()::regnamespace",
                [name],
            )
            for (signature,) in cursor.fetchall():
                cursor.execute(f"DROP FUNCTION {signature}")
        schema_editor.execute(text, params=None)


def apply(schema_editor):
    """Create or replace each function, drop its other overloads (arguments that changed), and
    leave the digest of its SQL in its comment (``drafts.sql.comment``)."""
    for name, text in SQL_FUNCTIONS.items():
        create(schema_editor, name, text)
    with schema_editor.connection.cursor() as cursor:
        for name, text in SQL_FUNCTIONS.items():
            body = text.split("$$")[1]
            cursor.execute(
                "SELECT p.oid::regprocedure::text, p.prosrc = %s FROM pg_proc p "
                "WHERE p.proname = %s AND p.pronamespace = current_schema()::regnamespace",
                [body, name],
            )
            for signature, current in cursor.fetchall():
                if not current:
                    cursor.execute(f"DROP FUNCTION {signature}")
                    continue
                digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
                cursor.execute(f"COMMENT ON FUNCTION {signature} IS 'drafts/sql/{name}.sql sha256:{digest}'")


def forwards(apps, schema_editor):
    apply(schema_editor)
'''

BACKWARDS = '''

def backwards(apps, schema_editor):
    """The previous migration's functions again (a function it did not have is dropped)."""
    previous = importlib.import_module(PREVIOUS)
    with schema_editor.connection.cursor() as cursor:
        for name in set(SQL_FUNCTIONS) - set(previous.SQL_FUNCTIONS):
            cursor.execute(
                "SELECT p.oid::regprocedure::text FROM pg_proc p "
                "WHERE p.proname = %s AND p.pronamespace = current_schema()::regnamespace",
                [name],
            )
            for (signature,) in cursor.fetchall():
                cursor.execute(f"DROP FUNCTION {signature}")
    # A result type this migration changed goes back too (the previous apply cannot change it).
    for name, text in previous.SQL_FUNCTIONS.items():
        if SQL_FUNCTIONS.get(name) != text:
            create(schema_editor, name, text)
    previous.apply(schema_editor)
'''

MIGRATION = '''\
"""{doc}"""

import hashlib
import importlib

from django.db import DatabaseError, migrations, transaction

PREVIOUS = {previous!r}

# Written by ``python -m drafts.sql migration`` from drafts/sql/*.sql: do not edit by hand.
SQL_FUNCTIONS = {{
{functions}}}
{apply}{backwards}

class Migration(migrations.Migration):
    dependencies = [
        ("drafts", {dependency!r}),
    ]

    operations = [
        migrations.RunPython(forwards, backwards, elidable=False),
    ]
'''


def names() -> list[str]:
    """The drafts migrations' module names, in order."""
    return sorted(m.name for m in pkgutil.iter_modules([str(MIGRATIONS)]) if m.name[:4].isdigit())


def latest_functions() -> tuple[str, dict[str, str]]:
    """The latest migration that embeds the functions: its name and ``SQL_FUNCTIONS``."""
    for name in reversed(names()):
        module = importlib.import_module(f"{PACKAGE}.{name}")
        functions = getattr(module, "SQL_FUNCTIONS", None)
        if functions is not None:
            return name, functions
    raise LookupError("no migration embeds the stored functions")


def source(functions: dict[str, str], *, dependency: str, previous: str, doc: str) -> str:
    entries = []
    for name, text in functions.items():
        if '"""' in text or text.count("$$") != 2:
            raise ValueError(f"{name}.sql: one $$ body and no triple quotes, please")
        entries.append(f'    {name!r}: r"""{text}""",\n')
    return MIGRATION.format(
        doc=doc,
        previous=previous,
        functions="".join(entries),
        apply=APPLY,
        backwards=BACKWARDS,
        dependency=dependency,
    )


def write(slug: str = "stored_functions") -> Path | None:
    """Write the next migration if the render differs from the latest one's; its path."""
    previous, embedded = latest_functions()
    rendered = sql.render_all()
    if rendered == embedded:
        return None
    all_names = names()
    number = int(all_names[-1][:4]) + 1
    changed = sorted(name for name in rendered if embedded.get(name) != rendered[name])
    doc = "The stored functions as drafts/sql renders them: " + ", ".join(changed) + " changed."
    target = MIGRATIONS / f"{number:04d}_{slug}.py"
    target.write_text(
        source(rendered, dependency=all_names[-1], previous=f"{PACKAGE}.{previous}", doc=doc),
        encoding="utf-8",
    )
    return target
