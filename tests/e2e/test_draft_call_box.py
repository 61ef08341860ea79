"""The draft page's call box in real headless Chromium (issue 30): the player calls a judge from
their seat without a reload, a judge claims the call in their own session (the API, through the
server, so the server pushes), and the box names the judge, then says the call was resolved,
all on the same page (a marker set on the window survives: no reload). axe finds no WCAG A/AA
violation in the updated box, which is a polite live region. The box's socket is open only
while the call is."""

from __future__ import annotations

import pytest
from django.utils import timezone
from selenium.webdriver.common.by import By

from drafts.models import Seat
from events.models import StaffRole
from judgecalls.models import CallStatus, JudgeCall
from tests.e2e.conftest import make_pod
from tests.e2e.test_accessibility import violations
from tests.e2e.test_live_draft import live, wait
from tests.factories import EventStaffFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


# Records the URL of every socket the page opens (the real WebSocket still does the work).
RECORD_SOCKETS = """
(function () {
  var Real = window.WebSocket;
  window.__sockets = [];
  window.WebSocket = function (url, protocols) {
    var socket = protocols === undefined ? new Real(url) : new Real(url, protocols);
    window.__sockets.push({ url: String(url), socket: socket });
    return socket;
  };
  window.WebSocket.prototype = Real.prototype;
  ["CONNECTING", "OPEN", "CLOSING", "CLOSED"].forEach(function (k) { window.WebSocket[k] = Real[k]; });
})();
"""
OPEN_CALL_SOCKETS = (
    "return window.__sockets.filter(function (s) {"
    " return s.url.indexOf('/ws/judgecalls/seats/') >= 0 && s.socket.readyState <= 1; }).length"
)


def box_text(driver) -> str:
    return driver.find_element(By.ID, "judge-call").text


def test_the_draft_pages_call_box_is_live(browsers, login, api_for, server_url, organiser, players, cube_names):
    pod = make_pod(organiser, players, cube_names, pick_timer=False, now=timezone.now())
    seat = Seat.objects.get(pod=pod, position=0)
    judge = UserFactory(username="floorjudge", first_name="Rita", last_name="Judge")
    EventStaffFactory(event=pod.event, user=judge, role=StaffRole.JUDGE)
    player = login(browsers.get(), players[0])
    added = player.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_SOCKETS})
    try:
        player.get(f"{server_url}/events/seats/{seat.pk}/")
    finally:
        player.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]})
    live(player)
    # No call, nothing that can change the box: the draft page holds its seat socket only.
    assert player.execute_script(OPEN_CALL_SOCKETS) == 0
    box = player.find_element(By.ID, "judge-call")
    assert box.get_attribute("aria-live") == "polite"
    player.execute_script("window.__sameDocument = true;")

    player.find_element(By.ID, "judge-call-reason").send_keys("Misdeal in my pack")
    player.find_element(By.CSS_SELECTOR, "#judge-call button.call-judge").click()
    wait(player, lambda d: "Judge called. Please wait at your seat." in box_text(d), message="call not shown")
    call = JudgeCall.objects.get()
    assert call.seat_id == seat.pk and call.reason == "Misdeal in my pack"
    wait(player, lambda d: d.execute_script(OPEN_CALL_SOCKETS) == 1, message="the open call is not followed")

    status, body = api_for(judge).call("POST", f"/api/judge-calls/{call.pk}/claim/")
    assert status == 200, body
    started = timezone.now()
    wait(player, lambda d: "A judge is coming: Rita Judge." in box_text(d), timeout=5, message="claim not shown")
    assert (timezone.now() - started).total_seconds() < 2.5  # pushed, not polled
    assert JudgeCall.objects.get().status == CallStatus.CLAIMED
    assert player.execute_script("return window.__sameDocument === true")  # no reload
    assert player.find_element(By.ID, "judge-call") == box  # the same live region, its content swapped
    assert violations(player) == []

    status, body = api_for(judge).call("POST", f"/api/judge-calls/{call.pk}/resolve/", {"outcome": "ruling"})
    assert status == 200, body
    wait(player, lambda d: "Your judge call was resolved." in box_text(d), timeout=5, message="resolve not shown")
    assert player.find_elements(By.CSS_SELECTOR, "#judge-call button.call-judge")  # may call again
    wait(player, lambda d: d.execute_script(OPEN_CALL_SOCKETS) == 0, message="the resolved call is still followed")
    assert player.execute_script("return window.__sameDocument === true")
