"""The installable app in a real headless Chromium against the real ASGI server: the service
worker registers from the root scope; a push delivered through the DevTools protocol
(ServiceWorker.deliverPushMessage) shows its notification; with the network emulated offline
(page and service worker) the pairings page loads from the saved copy with its age, and a
result typed offline is reported exactly once when the network returns, and however many results
wait on the phone the player sees one notice of them, gone once they are sent."""

from __future__ import annotations

import base64
import json
import threading
import time

import pytest
from django.db.models import Q
from selenium.webdriver.common.by import By

from events.models import DraftFormat, StaffRole
from matches import services as match_services
from matches.models import Match, MatchLogEntry, ReportKey, ResultReport
from tests.e2e.cdp import Cdp
from tests.e2e.conftest import ROOT
from tests.e2e.test_live_draft import wait
from tests.e2e.test_matches import report
from tests.factories import EventFactory, EventStaffFactory, PodFactory, RegistrationFactory, SeatFactory, UserFactory
from tests.matches.conftest import T0, Tournament

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


def saved(driver, cache: str, url: str) -> None:
    """The service worker has written its copy of ``url`` (it saves after answering the page:
    going offline before that would find no copy)."""
    wait(
        driver,
        lambda d: d.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "caches.open(arguments[0]).then(c => c.match(arguments[1])).then(r => done(!!r), () => done(false));",
            cache,
            url,
        ),
        timeout=10,
        message=f"no copy of {url} in {cache}",
    )


def network(cdp: Cdp, driver, server_url: str, conditions: dict) -> None:
    """The page's network and its service worker's (a worker fetches on its own session)."""
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", conditions)
    worker = cdp.attach("service_worker", server_url)
    cdp.send("Network.enable", session=worker)
    cdp.send("Network.emulateNetworkConditions", conditions, session=worker)


def second_event(t: Tournament, player) -> tuple[int, Match]:
    """Another event of the evening where ``player`` also plays: its round 1 started, the
    player's match in it."""
    event = EventFactory(name="Late draft", date=T0.date(), draft_format=DraftFormat.BOOSTER, created_by=t.organiser)
    EventStaffFactory(event=event, user=t.organiser, role=StaffRole.ORGANISER)
    pod = PodFactory(event=event, number=1, seed=1)
    for position in range(8):
        user = player if position == 0 else UserFactory(username=f"late{position}")
        SeatFactory(pod=pod, position=position, registration=RegistrationFactory(event=event, user=user))
    match_services.configure_matches(event_id=event.pk, actor=t.organiser, now=T0, seed=8)
    round_obj = match_services.pair_next_round(event_id=event.pk, actor=t.organiser, pod_id=pod.pk, now=T0)
    match_services.start_round(round_id=round_obj.pk, actor=t.organiser)
    return event.pk, round_obj.matches.get(Q(player_a__user=player) | Q(player_b__user=player))


def form_from_copy(driver, url: str) -> None:
    """Offline, a player's match page loads from its saved copy, report form and all."""
    driver.get(url)
    wait(
        driver,
        lambda d: d.find_elements(By.CSS_SELECTOR, ".report-form") and d.find_element(By.ID, "offline-banner"),
        timeout=15,
        message=f"{url} not from the copy",
    )


QUEUED = "saved on this phone"


def queue_notices(driver) -> list[str]:
    """The ids of the elements that say results wait on the phone (the queue's box, a flash)."""
    return [
        element.get_attribute("id")
        for element in driver.find_elements(By.XPATH, f"//*[contains(text(), '{QUEUED}')]")
        if element.is_displayed()
    ]


def queued_count(driver) -> int:
    return driver.execute_script("return JSON.parse(localStorage.getItem('draftsite.queued-reports') || '[]').length")


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
    late_event, late_match = second_event(t, player)
    late_me = f"{server_url}/matches/events/{late_event}/me/"
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
        saved(driver, "pages-v1", pairings)
        driver.get(me)
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".report-form"), message="no report form")
        saved(driver, "pages-v1", me)
        driver.get(late_me)
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".report-form"), message="no report form")
        saved(driver, "pages-v1", late_me)

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

        form_from_copy(driver, me)
        report(driver, 2, 1)
        wait(driver, lambda d: QUEUED in d.find_element(By.ID, "queued-report").text)
        time.sleep(1)
        assert not ResultReport.objects.filter(match=match).exists()  # nothing got through

        # A second result, on the other event's page: two wait on the phone, one notice says so,
        # and a retry still offline (an "online" event that was wrong) adds none. (DevTools'
        # offline emulation can let the send of a page just loaded reach the server and lose its
        # answer, as a dropping Wi-Fi can: the phone keeps the result, and its resend's
        # idempotency key answers the first report, so the server is not asked about here.)
        form_from_copy(driver, late_me)
        wait(driver, lambda d: queue_notices(d) == ["queued-report"], message="the first result's notice is not shown")
        report(driver, 1, 2)
        wait(driver, lambda d: queued_count(d) == 2, message="the second result was not queued")
        time.sleep(1)
        assert queue_notices(driver) == ["queued-report"]
        driver.execute_script("window.dispatchEvent(new Event('online'))")
        time.sleep(2)
        assert queue_notices(driver) == ["queued-report"]
        assert queued_count(driver) == 2

        network(cdp, driver, server_url, ONLINE)
        deadline = time.monotonic() + 30
        while ResultReport.objects.filter(match__in=[match, late_match]).count() < 2 and time.monotonic() < deadline:
            time.sleep(0.5)
        # Both sent: the notice is gone and the flash says so once.
        wait(driver, lambda d: not d.find_elements(By.ID, "queued-report"), message="the notice outlived the queue")
        assert queue_notices(driver) == []
        assert driver.find_element(By.ID, "flash").text == "Your result was sent."
        # Once reported, the queue is empty: more time and an "online" event send nothing again.
        driver.execute_script("window.dispatchEvent(new Event('online'))")
        time.sleep(3)
        assert not driver.find_elements(By.ID, "queued-report")
        stored = ResultReport.objects.get(match=match)
        assert (stored.a_wins, stored.b_wins, stored.draws) == (2, 1, 0)
        assert MatchLogEntry.objects.filter(match=match, action="reported").count() == 1
        assert ReportKey.objects.filter(match=match).count() == 1
        late = ResultReport.objects.get(match=late_match)
        assert (late.a_wins, late.b_wins) == ((1, 2) if late_match.player_a.user_id == player.pk else (2, 1))
        assert MatchLogEntry.objects.filter(match=late_match, action="reported").count() == 1
        assert driver.execute_script("return localStorage.getItem('draftsite.queued-reports')") == "[]"
    finally:
        try:
            network(cdp, driver, server_url, ONLINE)
        except Exception:  # the window is reset by the fixture anyway
            pass
        cdp.close()


