"""The bench's own PostgreSQL, set as deploy/postgresql.md sets a site's, and its cached databases.

A shared development server is not a deployment: its autovacuum may be off, its other
databases' sessions hold back cleanup, and its CPU is everyone's. ``bench/draft_load`` (by
default) and ``bench/pick_function --own-postgres`` start a cluster of their own instead, with
what ``deploy/`` requires (autovacuum on, synchronous commit on, ``shared_buffers`` and
connections as ``deploy/rehearsal`` runs them), and count its every process's CPU (autovacuum
included) as PostgreSQL's.

The cluster's folder is kept between runs (under the system's temporary folder, which the
postgres user can write), and with it the finished databases the bench builds once: schema, the
set's cards, the bench's players and N finished events (bench/history.py), vacuumed and
analysed. A run copies one (``CREATE DATABASE ... TEMPLATE``: seconds, where writing 20 events
takes minutes); its name carries a digest of every migration and of the scripts that write it,
so code with other migrations builds its own.
"""

from __future__ import annotations

import hashlib
import os
import socket
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PG_BIN = Path(os.environ.get("PG_BIN", "/usr/lib/postgresql/15/bin"))

# deploy/postgresql.md; the rehearsal's data host runs the same.
DEPLOY_SETTINGS = {
    "autovacuum": "on",
    "synchronous_commit": "on",
    "max_connections": "200",
    "shared_buffers": "256MB",
    "track_functions": "pl",
    "tcp_keepalives_idle": "10",
    "tcp_keepalives_interval": "5",
    "tcp_keepalives_count": "2",
    "client_connection_check_interval": "5s",
}


def _as_postgres(*command: str) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else list(command)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Cluster:
    """A PostgreSQL cluster in its own folder, on a free port of 127.0.0.1."""

    def __init__(self, name: str, statements: bool = False) -> None:
        self.data = Path(os.environ.get("BENCH_PG_DIR", Path(tempfile.gettempdir()) / f"draftsite-{name}-pgdata"))
        self.statements = statements  # pg_stat_statements (what grows: issue 48); off as deployed
        self.port = 0

    def settings(self) -> dict[str, str]:
        extra = (
            {"shared_preload_libraries": "pg_stat_statements", "pg_stat_statements.track": "all"}
            if self.statements
            else {}
        )
        return {**DEPLOY_SETTINGS, **extra}

    def start(self) -> int:
        """Start the cluster (made on first use; one a crashed run left is stopped first)."""
        if not (self.data / "PG_VERSION").exists():
            self.data.mkdir(parents=True, exist_ok=True)
            if os.geteuid() == 0:
                os.chown(self.data, *_postgres_ids())
            self.data.chmod(0o700)
            subprocess.run(
                _as_postgres(
                    str(PG_BIN / "initdb"), "-D", str(self.data), "-U", "postgres", "-A", "trust", "--no-sync"
                ),
                check=True,
                capture_output=True,
            )
        if (self.data / "postmaster.pid").exists():
            self.stop()
        self.port = _free_port()
        options = f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories={self.data}" + "".join(
            f" -c {key}={value}" for key, value in self.settings().items()
        )
        subprocess.run(
            _as_postgres(
                str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-l", str(self.data / "server.log"), "-o", options, "-w"
            )
            + ["-t", "60", "start"],
            check=True,
            capture_output=True,
        )
        return self.port

    def url(self, dbname: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{dbname}"

    @property
    def postmaster_pid(self) -> int:
        return int((self.data / "postmaster.pid").read_text().split()[0])

    def stop(self) -> None:
        subprocess.run(
            _as_postgres(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "-t", "60", "stop"),
            capture_output=True,
        )


def _postgres_ids() -> tuple[int, int]:
    import pwd

    entry = pwd.getpwnam("postgres")
    return entry.pw_uid, entry.pw_gid


def schema_digest(*extra: str) -> str:
    """What a cached database was built from: every app's migrations, bench/history.py and the
    bench's own preparation (``extra``: e.g. the set, the players, the events)."""
    digest = hashlib.sha256()
    for path in sorted(ROOT.glob("*/migrations/*.py")) + [ROOT / "bench" / "history.py"]:
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    for value in extra:
        digest.update(b"\0" + value.encode())
    return digest.hexdigest()[:10]


def copy_database(admin_url: str, template: str, name: str) -> float:
    """``name`` made anew as a copy of ``template`` (nobody may be connected to either);
    returns the seconds it took."""
    import psycopg

    started = time.perf_counter()
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        for attempt in range(20):
            # Autovacuum's workers visit a database just written; a copy needs it to itself.
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                [template],
            )
            try:
                # FILE_COPY: one checkpoint and the files copied, where WAL_LOG writes every
                # block to the WAL (a 20-event database is a few hundred megabytes).
                conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}" STRATEGY FILE_COPY')
                break
            except psycopg.errors.ObjectInUse:
                if attempt == 19:
                    raise
                time.sleep(0.5)
    return time.perf_counter() - started


def database_exists(admin_url: str, name: str) -> bool:
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        return conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone() is not None


def rows_digest(*extra: str) -> str:
    """What a cached database's rows were written by (bench/history.py and the shape), whatever
    its migrations: a build with fewer migrations can be migrated forward to serve newer code."""
    digest = hashlib.sha256((ROOT / "bench" / "history.py").read_bytes())
    for value in extra:
        digest.update(b"\0" + value.encode())
    return digest.hexdigest()[:10]


def label_rows(admin_url: str, name: str, rows: str) -> None:
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f"COMMENT ON DATABASE \"{name}\" IS 'bench rows {rows}'")


def code_migrations() -> set[tuple[str, str]]:
    """Every migration of this code, as (app, name)."""
    return {(path.parent.parent.name, path.stem) for path in ROOT.glob("*/migrations/[0-9]*.py")}


def forward_base(admin_url: str, rows: str) -> str | None:
    """A cached database of the same rows whose applied migrations are all in this code (so
    ``migrate`` brings it to this code's schema), the one with the most; None if there is none."""
    import psycopg

    mine = code_migrations()
    best: tuple[int, str] | None = None
    with psycopg.connect(admin_url, autocommit=True) as conn:
        names = [
            row[0]
            for row in conn.execute(
                "SELECT datname FROM pg_database WHERE shobj_description(oid, 'pg_database') = %s",
                [f"bench rows {rows}"],
            ).fetchall()
        ]
    for name in names:
        with psycopg.connect(admin_url.rsplit("/", 1)[0] + f"/{name}", autocommit=True) as conn:
            applied = {(app, migration) for app, migration in conn.execute("SELECT app, name FROM django_migrations")}
        ours = {(app, migration) for app, migration in applied if (ROOT / app / "migrations").is_dir()}
        if ours <= mine and (best is None or len(ours) > best[0]):
            best = (len(ours), name)
    return best[1] if best else None
