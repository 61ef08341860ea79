"""A web host lost mid-round, on real hosts: deploy/rehearsal's namespaces (a balancer, two web
hosts, a data host with its own PostgreSQL and Redis), one pod of 8 scripted pages
(bench/draft_load's page client) drafting through HAProxy, one web host SIGKILLed in round 1.

Runs where network namespaces can be created (root, with haproxy, nft and PostgreSQL's
binaries: CI installs them); skips with the reason elsewhere. Its hosts use their own names and
/24 (``tst``, 198.18.33.0/24) and run directory, so it never touches a manual rehearsal, and
it tears everything down even when it fails. About 90-150 s.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "deploy"))

import rehearsal  # noqa: E402  (deploy/ is no package)

NAME, NET = "tst", "198.18.33"


def _why_not() -> str | None:
    why = rehearsal.can_create_namespaces()
    if why:
        return why
    missing = rehearsal.missing_programs()
    return "missing " + ", ".join(missing) if missing else None


WHY_NOT = _why_not()

pytestmark = [
    pytest.mark.slow,
    pytest.mark.rehearsal,
    pytest.mark.skipif(WHY_NOT is not None, reason=f"the rehearsal needs network namespaces: {WHY_NOT}"),
]


def _rehearsal(run_dir: Path, *args: str, timeout: float) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "REHEARSAL_NAME": NAME,
        "REHEARSAL_NET": NET,
        "REHEARSAL_RUN_DIR": str(run_dir),
        "WEB_WORKERS": "1",
    }
    for key in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY"):  # the rehearsal's hosts bring their own
        env.pop(key, None)
    return subprocess.run(
        [sys.executable, str(ROOT / "deploy" / "rehearsal.py"), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _namespaces() -> set[str]:
    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    return {line.split()[0] for line in listed.splitlines() if line.startswith(f"{NAME}-")}


@pytest.fixture
def hosts(tmp_path):
    run_dir = tmp_path / "rehearsal"
    assert not _namespaces(), "namespaces of an earlier test run are left: `ip netns list`"
    try:
        started = _rehearsal(run_dir, "start", timeout=240)
        assert started.returncode == 0, started.stderr[-3000:]
        yield run_dir
    finally:
        stopped = _rehearsal(run_dir, "stop", timeout=120)
        assert stopped.returncode == 0, stopped.stderr[-3000:]
        assert not _namespaces()


def test_a_web_host_killed_mid_round_loses_no_pick_and_its_pages_come_back(hosts, tmp_path):
    results = tmp_path / "results"
    ran = _rehearsal(
        hosts,
        *("run", "failover", "--players", "8", "--seconds", "30", "--think", "0.5", "2.5"),
        *("--fault-at", "8", "--down-for", "6", "--observers", "0", "--results-dir", str(results)),
        timeout=300,
    )
    report = json.loads((results / "rehearsal_failover_8p.json").read_text()) if results.exists() else None
    assert report is not None, ran.stdout[-3000:] + ran.stderr[-3000:]
    fault, saved = report["fault"], report["conservation"]
    # The balancer had put the pod's pages on one host (?pod=, deploy/haproxy.cfg): the host
    # killed (the busiest) held every one of them.
    assert fault["open_sessions_before"][fault["killed_host"]] >= 8, fault["open_sessions_before"]
    assert fault["killed_pids"], "nothing ran on the host that was killed"
    # The killed host's pages came back through the balancer and drafted on: every seat made a
    # pick of its own after the loss (a pack only moves when its holder picks).
    assert report["reconnects"] >= 1 and report["reconnect_ms"]["count"] >= 1
    assert fault["seats"] == 8 and fault["seats_that_picked_after_the_loss"] == 8
    # Still in the first round when the host died (mid-round, as the test means to be).
    assert 0 < report["picks"] and fault["killed_at_window_s"] < report["window_s"]
    # Nothing lost, nothing twice, no clock run out because of the loss (the grace rule,
    # PICK_TIMER_GRACE_SECONDS: no timeout pick in the window).
    assert saved["acknowledged_picks_missing"] == 0
    assert saved["duplicated_picks"] == 0 and saved["seats_with_a_pick_number_twice"] == 0
    assert saved["problems"] == {}
    assert saved["timeout_picks_in_window"] == 0
    # The balancer stopped routing to the dead host within its checks (1 s apart, two failures),
    # and took it back once it served again.
    # (2 failed checks: at most ~2 s; 5 s leaves room for a busy machine.)
    assert fault["balancer_down_after_s"] is not None and fault["balancer_down_after_s"] <= 5
    assert fault["sessions_taken_after_return"] > 0
    assert report["verdict"]["all"], report["verdict"]
