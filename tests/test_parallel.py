"""The parallel suite's isolation (tests/parallel.py): each worker a Redis database of its own."""

import pytest

from tests.parallel import FIRST_WORKER_DB, worker_redis_url


def test_each_worker_gets_its_own_redis_database_on_the_same_server():
    assert worker_redis_url("redis://127.0.0.1:6379/0", "gw0") == f"redis://127.0.0.1:6379/{FIRST_WORKER_DB}"
    assert worker_redis_url("redis://127.0.0.1:6379/0", "gw3") == f"redis://127.0.0.1:6379/{FIRST_WORKER_DB + 3}"
    assert (
        worker_redis_url("redis://:secret@cache:6380/2", "gw1") == f"redis://:secret@cache:6380/{FIRST_WORKER_DB + 1}"
    )


def test_more_workers_than_redis_databases_are_refused():
    with pytest.raises(RuntimeError):
        worker_redis_url("redis://127.0.0.1:6379/0", "gw6")
