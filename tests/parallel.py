"""Each pytest-xdist worker gets Redis of its own (loaded with ``-p tests.parallel``).

pytest-django already gives every worker its own test database (``test_draftsite_gw0``, ...),
so the workers' rows share ids: pod 7 exists in each of them. With one Redis, their cache keys
(throttles, presence, card payloads) would collide, and a test that clears the cache would
``FLUSHDB`` the others' keys away. Imported before Django reads its settings, this moves each
worker to a Redis database of its own on the same server. Without xdist it changes nothing.
"""

import os
import urllib.parse

# Databases 0-9 are left to the site, the benches and ad-hoc runs; workers use 10 and up.
FIRST_WORKER_DB = 10
REDIS_DATABASES = 16


def worker_redis_url(url: str, worker: str) -> str:
    number = int(worker.removeprefix("gw"))
    if FIRST_WORKER_DB + number >= REDIS_DATABASES:
        raise RuntimeError(f"at most {REDIS_DATABASES - FIRST_WORKER_DB} workers share one Redis")
    parts = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit(parts._replace(path=f"/{FIRST_WORKER_DB + number}"))


_worker = os.environ.get("PYTEST_XDIST_WORKER")
if _worker and os.environ.get("REDIS_URL"):
    os.environ["REDIS_URL"] = worker_redis_url(os.environ["REDIS_URL"], _worker)
    os.environ["CACHE_KEY_PREFIX"] = f"draftsite-{_worker}"
