"""A stranger on a 375 px phone: follows the join link (the QR code's address), signs up,
joins, checks in, is seated, drafts, and is notified of a waiting pack while the tab is hidden
(the test grants permission and records the Notification calls)."""

from __future__ import annotations

import time

import pytest
from django.utils import timezone
from selenium.webdriver.common.by import By

from accounts import services as account_services
from drafts import services
from drafts.models import Seat
from tests.e2e.test_live_draft import PHONE, live, ui_pick, wait

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

# Before any page script: a Notification that records its calls (permission granted when the
# page asks), and a document.hidden the test controls. A pooled window keeps the scripts of
# earlier tests, so this one may run twice on a page: every definition can be made again.
FAKE_NOTIFICATIONS = """
window.__notes = [];
window.__hidden = false;
Object.defineProperty(document, "hidden", {get: function () { return window.__hidden; }, configurable: true});
function FakeNotification(title, options) { window.__notes.push([title, options && options.body]); }
FakeNotification.permission = "default";
FakeNotification.requestPermission = function () {
  FakeNotification.permission = "granted";
  return Promise.resolve("granted");
};
window.Notification = FakeNotification;
"""


def until(driver, condition, timeout=15.0, message=""):
    # The shared wait: a page navigating between find and read is looked at again, not an error.
    wait(driver, condition, timeout=timeout, message=message)


def test_a_stranger_joins_by_link_checks_in_drafts_and_is_notified(
    browsers, api_for, server_url, organiser, players, cube_names
):
    event = services.create_event(
        name="Open cube", date=timezone.now().date(), created_by=organiser, draft_format="cube", cube_list=cube_names
    )
    link = account_services.open_registration(event_id=event.pk, actor=organiser, now=timezone.now(), capacity=9)
    account_services.set_check_in_open(event_id=event.pk, actor=organiser, now=timezone.now(), is_open=True)
    for user in players[:7]:
        account_services.join_event(token=link.token, user=user, now=timezone.now())
        account_services.check_in(event_id=event.pk, user=user, now=timezone.now())
    absent = players[7]  # registered, never checks in: not seated
    account_services.join_event(token=link.token, user=absent, now=timezone.now())

    phone = browsers.get()
    phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    phone.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": FAKE_NOTIFICATIONS})
    phone.get(server_url + f"/join/{link.token}/")  # what the QR code holds
    assert phone.execute_script("return document.scrollingElement.scrollWidth") <= 375
    phone.find_element(By.ID, "join-signup").click()
    for name, value in (
        ("username", "stranger"),
        ("email", "stranger@example.test"),
        ("password1", "a-long-pass-phrase-9"),
        ("password2", "a-long-pass-phrase-9"),
        ("display_name", "Sam Stranger"),
    ):
        phone.find_element(By.NAME, name).send_keys(value)
    phone.find_element(By.CSS_SELECTOR, "#signup-form button[type=submit]").click()
    until(phone, lambda d: d.find_elements(By.ID, "join-button"), message="back on the join page")
    phone.find_element(By.ID, "join-button").click()
    until(phone, lambda d: d.find_elements(By.ID, "check-in-button"), message="the event page offers check-in")
    phone.find_element(By.ID, "check-in-button").click()
    until(phone, lambda d: "checked in" in d.find_element(By.ID, "main").text.lower(), message="checked in")

    pods = services.seat_players(event_id=event.pk, seed=5, actor=organiser)
    seated = set(Seat.objects.filter(pod__in=pods).values_list("registration__user__username", flat=True))
    assert "stranger" in seated and absent.username not in seated and len(seated) == 8
    services.start_pod(pod_id=pods[0].pk, actor=organiser, now=timezone.now())

    phone.get(server_url + f"/events/{event.pk}/")
    phone.find_element(By.PARTIAL_LINK_TEXT, "Open my draft").click()
    live(phone)
    # Asked once, explained; the player says yes.
    until(phone, lambda d: d.find_elements(By.ID, "notify-yes"), message="the page offers notifications")
    phone.find_element(By.ID, "notify-yes").click()
    assert phone.execute_script("return Notification.permission") == "granted"
    assert not phone.find_elements(By.ID, "notify-offer")
    ui_pick(phone)  # drafts on the phone
    assert phone.execute_script("return document.scrollingElement.scrollWidth") <= 375
    # Tab hidden; the other seven pick, so a pack reaches the stranger: a notification.
    phone.execute_script("window.__hidden = true;")
    mine = Seat.objects.get(pod=pods[0], registration__user__username="stranger")
    for seat in Seat.objects.filter(pod=pods[0]).exclude(pk=mine.pk).select_related("registration__user"):
        api_for(seat.registration.user).pick_first(seat.pk)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and not phone.execute_script("return window.__notes.length"):
        time.sleep(0.2)
    notes = phone.execute_script("return window.__notes")
    assert notes and notes[0][1] == "A pack is waiting for your pick.", notes
    # Reloaded, the page does not ask again.
    phone.get(phone.current_url)
    live(phone)
    assert not phone.find_elements(By.ID, "notify-offer")
