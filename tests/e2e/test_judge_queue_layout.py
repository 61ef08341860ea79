"""The judge queue's layout in real headless Chromium (static/judgequeue.css), at 375 px and at
1280 px: every call shows its age, place, reason and who has it inside the screen (no sideways
scrolling), and claimed, escalated and open calls differ in colour, not only in their text.

With JUDGECALLS_SCREENSHOTS=<dir> it saves both layouts as PNGs.
"""

from __future__ import annotations

import datetime as dt
import os

import pytest
from django.utils import timezone

from judgecalls import services
from tests.e2e.test_live_draft import live
from tests.judgecalls.conftest import Floor

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
PARTS = ("age", "where", "reason", "claimant")

# For each call row: its status, the boxes of its parts, the row's colours, the browser's layout.
MEASURE = """
return Array.from(document.querySelectorAll('tr.judge-call-row')).map(function (row) {
  var first = row.querySelector('td');
  var parts = {};
  ['age', 'where', 'reason', 'claimant'].forEach(function (name) {
    var cell = row.querySelector('td.' + name);
    var box = cell.getBoundingClientRect();
    parts[name] = {left: box.left, right: box.right, top: box.top, width: box.width, height: box.height,
                   text: cell.innerText.trim(), visible: getComputedStyle(cell).visibility === 'visible'};
  });
  return {
    call: row.dataset.call, status: row.dataset.status, display: getComputedStyle(row).display,
    edge: getComputedStyle(row).borderLeftColor + ' ' + getComputedStyle(first).boxShadow,
    tint: getComputedStyle(row).backgroundColor + ' ' + getComputedStyle(first).backgroundColor,
    ageColour: getComputedStyle(row.querySelector('td.age .age-badge')).color,
    parts: parts,
  };
});
"""


def shoot(driver, name):
    folder = os.environ.get("JUDGECALLS_SCREENSHOTS")
    if folder:
        driver.save_screenshot(os.path.join(folder, name))


@pytest.fixture
def floor_with_calls():
    """Three calls: one open for 12 minutes, one claimed, one escalated (the real clock)."""
    floor = Floor()
    now = timezone.now()
    tables = list(floor.round.matches.filter(player_b__isnull=False).order_by("table"))
    long_reason = "My opponent cast a spell with disguise and then turned it face up " * 2
    waiting = services.call_from_match(
        match_id=tables[0].pk, actor=floor.player_a(tables[0]), reason=long_reason, now=now - dt.timedelta(minutes=12)
    )
    claimed = services.call_from_match(
        match_id=tables[1].pk, actor=floor.player_a(tables[1]), reason="Missed trigger", now=now
    )
    services.claim_call(call_id=claimed.pk, actor=floor.judge2, now=now)
    escalated = services.call_from_match(match_id=tables[2].pk, actor=floor.player_a(tables[2]), reason="", now=now)
    services.claim_call(call_id=escalated.pk, actor=floor.judge, now=now)
    services.escalate_call(call_id=escalated.pk, actor=floor.judge, now=now)
    return floor, {"open": waiting.pk, "claimed": claimed.pk, "escalated": escalated.pk}


def measure(driver, url, width):
    driver.get(url)
    live(driver)
    rows = driver.execute_script(MEASURE)
    scroll = driver.execute_script("return document.documentElement.scrollWidth")
    return {row["status"]: row for row in rows}, scroll


def assert_readable(rows, calls, width):
    assert {status: int(row["call"]) for status, row in rows.items()} == calls
    for status, row in rows.items():
        for name in PARTS:
            part = row["parts"][name]
            assert part["visible"] and part["width"] > 0 and part["height"] > 0, (status, name, part)
            assert part["left"] >= 0 and part["right"] <= width + 0.5, (status, name, part)
    assert rows["open"]["parts"]["age"]["text"] == "12 min"
    assert "judge2" in rows["claimed"]["parts"]["claimant"]["text"]
    # Claimed, escalated and open calls look different (edge and tint), not only in words.
    assert len({row["edge"] for row in rows.values()}) == 3, [row["edge"] for row in rows.values()]
    assert len({row["tint"] for row in rows.values()}) == 3, [row["tint"] for row in rows.values()]


def test_the_queue_reads_on_a_375px_phone_and_on_a_desktop(server_url, browsers, login, floor_with_calls):
    floor, calls = floor_with_calls
    url = f"{server_url}/judge-calls/events/{floor.event.pk}/"
    judge = browsers.get()
    login(judge, floor.judge)

    judge.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride", {"width": 375, "height": 900, "deviceScaleFactor": 2, "mobile": True}
    )
    rows, scroll = measure(judge, url, 375)
    shoot(judge, "judge-queue-375.png")
    assert scroll <= 375  # no sideways scrolling
    assert_readable(rows, calls, 375)
    for row in rows.values():
        assert row["display"] == "grid"  # a card per call
        age, where, reason = (row["parts"][n] for n in ("age", "where", "reason"))
        assert abs(age["top"] - where["top"]) < 12  # age and place on the first line
        assert reason["top"] > where["top"]  # the rest under it
    # The open call that has waited 12 minutes wears a solid badge (white on red).
    assert rows["open"]["ageColour"] == "rgb(255, 255, 255)"

    judge.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    judge.set_window_size(1280, 900)
    width = judge.execute_script("return document.documentElement.clientWidth")
    rows, scroll = measure(judge, url, width)
    shoot(judge, "judge-queue-desktop.png")
    assert scroll <= width
    assert_readable(rows, calls, width)
    for row in rows.values():
        assert row["display"] == "table-row"
        tops = {round(row["parts"][n]["top"]) for n in PARTS}
        assert len(tops) == 1, (row["status"], tops)  # one line of the table per call
