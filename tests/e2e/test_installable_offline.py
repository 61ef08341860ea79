"""The installable app in a real headless Chromium against the real ASGI server: the service
worker registers from the root scope; a push delivered through the DevTools protocol
(ServiceWorker.deliverPushMessage) shows its notification; with the network emulated offline
(page and service worker) the pairings page loads from the saved copy with its age, and a
result typed offline is reported exactly once when the network returns."""

from __future__ import annotations

import json
import time

import pytest
from selenium.webdriver.common.by import By

from matches import services as match_services
from matches.models import MatchLogEntry, ReportKey, ResultReport
from tests.e2e.cdp import Cdp
from tests.e2e.test_live_draft import wait
from tests.e2e.test_matches import report
from tests.matches.conftest import Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

OFFLINE = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
ONLINE = {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}


def controlled(driver) -> None:
    """The service worker is active and controls the page (it claims open pages on activation)."""
    state = driver.execute_async_script(
        "const done = arguments[0];"
        "navigator.serviceWorker.ready.then(r => done([r.scope, r.active && r.active.scriptURL]));"
    )
    assert state[0].endswith("/") and state[1].endswith("/sw.js"), state
    driver.refresh()
    wait(driver, lambda d: d.execute_script("return !!navigator.serviceWorker.controller"), timeout=10)


def network(cdp: Cdp, driver, server_url: str, conditions: dict) -> None:
    """The page's network and its service worker's (a worker fetches on its own session)."""
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", conditions)
    worker = cdp.attach("service_worker", server_url)
    cdp.send("Network.enable", session=worker)
    cdp.send("Network.emulateNetworkConditions", conditions, session=worker)


def test_installable_push_and_offline(server_url, browsers, login):
    t = Tournament()
    t.configure(seed=8)
    round_obj = t.pair()
    match_services.start_round(round_id=round_obj.pk, actor=t.organiser)
    match = round_obj.matches.get(table=1)
    player, opponent = t.user_of[match.player_a_id], match.player_b
    driver = browsers.get()
    login(driver, player)
    me = f"{server_url}/matches/events/{t.event.pk}/me/"
    pairings = f"{server_url}/matches/rounds/{round_obj.pk}/"
    driver.get(me)
    controlled(driver)
    cdp = Cdp(driver)
    try:
        # A push through DevTools: the service worker shows it as a notification.
        page = cdp.attach("page", server_url)
        cdp.send("ServiceWorker.enable", session=page)
        registered = cdp.wait_event(
            lambda e: (
                e.get("method") == "ServiceWorker.workerRegistrationUpdated"
                and any(r["scopeURL"] == server_url + "/" for r in e["params"]["registrations"])
            )
        )
        registration = next(r for r in registered["params"]["registrations"] if r["scopeURL"] == server_url + "/")
        cdp.send("Browser.grantPermissions", {"origin": server_url, "permissions": ["notifications"]})
        driver.execute_cdp_cmd("ServiceWorker.enable", {})
        worker = cdp.attach("service_worker", server_url)
        cdp.send("Runtime.enable", session=worker)
        cdp.send("Log.enable", session=worker)
        payload = {"title": "Round 1 is paired", "body": f"Table 1 against {opponent.name}", "url": "/", "tag": "r1"}
        # Headless Chromium may drop a push sent while the worker is starting: send again
        # (same tag: one notification replaces the other) until one shows.
        shown = []
        for _ in range(10):
            driver.execute_cdp_cmd(
                "ServiceWorker.deliverPushMessage",
                {"origin": server_url, "registrationId": registration["registrationId"], "data": json.dumps(payload)},
            )
            time.sleep(1)
            shown = driver.execute_async_script(
                "const done = arguments[0]; navigator.serviceWorker.ready"
                ".then(r => r.getNotifications()).then(n => done(n.map(x => [x.title, x.body, x.tag])));"
            )
            if shown:
                break
        assert shown == [["Round 1 is paired", f"Table 1 against {opponent.name}", "r1"]], (
            registered,
            driver.execute_script("return Notification.permission"),
            [e for e in cdp.events if "ServiceWorker" not in e.get("method", "")][-6:],
        )

        # Online once: the pages are saved as they load.
        driver.get(pairings)
        assert opponent.name in driver.page_source
        driver.get(me)
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".report-form"), message="no report form")

        network(cdp, driver, server_url, OFFLINE)
        driver.get(pairings)
        banner = wait(
            driver,
            lambda d: "Pairings" in d.title and d.find_element(By.ID, "offline-banner"),
            timeout=15,
            message="no offline banner",
        )
        assert "min ago" in banner.text
        assert opponent.name in driver.page_source  # the table and the opponent, from the copy

        driver.get(me)
        wait(
            driver,
            lambda d: d.find_elements(By.CSS_SELECTOR, ".report-form") and d.find_element(By.ID, "offline-banner"),
            timeout=15,
            message="me page not from the copy",
        )
        report(driver, 2, 1)
        wait(driver, lambda d: "saved on this phone" in d.find_element(By.ID, "queued-report").text)
        time.sleep(1)
        assert not ResultReport.objects.filter(match=match).exists()  # nothing got through

        network(cdp, driver, server_url, ONLINE)
        deadline = time.monotonic() + 30
        while not ResultReport.objects.filter(match=match).exists() and time.monotonic() < deadline:
            time.sleep(0.5)
        # Once reported, the queue is empty: more time and an "online" event send nothing again.
        driver.execute_script("window.dispatchEvent(new Event('online'))")
        time.sleep(3)
        stored = ResultReport.objects.get(match=match)
        assert (stored.a_wins, stored.b_wins, stored.draws) == (2, 1, 0)
        assert MatchLogEntry.objects.filter(match=match, action="reported").count() == 1
        assert ReportKey.objects.filter(match=match).count() == 1
        assert driver.execute_script("return localStorage.getItem('draftsite.queued-reports')") == "[]"
    finally:
        try:
            network(cdp, driver, server_url, ONLINE)
        except Exception:  # the window is reset by the fixture anyway
            pass
        cdp.close()
