"""The browser deck builder in Chromium: a 40-card deck built from a drafted pool with the
keyboard only (Tab, Enter, Space, digits), on a desktop window and on a 375 px phone, then
registered through the page's form; a click and a drag move cards too; axe finds no WCAG A/AA
violation on the page."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from cards.models import Card
from decks.models import Deck
from tests.decks.api.test_registration import BUILD, draft_pile
from tests.decks.conftest import make_event
from tests.e2e.test_accessibility import violations
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "images" / "deck-builder.png"
BASICS = {row["name"]: row["count"] for row in BUILD if row["name"] in ("Island", "Forest")}


def press(driver, *keys) -> None:
    actions = ActionChains(driver)
    for key in keys:
        actions.send_keys(key)
    actions.perform()


def active(driver):
    return driver.switch_to.active_element


def tab_to(driver, predicate, limit=400):
    """Tab (only the keyboard) until the focused element matches."""
    for _ in range(limit):
        press(driver, Keys.TAB)
        if predicate(active(driver)):
            return active(driver)
    raise AssertionError("focus never reached the element")


def build_with_the_keyboard(driver, names: dict[int, str]) -> None:
    wanted = Counter({row["name"]: row["count"] for row in BUILD if row["name"] not in BASICS})
    first = tab_to(driver, lambda e: e.get_attribute("data-zone") == "side")
    assert first.tag_name == "button"
    while sum(wanted.values()):
        element = active(driver)
        assert element.get_attribute("data-zone") == "side", "ran out of sideboard cards"
        name = names[int(element.get_attribute("data-card"))]
        if wanted[name]:
            press(driver, Keys.ENTER)  # one copy to the deck; focus stays in the sideboard
            wanted[name] -= 1
        else:
            press(driver, Keys.TAB)
    for basic, count in BASICS.items():
        tab_to(driver, lambda e, b=basic: e.get_attribute("id") == f"basic-{b}")
        press(driver, Keys.CONTROL + "a", Keys.DELETE, str(count))
    WebDriverWait(driver, 5).until(
        lambda d: "40 cards in the deck: at least 40" in d.find_element("id", "db-counts").text
    )
    tab_to(driver, lambda e: e.get_attribute("name") == "opaque_sleeves")
    press(driver, Keys.SPACE)  # the DFCs are in opaque sleeves (R9)
    WebDriverWait(driver, 10).until(lambda d: "passes every check" in d.find_element("id", "db-check").text)


DRAG_BACK = """
var card = document.querySelector('.db-card[data-zone="side"][data-card="' + arguments[0] + '"]');
var zone = document.querySelector('.db-zone[data-zone="main"]');
var data = new DataTransfer();
card.dispatchEvent(new DragEvent("dragstart", {bubbles: true, dataTransfer: data}));
zone.dispatchEvent(new DragEvent("dragover", {bubbles: true, cancelable: true, dataTransfer: data}));
zone.dispatchEvent(new DragEvent("drop", {bubbles: true, cancelable: true, dataTransfer: data}));
"""


def click_and_drag(driver) -> None:
    """A click moves a copy to the sideboard; dragging it onto the deck brings it back."""
    card = driver.find_element("css selector", '.db-card[data-zone="main"]')
    card_id = card.get_attribute("data-card")
    card.click()
    assert driver.find_element("id", "db-main-title").text == "Deck (39)"
    assert driver.find_element("id", "db-side-title").text == "Sideboard (6)"
    driver.execute_script(DRAG_BACK, card_id)
    assert driver.find_element("id", "db-main-title").text == "Deck (40)"


def save(driver) -> None:
    tab_to(driver, lambda e: e.get_attribute("value") == "save")
    press(driver, Keys.ENTER)
    WebDriverWait(driver, 15).until(lambda d: "Deck saved and checked." in d.page_source)


def test_a_40_card_deck_built_with_the_keyboard_on_desktop_and_phone(browsers, login, server_url):
    users = {n: UserFactory(username=f"db-{n}") for n in ("org", "judge", "alice", "bob", "carol")}
    names = {}
    events = []
    for label in ("desktop", "phone"):
        event, regs = make_event(users, deck_format="limited", name=f"ISD draft {label}")
        draft_pile(event, regs["alice"])
        events.append(event)
    names = {c.pk: c.faces.get(position=0).name for c in Card.objects.filter(faces__position=0).distinct()}

    for event, width in zip(events, (None, 375)):
        driver = login(browsers.get(), users["alice"])
        if width:
            driver.execute_cdp_cmd(
                "Emulation.setDeviceMetricsOverride",
                {"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": True},
            )
        driver.get(f"{server_url}/decks/events/{event.pk}/")
        WebDriverWait(driver, 10).until(lambda d: d.find_elements("css selector", ".db-card"))
        assert not driver.find_element("css selector", ".deck-builder table").is_displayed()  # the no-script list
        build_with_the_keyboard(driver, names)
        if width:
            overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 0, f"the page is {overflow}px wider than the phone"
        else:
            click_and_drag(driver)
            assert violations(driver) == []
            if os.environ.get("DECK_BUILDER_SCREENSHOT"):
                driver.execute_script("document.querySelector('.deck-builder').scrollIntoView()")
                driver.save_screenshot(str(SCREENSHOT))
        save(driver)
        deck = Deck.objects.get(event=event, registration__user=users["alice"])
        assert deck.valid and deck.main_count == 40 and deck.source_format == "builder"
        assert Counter({r["name"].split(" // ")[0]: r["count"] for r in deck.main}) == Counter(
            {r["name"]: r["count"] for r in BUILD}
        )


def test_the_draft_log_and_history_pages_have_no_wcag_violations(browsers, login, server_url):
    from drafts.models import Seat
    from drafts.simulation import simulate_draft
    from events.models import Registration

    report = simulate_draft(set_code="ISD", players=8, seed=5)
    seat = Seat.objects.filter(pod_id=report.pod_id).order_by("position").first()
    alice = UserFactory(username="log-alice")
    Registration.objects.filter(pk=seat.registration_id).update(user=alice)
    seat.pod.event.decklists_published = True  # the packs' contents show
    seat.pod.event.save()
    driver = login(browsers.get(), alice)
    for path in ("/decks/drafts/", f"/decks/drafts/{seat.pk}/"):
        driver.get(server_url + path)
        assert violations(driver) == [], path
    assert len(driver.find_elements("css selector", ".draft-pack .taken")) == 42
