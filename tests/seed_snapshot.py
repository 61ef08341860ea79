"""The test database as migrations and the seed catalogue left it, kept table by table.

A ``transaction=True`` test really commits, and Django empties every table when it ends; the
next one gets the seed back from a copy (``serialized_rollback``). Django's own copy is every
object as JSON, written back one ``save`` at a time: 9-14 s before each transactional test
with the seed's sets. This copy is each non-empty table in PostgreSQL's binary ``COPY``
format, written back with ``COPY FROM`` in one transaction (Django's foreign keys are
deferred to its commit): the same rows, ids included, in a fraction of a second.
"""

from __future__ import annotations

from django.db import connections, transaction


def take(alias: str) -> list[tuple[str, bytes]]:
    """Every non-empty table of the database, as ``(table, binary COPY data)``."""
    connection = connections[alias]
    quote = connection.ops.quote_name
    copies = []
    with connection.cursor() as cursor:
        for table in sorted(connection.introspection.django_table_names(only_existing=True, include_views=False)):
            cursor.execute(f"SELECT EXISTS (SELECT 1 FROM {quote(table)})")
            if not cursor.fetchone()[0]:
                continue
            with cursor.cursor.copy(f"COPY {quote(table)} TO STDOUT (FORMAT BINARY)") as copy:
                copies.append((table, b"".join(bytes(block) for block in copy)))
    return copies


def restore(alias: str, copies: list[tuple[str, bytes]]) -> None:
    """Write the tables back. Django flushed them after the last transactional test; the
    first one after rolled-back tests finds the seed still there, so they are emptied first
    (Django's own restore saves over existing rows instead)."""
    connection = connections[alias]
    quote = connection.ops.quote_name
    with transaction.atomic(using=alias), connection.cursor() as cursor:
        cursor.execute(f"TRUNCATE {', '.join(quote(table) for table, _ in copies)} CASCADE")
        for table, data in copies:
            with cursor.cursor.copy(f"COPY {quote(table)} FROM STDIN (FORMAT BINARY)") as copy:
                copy.write(data)


kept: dict[str, list[tuple[str, bytes]]] = {}  # by database alias


def keep(alias: str) -> None:
    """Take the copy now, and have Django restore it instead of its serialized one."""
    copies = kept[alias] = take(alias)
    connection = connections[alias]
    # Still set: Django restores only when it is. The restore is this copy's, not the string's.
    setattr(connection, "_test_serialized_contents", "")  # noqa: B010 - Django's private attribute
    setattr(connection.creation, "deserialize_db_from_string", lambda _data: restore(alias, copies))  # noqa: B010
