"""Sealed events in Chromium, by 8 players: a DSK sealed event from the organiser's form to
opened pools, registered decks (one built on a 375 px phone) and round 1's pairings; and a
paper sealed event with the MTR 7.5 swap (a pool typed in with the keyboard, the swap, one
pool confirmed and one disputed to the judges' queue). The other players act through the API."""

from __future__ import annotations

import datetime as dt

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from decks.models import Deck
from events.access import SYSTEM
from events.models import Event
from events.services import register_player
from judgecalls.models import JudgeCall
from matches import services as match_services
from matches.models import Round
from sealed import selectors
from sealed.models import PaperPool, PoolStatus
from tests.e2e.test_live_draft import PHONE, wait
from tests.e2e.test_matches import click, switch_user
from tests.sealed.test_services import paper_pool

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def forty(pool: list[dict]) -> list[dict]:
    """23 cards of the pool and 17 Forests: a legal limited deck."""
    return [{"card_id": row["card_id"], "count": 1} for row in pool[:23]] + [{"name": "Forest", "count": 17}]


def test_a_dsk_sealed_event_from_creation_to_round_one(server_url, browsers, login, api_for, organiser, players):
    desk = login(browsers.get(), organiser)
    desk.get(server_url + "/sealed/new/")
    desk.find_element(By.NAME, "name").send_keys("DSK prerelease")
    Select(desk.find_element(By.NAME, "set_code")).select_by_value("DSK")
    desk.find_element(By.ID, "create-sealed").click()
    wait(desk, lambda d: "DSK prerelease" in d.find_element(By.TAG_NAME, "h1").text, message="event not created")
    event = Event.objects.get(name="DSK prerelease")
    assert [b["set_code"] for b in event.sealed.boosters] == ["DSK"] * 6
    regs = [register_player(event_id=event.pk, actor=SYSTEM, user=p) for p in players]

    desk.get(f"{server_url}/sealed/{event.pk}/")
    click(desk, "#open-pools")
    wait(desk, lambda d: "Pools opened for 8 players" in d.page_source, message="pools not opened")

    phone = login(browsers.get(), players[0])
    phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    phone.get(f"{server_url}/sealed/{event.pk}/")
    assert len(phone.find_elements(By.CSS_SELECTOR, "details.sealed-pack")) == 6
    assert phone.execute_script("return document.scrollingElement.scrollWidth") <= 375
    mine = selectors.player_pool(regs[0])
    assert mine["packs"][0]["cards"][0]["name"] in phone.page_source
    click(phone, "#build-deck")
    wait(phone, lambda d: d.find_elements(By.ID, "deck-total"), message="no deck builder")
    for row in mine["pool"][:23]:  # one copy of each to the main deck (the builder redraws)
        click(phone, f'.db-card[data-zone="side"][data-card="{row["card_id"]}"]')
    click(phone, "#basic-Forest")
    ActionChains(phone).send_keys(Keys.CONTROL + "a", Keys.DELETE, "17", Keys.TAB).perform()
    wait(phone, lambda d: "40 cards in the deck" in d.find_element(By.ID, "db-counts").text, message="not 40 cards")
    click(phone, 'input[name="opaque_sleeves"]')
    phone.find_element(By.CSS_SELECTOR, 'button[name="action"][value="save"]').click()
    wait(phone, lambda d: Deck.objects.filter(registration=regs[0], valid=True).exists(), message="deck not registered")

    for user in players[1:]:
        api = api_for(user)
        status, pool = api.call("GET", f"/api/sealed/events/{event.pk}/pool/")
        assert status == 200 and len(pool["packs"]) == 6
        status, body = api.call(
            "PUT", f"/api/events/{event.pk}/deck/", {"main": forty(pool["pool"]), "opaque_sleeves": True}
        )
        assert status in (200, 201) and body["valid"], body

    desk.get(f"{server_url}/sealed/{event.pk}/")
    states = [td.text for td in desk.find_elements(By.CSS_SELECTOR, "#sealed-players td.deck-state")]
    assert states == ["registered"] * 8
    match_services.configure_matches(event_id=event.pk, actor=organiser, mode="event", seed=4)
    desk.get(f"{server_url}/matches/events/{event.pk}/")
    click(desk, "button.pair-next")
    wait(desk, lambda d: d.find_elements(By.CSS_SELECTOR, "button.start-round"), message="round 1 not paired")
    round_one = Round.objects.get(event=event, number=1)
    paired = {r for m in round_one.matches.all() for r in (m.player_a_id, m.player_b_id)}
    assert round_one.matches.count() == 4 and paired == {r.pk for r in regs}


def test_a_paper_sealed_event_with_the_swap(server_url, browsers, login, api_for, organiser, players):
    from sealed import services

    event = services.create_sealed_event(
        actor=organiser,
        name="Paper prerelease",
        date=dt.date(2026, 12, 6),
        boosters=["DSK"],
        paper=True,
    )
    regs = [register_player(event_id=event.pk, actor=SYSTEM, user=p) for p in players]
    phone = login(browsers.get(), players[0])
    phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    phone.get(f"{server_url}/sealed/{event.pk}/")
    click(phone, "#register-pool-link")
    names = [row["name"] for row in selectors.pool_cards(paper_pool(commons=3, uncommons=1, rares=1))]
    search = phone.find_element(By.ID, "card-search")
    for name in [*names, names[0]]:  # the keyboard only: type, Enter; the first card twice
        search.send_keys(name, Keys.ENTER)
    wait(phone, lambda d: "Cards: 6 of at most 84" in d.find_element(By.ID, "pool-counts").text, message="no count")
    assert phone.execute_script("return document.scrollingElement.scrollWidth") <= 375
    phone.find_element(By.ID, "register-pool").click()
    wait(phone, lambda d: "Pool registered (6 cards)" in d.page_source, message="pool not registered")
    for user in players[1:]:
        status, body = api_for(user).call("PUT", f"/api/sealed/events/{event.pk}/paper-pool/", {"cards": paper_pool()})
        assert status == 200, body

    desk = login(browsers.get(), organiser)
    desk.get(f"{server_url}/sealed/{event.pk}/")
    click(desk, "#swap-pools")
    wait(desk, lambda d: d.find_elements(By.ID, "swap-done"), message="not swapped")
    pools = list(PaperPool.objects.filter(event=event))
    assert len(pools) == 8 and all(p.builder_id not in (None, p.registered_by_id) for p in pools)

    phone.get(f"{server_url}/sealed/{event.pk}/")
    click(phone, "#confirm-pool")
    wait(phone, lambda d: d.find_element(By.ID, "received-status").get_attribute("data-status") == "confirmed")
    switch_user(phone, login, players[1])
    phone.get(f"{server_url}/sealed/{event.pk}/")
    phone.find_element(By.ID, "dispute-reason").send_keys("a rare is missing")
    click(phone, "#dispute-pool")
    wait(phone, lambda d: "A judge is on the way" in d.page_source, message="no dispute")
    call = JudgeCall.objects.get(caller=regs[1])
    assert PaperPool.objects.get(builder=regs[1]).status == PoolStatus.DISPUTED
    desk.get(f"{server_url}/judge-calls/{call.pk}/")
    assert "Sealed pool dispute" in desk.page_source
    assert len(desk.find_elements(By.CSS_SELECTOR, "#call-pools details")) == 2
