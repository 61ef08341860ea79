"""Deadlines are enforced by a real Celery worker on Redis, with nobody reading the pod.

The worker is a separate process on the same test database (committed data: transactional
test) and a Redis broker, as in production.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
import redis
from django.conf import settings as django_settings
from django.db import connection
from django.utils import timezone

from draftsite.celery import app as celery_app
from drafts.models import Pick, PickKind, Seat
from tests.drafts.conftest import make_pod

# serialized_rollback: these tests commit for real, and the seed catalogue must come back.
pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)
ROOT = Path(__file__).resolve().parents[2]


def _reachable(url: str) -> bool:
    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


@pytest.fixture(scope="module")
def redis_url():
    """The Redis to use: $REDIS_URL, the local default, or a private server started here."""
    url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/15"
    if _reachable(url):
        yield url
        return
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.fail("The worker test needs Redis: set REDIS_URL or install redis-server.")
    process = subprocess.Popen([binary, "--port", "6391", "--save", "", "--appendonly", "no"],
                               stdout=subprocess.DEVNULL)
    url = "redis://127.0.0.1:6391/0"
    for _ in range(50):
        if _reachable(url):
            break
        time.sleep(0.1)
    yield url
    process.terminate()


def _database_url() -> str:
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    user, host, port = db.get("USER") or "postgres", db.get("HOST") or "127.0.0.1", db.get("PORT") or 5432
    return f"postgres://{user}@{host}:{port}/{db['NAME']}"


@pytest.fixture
def worker(redis_url, settings):
    """A real worker process, and this process sending tasks to it instead of running them."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    old = {key: celery_app.conf[key] for key in ("task_always_eager", "broker_url", "result_backend")}
    celery_app.conf.update(task_always_eager=False, broker_url=redis_url, result_backend=None)
    redis.Redis.from_url(redis_url).flushdb()
    env = {**os.environ, "DATABASE_URL": _database_url(), "REDIS_URL": redis_url,
           "DJANGO_SETTINGS_MODULE": "draftsite.settings"}
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "draftsite", "worker", "--pool", "solo",
         "--concurrency", "1", "--loglevel", "WARNING", "--without-heartbeat", "--without-gossip",
         "--without-mingle"],
        cwd=ROOT, env=env, start_new_session=True)
    yield process
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
    celery_app.conf.update(task_always_eager=old["task_always_eager"], broker_url=old["broker_url"],
                           result_backend=old["result_backend"])
    assert django_settings.CELERY_TASK_ALWAYS_EAGER is False


def test_a_worker_enforces_pick_deadlines_without_any_reads(worker, organiser, players, cube_names):
    # Started 38 s ago: the 40 s timers run out in about 2 s.
    pod = make_pod(organiser, players, cube_names, now=timezone.now() - timedelta(seconds=38))
    from drafts.tasks import schedule_deadline_check

    schedule_deadline_check(pod.pk)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if Pick.objects.filter(seat__pod=pod).count() >= 8:
            break
        time.sleep(0.25)
    picks = Pick.objects.filter(seat__pod=pod)
    assert picks.count() == 8, "the worker did not enforce the deadlines"
    assert set(picks.values_list("kind", flat=True)) == {PickKind.TIMEOUT}
    assert {p.seat_id for p in picks} == set(Seat.objects.filter(pod=pod).values_list("pk", flat=True))
    assert worker.poll() is None  # still alive: no crash on the way
