"""The figure: the judge-call queue of a 200-table event with 50 open calls updates within
250 ms of a new call (the JSON says whether the median met it; the test bounds it by 1 s) (headless Chromium, real ASGI server, the shared 2-core machine).

Each new call is posted over HTTP to the server (the player's API, so the server's channel
layer notifies its sockets); the page records when the new row appears (a MutationObserver,
wall clock) and the test compares it with the moment before the post. bench/judge_queue.py
runs this with BENCH_OUTPUT set, which writes the figures as JSON.
"""

from __future__ import annotations

import json
import os
import statistics
import time
from datetime import UTC, datetime

import pytest

from judgecalls import services
from matches.models import PairingMode
from tests.e2e.test_live_draft import live, wait
from tests.matches.conftest import T0, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
TABLES, OPEN_CALLS, SAMPLES, TARGET_MS = 200, 50, 10, 250
# The test's own bound is looser than the figure's target so that it holds on a busy shared
# machine; it still fails on the old behaviour (live.js's 2-second spacing of "changed").
BOUND_MS = 1000

WATCH = """
window.__seen = {};
new MutationObserver(function () {
  document.querySelectorAll('tr[data-call]').forEach(function (row) {
    var id = row.getAttribute('data-call');
    if (!(id in window.__seen)) window.__seen[id] = performance.timeOrigin + performance.now();
  });
}).observe(document.getElementById('live-panel'), {childList: true, subtree: true});
document.querySelectorAll('tr[data-call]').forEach(function (row) { window.__seen[row.getAttribute('data-call')] = 0; });
"""


def test_the_queue_updates_within_250_ms_of_a_new_call(server_url, browsers, login, api_for):
    from django.utils import timezone

    t = Tournament(pods=1, size=2 * TABLES)
    t.configure(mode=PairingMode.ACROSS_EVENT)
    round_obj = t.pair(pod=False)
    from matches import services as match_services

    match_services.start_round(round_id=round_obj.pk, actor=t.organiser, now=timezone.now())
    matches = list(round_obj.matches.exclude(player_b=None).order_by("table"))
    assert len(matches) == TABLES
    for match in matches[:OPEN_CALLS]:
        services.call_from_match(match_id=match.pk, actor=t.user_of[match.player_a_id], reason="Ruling", now=T0)

    judge = browsers.get()
    login(judge, t.judge)
    judge.get(f"{server_url}/judge-calls/events/{t.event.pk}/")
    live(judge)
    assert judge.execute_script("return document.querySelectorAll('tr[data-call]').length") == OPEN_CALLS
    judge.execute_script(WATCH)
    latencies = []
    for match in matches[OPEN_CALLS : OPEN_CALLS + SAMPLES]:
        api = api_for(t.user_of[match.player_a_id])
        before = time.time() * 1000
        status, body = api.call("POST", f"/api/matches/{match.pk}/judge-call/", {"reason": "Bench"})
        assert status == 201, body
        key = str(body["id"])
        seen = f"return window.__seen['{key}'] || 0"
        wait(judge, lambda d, seen=seen: d.execute_script(seen), timeout=10, message="no row")
        latencies.append(judge.execute_script(f"return window.__seen['{key}']") - before)
        time.sleep(0.3)  # one call at a time, as at a venue
    figures = {
        "tables": TABLES,
        "open_calls": OPEN_CALLS,
        "samples": SAMPLES,
        "median_ms": round(statistics.median(latencies), 1),
        "max_ms": round(max(latencies), 1),
        "latencies_ms": [round(x, 1) for x in latencies],
        "target_ms": TARGET_MS,
        "median_within_target": statistics.median(latencies) <= TARGET_MS,
        "load_average_1min": round(os.getloadavg()[0], 2),
        "cpus": os.cpu_count(),
        "at": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    if os.environ.get("BENCH_OUTPUT"):
        with open(os.environ["BENCH_OUTPUT"], "w") as out:
            json.dump(figures, out, indent=2)
    assert figures["median_ms"] <= BOUND_MS, figures
