"""A judge call in real headless Chromium against a real ASGI server (websockets on).

A player calls a judge from a 375 px phone; a judge sees it arrive on the live queue and claims
it (the player's page says who is coming, without a reload); the judge opens the table's
context, follows the rules-desk link of a DFC in the deck, issues the prefilled penalty and
resolves the call; the player reads the notice in Portuguese.

With JUDGECALLS_SCREENSHOTS=<dir> it also saves the queue and the context as PNGs (those of docs/screenshots.md).
"""

from __future__ import annotations

import os

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from decks import services as deck_services
from judgecalls.models import CallStatus, JudgeCall
from penalties.models import Penalty
from tests.decks.conftest import catalogue  # noqa: F401  (fixture: the real DFCs)
from tests.e2e.test_live_draft import live, wait
from tests.judgecalls.conftest import T0, Floor

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
DELVER = "Delver of Secrets // Insectile Aberration"


def click(driver, selector):
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, selector).click() or True, message=f"no {selector}")


def shoot(driver, name):
    folder = os.environ.get("JUDGECALLS_SCREENSHOTS")
    if folder:
        driver.set_window_size(1280, 1500)
        driver.save_screenshot(os.path.join(folder, name))
        driver.set_window_size(1280, 900)


def test_a_call_from_a_phone_to_a_prefilled_penalty_read_in_portuguese(server_url, browsers, login, catalogue):  # noqa: F811
    floor = Floor()
    floor.event.deck_format = "constructed"
    floor.event.save(update_fields=["deck_format"])
    opponent = floor.player_b()
    deck_services.register_deck(
        event_id=floor.event.pk,
        actor=opponent,
        main=[{"name": DELVER, "count": 4}, {"name": "Island", "count": 36}],
        now=T0,
    )
    # The round runs on the real clock (the server's), so the table is still playing.
    from django.utils import timezone

    floor.round.ends_at = timezone.now() + timezone.timedelta(minutes=40)
    floor.round.save(update_fields=["ends_at"])

    phone, judge = browsers.get(), browsers.get()
    phone.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride", {"width": 375, "height": 812, "deviceScaleFactor": 2, "mobile": True}
    )
    login(phone, floor.player_a())
    login(judge, floor.judge)
    judge.get(f"{server_url}/judge-calls/events/{floor.event.pk}/")
    live(judge)
    assert "No open calls." in judge.page_source

    phone.get(f"{server_url}/matches/events/{floor.event.pk}/me/")
    live(phone)
    assert phone.execute_script("return document.documentElement.scrollWidth") <= 375

    def call_a_judge(d):  # typed and sent in one go: a live refresh may swap the form meanwhile
        field = d.find_element(By.ID, "judge-call-reason")
        d.execute_script("arguments[0].scrollIntoView({block: 'center'})", field)
        field.clear()  # a try cut short (the field not yet shown) may have typed part of it
        field.send_keys("Does Delver transform on my upkeep?")
        d.find_element(By.CSS_SELECTOR, "button.call-judge").click()
        return True

    wait(phone, call_a_judge, message="could not call")
    wait(phone, lambda d: "Judge called. Please wait at your seat." in d.page_source, message="call not shown")
    call = JudgeCall.objects.get()
    wait(  # the page after the post is live again before the judge acts (the update it must hear)
        phone,
        lambda d: d.find_element(By.ID, "live-status").get_attribute("data-state") == "live",
        timeout=20,
        message="the caller's page never went live again",
    )

    # The queue hears of it over its socket, without a reload.
    wait(judge, lambda d: d.find_elements(By.CSS_SELECTOR, f'tr[data-call="{call.pk}"]'), message="no new row")
    assert "Round 1 · table 1" in judge.page_source
    shoot(judge, "judge-call-queue.png")
    click(judge, f'tr[data-call="{call.pk}"] button.claim')
    wait(judge, lambda d: "A judge is coming: <strong>judge</strong>" in d.page_source, message="claim not shown")
    # The caller's page hears it on the match socket (or its polling fallback), without a reload.
    wait(phone, lambda d: "A judge is coming: judge." in d.page_source, timeout=30, message="the caller never heard")
    assert JudgeCall.objects.get().status == CallStatus.CLAIMED

    click(judge, f'tr[data-call="{call.pk}"] a.context-link')
    wait(judge, lambda d: d.find_elements(By.CSS_SELECTOR, "ul.call-dfcs a.rules-link"), message="no DFC")
    shoot(judge, "judge-call-context.png")
    context_url = judge.current_url
    click(judge, "ul.call-dfcs a.rules-link")
    wait(judge, lambda d: "Insectile Aberration" in d.page_source and "/rules/" in d.current_url, message="no desk")

    judge.get(context_url)
    section = f'section[data-registration="{floor.match.player_a_id}"] a.issue-penalty'
    click(judge, section)
    wait(judge, lambda d: d.find_elements(By.NAME, "infraction"), message="no penalty form")
    assert judge.find_element(By.NAME, "match_round").get_attribute("value") == "1"
    assert f"Judge call #{call.pk}" in judge.find_element(By.NAME, "description").get_attribute("value")
    Select(judge.find_element(By.NAME, "infraction")).select_by_value("slow_play")
    judge.find_element(By.CSS_SELECTOR, "form.pen-form button[type=submit]").click()
    # Issued, the form comes back to the call, the new penalty chosen to close it (issue 46 item 5).
    wait(judge, lambda d: d.current_url.startswith(context_url), message="not back at the call")
    penalty = Penalty.objects.get()
    assert penalty.registration_id == floor.match.player_a_id and penalty.match_round == 1
    chosen = Select(judge.find_element(By.CSS_SELECTOR, "#call-resolve select[name=penalty_id]"))
    assert chosen.first_selected_option.get_attribute("value") == str(penalty.pk)
    assert judge.find_element(By.CSS_SELECTOR, f'#call-resolve a[href="/penalties/{penalty.pk}/"]')

    judge.get(f"{server_url}/judge-calls/events/{floor.event.pk}/")
    live(judge)
    row = f'tr[data-call="{call.pk}"]'
    Select(judge.find_element(By.CSS_SELECTOR, f"{row} select[name=outcome]")).select_by_value("penalty")
    # The player's penalty is chosen from a list, by keyboard: no number to type.
    picker = judge.find_element(By.CSS_SELECTOR, f"{row} select[name=penalty_id]")
    assert picker.accessible_name == "Penalty issued for this call"
    picker.send_keys(Keys.ARROW_DOWN)
    assert Select(picker).first_selected_option.get_attribute("value") == str(penalty.pk)
    click(judge, f"{row} button.resolve-call")
    wait(judge, lambda d: "No open calls." in d.page_source, message="not resolved")
    assert JudgeCall.objects.get().penalty_id == penalty.pk

    phone.add_cookie({"name": "django_language", "value": "pt-br", "path": "/"})
    phone.get(f"{server_url}/penalties/{penalty.pk}/notice/")
    wait(phone, lambda d: "Como recorrer" in d.page_source, message="notice not in Portuguese")
    assert "Jogo Lento" in phone.find_element(By.CSS_SELECTOR, "dd.infraction").text
    assert phone.execute_script("return document.documentElement.scrollWidth") <= 375
