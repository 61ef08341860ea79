"""WCAG 2.1 A and AA, checked by axe-core (vendored in tests/e2e/vendor) on the live draft pages
as their scripts draw them from the socket's state: the player's seat page, staff on a seat,
the table, the spectator view, the pod page and the dashboard."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from django.utils import timezone
from selenium.webdriver.support.ui import WebDriverWait

from drafts.models import Seat
from events.models import StaffRole
from tests.drafts.conftest import make_pod
from tests.factories import EventStaffFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

AXE = (Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js").read_text()
WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def violations(driver) -> list[dict]:
    """axe's WCAG A/AA violations on the page as it is now (it must have checked some rules)."""
    driver.execute_script(AXE)
    driver.set_script_timeout(60)
    result = json.loads(
        driver.execute_async_script(
            "var done = arguments[arguments.length - 1];"
            "axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}}).then("
            "function (r) { done(JSON.stringify({violations: r.violations, passes: r.passes.length})); },"
            "function (e) { done(JSON.stringify({violations: [{id: 'error', help: String(e)}], passes: 0})); });",
            WCAG,
        )
    )
    assert result["passes"] > 10, result  # axe ran its checks
    return [
        {"id": v["id"], "help": v.get("help"), "nodes": [n.get("target") for n in v.get("nodes", [])][:5]}
        for v in result["violations"]
    ]


def drawn(driver, script="return !!(window.DraftState && DraftState.state());") -> None:
    WebDriverWait(driver, 15).until(lambda d: d.execute_script(script))
    time.sleep(0.5)  # the last deltas drawn


def test_the_live_draft_pages_have_no_wcag_violations(
    browsers, login, api_for, server_url, organiser, players, cube_names
):
    pod = make_pod(organiser, players, cube_names, pick_timer=True, now=timezone.now())
    seats = list(Seat.objects.filter(pod=pod).order_by("position"))
    judge = UserFactory(username="axe-judge")
    EventStaffFactory(event=pod.event, user=judge, role=StaffRole.JUDGE)
    for seat in seats[:4]:  # piles, a waiting pack and DFCs on the board
        assert api_for(players[seat.position]).pick_first(seat.pk)
    player = login(browsers.get(), players[1])
    staff = login(browsers.get(), organiser)
    pages = [
        (player, f"/events/seats/{seats[1].pk}/", None),
        (player, f"/events/pods/{pod.pk}/board/", None),
        (staff, f"/events/seats/{seats[2].pk}/", None),
        (staff, f"/events/pods/{pod.pk}/", None),
        (staff, f"/events/{pod.event_id}/dashboard/", "return !!window.DashboardState;"),
        (staff, f"/events/watch/{pod.spectator_token}/", None),
    ]
    found = {}
    for driver, path, ready in pages:
        driver.get(server_url + path)
        drawn(driver, ready or "return !!(window.DraftState && DraftState.state());")
        problems = violations(driver)
        if problems:
            found[path] = problems
    assert found == {}
