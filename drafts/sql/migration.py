"""Writes the migration that applies the stored functions that changed since the last one.

Run ``python -m drafts.sql migration`` after changing a file here or a constant they use
(``drafts.core.timing``, ``drafts.core.autopick``, the enums of ``drafts.models``). The migration
embeds the rendered SQL of the functions whose text changed, and nothing of the others, so it
applies the same text whenever it runs (history does not move with the files); it also embeds
the text those functions had before it, which its way back applies.

What the migrations leave is composed in order: a migration without ``PREVIOUS_FUNCTIONS``
(0011-0027 and the squash, which embed every function) sets all of them; one with it changes
only the functions it names (``None``: dropped).
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
'''

MIGRATION = '''\
"""{doc}"""

import hashlib

from django.db import DatabaseError, migrations, transaction

# Written by ``python -m drafts.sql migration`` from drafts/sql/*.sql: do not edit by hand.
# Only the functions this migration changes: their text now (None: dropped)...
SQL_FUNCTIONS = {{
{functions}}}

# ... and before it (None: it did not exist), which the way back applies.
PREVIOUS_FUNCTIONS = {{
{previous}}}
{apply}

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
    """The functions as the drafts migrations leave them, in creation order, and the name of the
    latest migration that changes any."""
    latest = None
    functions: dict[str, str] = {}
    for name in names():
        module = importlib.import_module(f"{PACKAGE}.{name}")
        embedded = getattr(module, "SQL_FUNCTIONS", None)
        if embedded is None:
            continue
        latest = name
        if getattr(module, "PREVIOUS_FUNCTIONS", None) is None:
            functions = dict(embedded)  # every function (0011-0027, the squash)
            continue
        for function, text in embedded.items():
            if text is None:
                functions.pop(function, None)
            else:
                functions[function] = text
    if latest is None:
        raise LookupError("no migration embeds the stored functions")
    order = {function: n for n, function in enumerate(sql.FUNCTIONS)}
    return latest, dict(sorted(functions.items(), key=lambda item: order.get(item[0], len(order))))


def changes(rendered: dict[str, str], embedded: dict[str, str]) -> tuple[dict[str, str | None], dict[str, str | None]]:
    """What a migration from ``embedded`` to ``rendered`` embeds: the changed functions' new text
    (``None``: dropped) and their previous text (``None``: new), in creation order."""
    functions: dict[str, str | None] = {name: text for name, text in rendered.items() if embedded.get(name) != text}
    functions.update((name, None) for name in embedded if name not in rendered)
    return functions, {name: embedded.get(name) for name in functions}


def entries(functions: dict[str, str | None]) -> str:
    lines = []
    for name, text in functions.items():
        if text is None:
            lines.append(f"    {name!r}: None,\n")
            continue
        if '"""' in text or text.count("$$") != 2 or text.endswith("\\"):
            raise ValueError(f"{name}.sql: one $$ body and no triple quotes, please")
        lines.append(f'    {name!r}: r"""{text}""",\n')
    return "".join(lines)


def source(functions: dict[str, str | None], previous: dict[str, str | None], *, dependency: str, doc: str) -> str:
    """A migration's source that applies ``functions`` and, backwards, ``previous``."""
    if set(functions) != set(previous):
        raise ValueError("the way back names the same functions as the way forward")
    return MIGRATION.format(
        doc=doc,
        functions=entries(functions),
        previous=entries(previous),
        apply=APPLY,
        dependency=dependency,
    )


def write(slug: str = "stored_functions") -> Path | None:
    """Write the next migration if the render differs from what the migrations leave; its path."""
    _latest, embedded = latest_functions()
    functions, previous = changes(sql.render_all(), embedded)
    if not functions:
        return None
    all_names = names()
    number = int(all_names[-1][:4]) + 1
    changed = [name for name, text in functions.items() if text is not None]
    dropped = [name for name, text in functions.items() if text is None]
    doc = "The stored functions that drafts/sql renders differently: " + ", ".join(changed) + " changed"
    doc += "; " + ", ".join(dropped) + " dropped." if dropped else "."
    target = MIGRATIONS / f"{number:04d}_{slug}.py"
    target.write_text(source(functions, previous, dependency=all_names[-1], doc=doc), encoding="utf-8")
    return target