DEPLOYED = "window.deployedVersion = 2;"


class Deploy:
    """The server answers a changed app.js from now on: DevTools answers the service worker's
    request for it, from a thread of its own (the page's load waits on that answer while
    Selenium waits on the load)."""

    def __init__(self, driver, server_url: str, body: str):
        self.cdp = Cdp(driver)
        self.worker = self.cdp.attach("service_worker", server_url)
        self.cdp.send("Fetch.enable", {"patterns": [{"urlPattern": "*/static/js/app.js*"}]}, session=self.worker)
        self.body = base64.b64encode(body.encode()).decode()
        self.answered = 0
        self.thread = threading.Thread(target=self._answer, daemon=True)
        self.thread.start()

    def _answer(self) -> None:
        paused = self.cdp.wait_event(lambda e: e.get("method") == "Fetch.requestPaused", timeout=30)
        self.cdp.send(
            "Fetch.fulfillRequest",
            {
                "requestId": paused["params"]["requestId"],
                "responseCode": 200,
                "responseHeaders": [
                    {"name": "Content-Type", "value": "text/javascript; charset=utf-8"},
                    {"name": "Cache-Control", "value": "max-age=60, public"},
                ],
                "body": self.body,
            },
            session=self.worker,
        )
        self.answered += 1

    def finish(self) -> None:
        self.thread.join(timeout=30)
        assert self.answered == 1, "the worker did not ask the network for app.js"
        self.cdp.send("Fetch.disable", session=self.worker)
        self.cdp.close()


def test_scripts_and_strings_network_first(server_url, browsers, login):
    """After a deploy or a language change the next load runs the new script and strings (the
    worker asks the network first); offline, the page, script and strings come from the copies."""
    t = Tournament()
    t.configure(seed=9)
    round_obj = t.pair()
    player = t.user_of[round_obj.matches.get(table=1).player_a_id]
    driver = browsers.get()
    login(driver, player)
    pairings = f"{server_url}/matches/rounds/{round_obj.pk}/"
    driver.get(pairings)
    controlled(driver)  # reloads: this load's script and strings went through the worker
    saved(driver, "assets-v1", f"{server_url}/jsi18n/")
    saved(driver, "assets-v1", f"{server_url}/static/js/app.js")
    sent = "return gettext('Your result was sent.')"
    assert driver.execute_script(sent) == "Your result was sent."

    # A language change: the next load's strings are the new language's, not the saved English.
    driver.add_cookie({"name": "django_language", "value": "pt-br", "path": "/"})
    driver.get(pairings)
    assert driver.execute_script(sent) == "Seu resultado foi enviado."

    me = f"{server_url}/matches/events/{t.event.pk}/me/"
    driver.get(me)
    saved(driver, "pages-v1", pairings)
    saved(driver, "pages-v1", me)

    cdp = Cdp(driver)
    try:
        # Offline: the page from its copy, with the saved strings of the new language.
        network(cdp, driver, server_url, OFFLINE)
        driver.get(pairings)
        banner = wait(driver, lambda d: d.find_element(By.ID, "offline-banner"), timeout=15, message="no copy")
        assert "cópia salva" in banner.text  # the copy of the Portuguese strings
        assert driver.execute_script(sent) == "Seu resultado foi enviado."
        network(cdp, driver, server_url, ONLINE)

        # A deploy: the server now answers a changed app.js. The browser's HTTP cache is
        # emptied, as when the server's max-age (60 s) has passed; the worker's copy stays.
        deployed = Deploy(driver, server_url, (ROOT / "static" / "js" / "app.js").read_text() + "\n" + DEPLOYED + "\n")
        driver.execute_cdp_cmd("Network.clearBrowserCache", {})
        try:
            driver.get(me)
        finally:
            deployed.finish()
        assert driver.execute_script("return window.deployedVersion") == 2, "the saved (old) script ran"
        # and the new script is the copy an offline load gets
        wait(
            driver,
            lambda d: d.execute_async_script(
                "const done = arguments[0]; caches.open('assets-v1')"
                ".then(c => c.match(location.origin + '/static/js/app.js')).then(r => r.text()).then(done);"
            ).endswith(DEPLOYED + "\n"),
            message="the new script was not saved",
        )
    finally:
        try:
            network(cdp, driver, server_url, ONLINE)
        except Exception:  # the window is reset by the fixture anyway
            pass
        cdp.close()
