"""Deadlines are enforced by a real Celery worker on Redis, with nobody reading the pod.

The worker is a separate process on the same test database (committed data: transactional
test) and a Redis broker, as in production.
"""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
import redis
from django.utils import timezone

from drafts.models import Pick, PickKind, Seat
from tests import cluster
from tests.drafts.conftest import make_pod

# serialized_rollback: these tests commit for real, and the seed catalogue must come back.
pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


@pytest.fixture(scope="module")
def redis_url():
    """A private redis-server for the broker the worker and this process share."""
    # Always a private server: the shared one also holds this process's cache and broker.
    port = cluster.free_port()
    process = cluster.start_redis(port)
    yield f"redis://127.0.0.1:{port}/0"
    process.kill()


@pytest.fixture
def worker(redis_url, settings):
    """A real worker process, and this process sending tasks to it instead of running them."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    redis.Redis.from_url(redis_url).flushdb()
    with cluster.broker(redis_url):
        process = cluster.start_worker(redis_url, beat=True)
        yield process
        cluster.stop(process)


def test_a_worker_enforces_pick_deadlines_without_any_reads(worker, organiser, players, cube_names):
    # Started 38 s ago: the 40 s timers run out in about 2 s, and beat's sweep (the only
    # timer) takes the timeout picks.
    pod = make_pod(organiser, players, cube_names, now=timezone.now() - timedelta(seconds=38))
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
