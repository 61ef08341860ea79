"""The player's match page in Chromium, its tab hidden: a notification when the pairings are
posted (with the table), when the round starts, and when a judge claims the player's call
(issue 28). The organiser and the judge act over the API, so the server sends the live update;
the test grants permission and records the Notification calls."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from tests.e2e.test_join_by_link import FAKE_NOTIFICATIONS, until
from tests.e2e.test_live_draft import live
from tests.matches.conftest import Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def notes(driver) -> list[str]:
    return [body for _, body in driver.execute_script("return window.__notes")]


def test_the_match_page_notifies_pairings_round_start_and_a_judges_answer(server_url, browsers, login, api_for):
    t = Tournament()
    t.configure(seed=8)
    player = browsers.get()
    player.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": FAKE_NOTIFICATIONS})
    login(player, t.users[0])
    player.get(f"{server_url}/matches/events/{t.event.pk}/me/")
    player.find_element(By.ID, "notify-yes").click()  # asked once, explained
    assert player.execute_script("return Notification.permission") == "granted"
    live(player)
    player.execute_script("window.__hidden = true;")

    organiser = api_for(t.organiser)
    status, paired = organiser.call("POST", f"/api/events/{t.event.pk}/rounds/", {"pod": t.pod.pk})
    assert status == 201, paired
    until(player, lambda d: "Pairings are posted: round 1, table 1." in notes(d), message="no pairings note")

    status, body = organiser.call("POST", f"/api/rounds/{paired['id']}/start/")
    assert status == 200, body
    until(player, lambda d: "Round 1 has started." in notes(d), message="no round-start note")

    match_id = next(m for m in t.pod.event.match_rounds.get().matches.all() if m.table == 1).pk
    status, call = api_for(t.users[0]).call("POST", f"/api/matches/{match_id}/judge-call/", {"reason": "Rules"})
    assert status == 201, call
    status, body = api_for(t.judge).call("POST", f"/api/judge-calls/{call['id']}/claim/")
    assert status == 200, body
    until(player, lambda d: any(n.startswith("A judge is coming") for n in notes(d)), message="no judge note")
    assert len(notes(player)) == 3  # each once
