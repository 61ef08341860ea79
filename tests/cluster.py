"""Real processes for the worker and fault tests: Redis, Celery workers, ASGI web servers.

They share the test database with the test process (committed data: transactional tests),
as the production shape shares PostgreSQL.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
import redis
from django.db import connection

ROOT = Path(__file__).resolve().parents[1]


def reachable(url: str) -> bool:
    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_redis(port: int) -> subprocess.Popen:
    """A private redis-server (the tests may stop it without touching anyone else's)."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.fail("These tests need redis-server (Debian package redis-server).")
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    for _ in range(100):
        if reachable(f"redis://127.0.0.1:{port}/0"):
            return process
        time.sleep(0.05)
    process.kill()
    pytest.fail("redis-server did not start")


def database_url() -> str:
    db = connection.settings_dict
    user, host, port = db.get("USER") or "postgres", db.get("HOST") or "127.0.0.1", db.get("PORT") or 5432
    # The embedded server's host is its socket folder: percent-encoded, as dj-database-url reads it.
    return f"postgres://{user}@{urllib.parse.quote(str(host), safe='')}:{port}/{db['NAME']}"


def service_env(redis_url: str) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": database_url(),
        "REDIS_URL": redis_url,
        "DJANGO_SETTINGS_MODULE": "draftsite.settings",
        "DEBUG": "0",
        "SECURE_HTTPS": "0",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DEADLINE_SWEEP_SECONDS": "1",
    }


def start_worker(redis_url: str, *, beat: bool = False) -> subprocess.Popen:
    command = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "draftsite",
        "worker",
        "--pool",
        "solo",
        "--loglevel",
        "WARNING",
        "--without-heartbeat",
        "--without-gossip",
        "--without-mingle",
    ]
    if beat:
        command += ["--beat", "--schedule", str(Path(os.environ.get("TMPDIR", "/tmp")) / f"beat-{os.getpid()}")]
    return subprocess.Popen(command, cwd=ROOT, env=service_env(redis_url), start_new_session=True)


def start_web(redis_url: str, port: int) -> subprocess.Popen:
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "draftsite.asgi:application",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=service_env(redis_url),
        start_new_session=True,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail("the web server exited")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                return process
        except OSError:
            time.sleep(0.2)
    stop(process)
    pytest.fail("the web server did not start")


def stop(process: subprocess.Popen, sig: int = signal.SIGTERM) -> None:
    try:
        os.killpg(process.pid, sig)
    except ProcessLookupError:
        return
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


def wait_for(condition, seconds: float = 30.0, every: float = 0.25) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(every)
    return condition()


class broker:
    """Send this process's Celery tasks to ``url`` for a while (instead of running them inline).

    Celery caches its broker connection pool; it is dropped on the way in and out, so the
    next test never talks to a Redis that an earlier test stopped.
    """

    KEYS = ("task_always_eager", "broker_url", "result_backend")

    def __init__(self, url: str) -> None:
        self.url = url

    @staticmethod
    def _reset_pools() -> None:
        from draftsite.celery import app

        if app._pool is not None:
            app._pool.force_close_all()
            app._pool = None
        app.amqp._producer_pool = None

    def __enter__(self):
        from draftsite.celery import app

        self.old = {key: app.conf[key] for key in self.KEYS}
        self._reset_pools()
        app.conf.update(task_always_eager=False, broker_url=self.url, result_backend=None)
        return self

    def __exit__(self, *exc) -> None:
        from draftsite.celery import app

        self._reset_pools()
        app.conf.update(**self.old)
