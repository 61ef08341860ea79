"""``bench/draft_load --balancer`` end to end: three pods of page clients draft through HAProxy
(deploy/haproxy.cfg) in front of two single-worker uvicorn processes, and each pod's pages are
all on one process (``?pod=``).

Needs HAProxy (CI installs it, as for the rehearsal) and Redis (the two web processes share
live updates through it); skips with the reason elsewhere. About a minute: the bench makes a
database of its own on the test database's server, migrates it, then starts its servers.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("haproxy") is None, reason="HAProxy is not installed"),
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="two web processes need Redis (REDIS_URL)"),
]


def _bench_database_url() -> str:
    db = settings.DATABASES["default"]
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    user = db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{user}{password}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/draftsite_bench_balanced_{worker}"


def test_three_pods_draft_through_haproxy_each_on_one_web_process(tmp_path):
    results = tmp_path / "results"
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "DJANGO_SETTINGS_MODULE"}}
    ran = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "draft_load.py"),
            *("--client", "page", "--mode", "event", "--players", "24", "--web-workers", "2", "--balancer"),
            *("--event-seconds", "8", "--think", "0.5", "1.5", "--observers", "0", "--no-profile", "--history", "0"),
            *("--results-dir", str(results), "--database-url", _bench_database_url()),
            *("--redis-url", os.environ["REDIS_URL"]),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=400,
    )
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    result = json.loads((results / "draft_load_event_24p_2web_lb_page.json").read_text())
    assert result["server"]["balancer"] and result["picks"] > 0
    assert result["errors"]["total"] == 0 and result["conservation"]["problems"] == {}
    # The balancer's own CPU is counted apart, and in the servers' total.
    assert result["usage"]["cpu_ms_per_pick"]["balancer"] > 0
    # 24 seat pages, 8 a pod, and nothing else open: whole pods on each web process, two on one
    # and one on the other (placed by load alone, the pages would be 12 and 12).
    assert sorted(result["balancer_open_connections"].values()) == [8, 16], result["balancer_open_connections"]
