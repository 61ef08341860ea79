"""The organiser's dashboard drawn from its socket's digests (static/js/dashboard.js).

With the real socket (``ws/events/<id>/?protocol=state``): picks made over the API (the
server's process, whose writes notify its sockets) reach the pods table's cells in place,
and no panel is fetched for them, nor for a paused pod's clock or the offline count; a
``changed`` with pod null (here: a judge added) fetches the panel once, and the rows drawn
again from the digests still say the same as the server.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.utils import timezone
from selenium.webdriver.common.by import By

from drafts import services
from drafts.models import Seat
from events import services as event_services
from events.access import SYSTEM
from tests.e2e.test_live_draft import live, wait
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

# Panel requests the page made (the Resource Timing entries of the panel URL).
PANEL_REQUESTS = """
return performance.getEntriesByType("resource").filter(function (e) {
  return e.name.indexOf("/dashboard/panel/") !== -1;
}).length;
"""

# A cell's words, its countdown's ticking digits left out.
CELL_TEXT = """
window.__cellText = function (cell) {
  cell = cell.cloneNode(true);
  cell.querySelectorAll(".countdown").forEach(function (c) { c.textContent = ""; });
  return cell.textContent.replace(/\\s+/g, " ").trim();
};
"""


def two_pods(organiser, players, cube_names):
    extra = [UserFactory(username=f"q{i}") for i in range(8)]
    event = services.create_event(
        name="Cube night",
        date=timezone.now().date(),
        created_by=organiser,
        draft_format="cube",
        cube_list=cube_names * 2,
        pick_timer=True,
    )
    regs = [event_services.register_player(event_id=event.pk, user=u, actor=SYSTEM) for u in [*players, *extra]]
    pods = services.seat_players(
        event_id=event.pk, seed=7, pods=[[r.pk for r in regs[:8]], [r.pk for r in regs[8:]]], actor=SYSTEM
    )
    for pod in pods:
        services.start_pod(pod_id=pod.pk, actor=organiser, now=timezone.now())
    users = {**{r.pk: u for r, u in zip(regs, [*players, *extra], strict=True)}}
    return event, pods, users


def test_the_dashboard_follows_the_digests_without_fetching_its_panel(
    browsers, login, api_for, server_url, organiser, players, cube_names
):
    event, (first, second), users = two_pods(organiser, players, cube_names)
    seats = {pod.pk: list(Seat.objects.filter(pod=pod).order_by("position")) for pod in (first, second)}
    boss = login(browsers.get(), organiser)
    boss.get(server_url + f"/events/{event.pk}/dashboard/")
    live(boss)
    boss.execute_script(CELL_TEXT)
    assert boss.find_element(By.ID, "live").get_attribute("data-draw") == "state"
    wait(boss, lambda d: len(d.execute_script("return Object.keys(DashboardState.digests());")) == 2)

    def cell(pod, name):
        return boss.find_element(By.CSS_SELECTOR, f'tr[data-pod="{pod.pk}"] [data-cell="{name}"]')

    def text(pod, name):
        return boss.execute_script("return window.__cellText(arguments[0]);", cell(pod, name))

    def when(iso):
        return dt.datetime.fromisoformat(iso.replace("Z", "+00:00"))

    def deadline(pod):
        return cell(pod, "clock").find_element(By.CSS_SELECTOR, ".countdown").get_attribute("data-deadline")

    assert text(first, "pick") == "1" and text(second, "pick") == "1"
    assert text(first, "holding") == "nobody"
    assert text(first, "round") == "1 of 3" and "Drafting" in text(first, "state")
    assert "Next pick timer" in text(first, "clock") and deadline(first)
    before = deadline(second)

    # Pod 1: seats 1, 3, 5 and 7 pass to 2, 4, 6 and 8, who then hold two packs each.
    for seat in seats[first.pk][0::2]:
        assert api_for(users[seat.registration_id]).pick_first(seat.pk)
    # Pod 2: every seat picks: the pod is on pick 2 and every pick clock started again.
    for seat in seats[second.pk]:
        assert api_for(users[seat.registration_id]).pick_first(seat.pk)

    held = seats[first.pk][1]
    wait(boss, lambda d: text(first, "holding").count("2 packs") == 3, message=text(first, "holding"))
    holding = text(first, "holding")
    assert holding.startswith(f"⚑ Seat 2 {held.registration.name}: 2 packs") and holding.endswith("+1 more"), holding
    assert "has-holdup" in boss.find_element(By.CSS_SELECTOR, f'tr[data-pod="{first.pk}"]').get_attribute("class")
    assert text(first, "pick") == "1"  # its slowest seats are still on their first pick
    # The new first clock is no earlier than the old one (whole seconds: it may read the same).
    wait(boss, lambda d: text(second, "pick") == "2" and when(deadline(second)) >= when(before))
    assert text(second, "holding") == "nobody"
    assert re.fullmatch(r"\d+:\d\d", cell(second, "clock").find_element(By.CSS_SELECTOR, ".countdown").text)

    assert boss.execute_script(PANEL_REQUESTS) == 0, "a panel was fetched with the socket up"
    # Nobody's page is open: every seat is offline, a count the server's presence read sends.
    wait(boss, lambda d: d.execute_script("return DashboardState.digests()[arguments[0]].offline;", first.pk) == 8)
    assert text(first, "offline") == "8"

    # The table is still a table, and nothing in it is a live region.
    assert len(boss.find_elements(By.CSS_SELECTOR, "table.pods-table > tbody > tr[data-pod]")) == 2
    assert not boss.find_elements(
        By.CSS_SELECTOR, '[data-region="pods"] [aria-live], [data-region="pods"] [role="status"]'
    )

    # A judge added: the event changed ("changed" with pod null): the panel once.
    judge = UserFactory(username="judy")
    status, body = api_for(organiser).call(
        "POST", f"/api/events/{event.pk}/staff/", {"username": judge.username, "role": "judge"}
    )
    assert status == 201, body
    wait(boss, lambda d: d.execute_script(PANEL_REQUESTS) == 1, message="no panel refetch")
    drawn = {
        (pod.pk, name): text(pod, name)
        for pod in (first, second)
        for name in ("state", "round", "pick", "holding", "offline")
    }
    assert drawn[(first.pk, "holding")] == holding

    # What the digests drew is what the server's panel says for the same pods.
    panel = boss.execute_async_script(
        "var done = arguments[1]; fetch(arguments[0], {credentials: 'same-origin'}).then(function (r) {"
        " return r.text(); }).then(done);",
        server_url + f"/events/{event.pk}/dashboard/panel/",
    )
    boss.execute_script(
        "var t = document.createElement('template'); t.innerHTML = arguments[0]; t.id = 'server-panel';"
        "document.body.appendChild(t);",
        panel,
    )
    for (pod_id, name), ours in drawn.items():
        theirs = boss.execute_script(
            "var c = document.getElementById('server-panel').content.querySelector("
            "'tr[data-pod=\"' + arguments[0] + '\"] [data-cell=\"' + arguments[1] + '\"]');"
            "return window.__cellText(c);",
            pod_id,
            name,
        )
        assert ours == theirs, (pod_id, name)

    # Pod 2 paused: the digest carries its frozen clock, drawn as the server draws it (the
    # time it had left, not ticking), with no panel fetched for it.
    fetched = boss.execute_script(PANEL_REQUESTS)  # the judge's change, and this test's own
    status, body = api_for(organiser).call("POST", f"/api/pods/{second.pk}/pause/", {})
    assert status == 200, body
    wait(boss, lambda d: text(second, "state") == "❚❚ Paused (drafting)")
    wait(boss, lambda d: cell(second, "clock").find_elements(By.CSS_SELECTOR, ".countdown.frozen"), timeout=10)
    frozen = cell(second, "clock").find_element(By.CSS_SELECTOR, ".countdown.frozen")
    assert "Next pick timer" in text(second, "clock") and re.fullmatch(r"\d+:\d\d", frozen.text), frozen.text
    assert boss.execute_script(PANEL_REQUESTS) == fetched
    assert text(first, "holding") == holding  # drawn again from its digest after the swap
