"""Matches in a real headless Chromium against a real ASGI server (websockets on).

An eight-player pod plays three Swiss rounds: the organiser pairs, starts and closes each
round from the matches dashboard; for every match one player reports the result on their own
page and the opponent confirms it on theirs, while the reporter's page updates live.
"""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from matches.models import Match, MatchStatus, Round, RoundState
from tests.e2e.test_live_draft import live, wait
from tests.matches.conftest import Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def switch_user(driver, login, user):
    driver.get("about:blank")
    driver.delete_all_cookies()
    login(driver, user)


def click(driver, selector):
    """Click, again if a live refresh swapped the element out meanwhile."""
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, selector).click() or True, message=f"no {selector}")


def report(driver, won, lost):
    def fill(d):
        for name, value in (("won", won), ("lost", lost)):
            field = d.find_element(By.CSS_SELECTOR, f'.report-form input[name="{name}"]')
            field.clear()
            field.send_keys(str(value))
        d.find_element(By.CSS_SELECTOR, "button.report-result").click()
        return True

    wait(driver, fill, message="could not report")


def test_an_eight_player_pod_plays_three_rounds_in_the_browser(server_url, browsers, login):
    t = Tournament()
    t.configure(seed=8)
    organiser, reporter, confirmer = browsers.get(), browsers.get(), browsers.get()
    login(organiser, t.organiser)
    dashboard = f"{server_url}/matches/events/{t.event.pk}/"
    me = f"{server_url}/matches/events/{t.event.pk}/me/"
    for number in (1, 2, 3):
        organiser.get(dashboard)
        click(organiser, "button.pair-next")
        if number == 1:  # no decks registered: warned, the organiser pairs anyway
            wait(organiser, lambda d: "no legal deck" in d.page_source, message="no warning before round 1")
            click(organiser, "button.pair-anyway")
        wait(organiser, lambda d: d.find_elements(By.CSS_SELECTOR, "button.start-round"), message="not paired")
        click(organiser, "button.start-round")
        wait(organiser, lambda d: "Close round" in d.page_source, message="round did not start")
        live(organiser)
        round_obj = Round.objects.get(pod=t.pod, number=number)
        assert round_obj.state == RoundState.RUNNING
        if number == 1:  # across the table: seat 1 plays seat 5
            assert [(m.player_a.name, m.player_b.name) for m in round_obj.matches.order_by("table")][0] == (
                "Player 1",
                "Player 5",
            )
        for match in round_obj.matches.order_by("table"):
            a, b = t.user_of[match.player_a_id], t.user_of[match.player_b_id]
            switch_user(reporter, login, a)
            reporter.get(me)
            assert f"Table {match.table}" in reporter.page_source and match.player_b.name in reporter.page_source
            live(reporter)
            report(reporter, 2, 1)
            wait(
                reporter,
                lambda d: d.find_element(By.CSS_SELECTOR, "[data-status]").get_attribute("data-status") == "reported",
                message="report not shown",
            )
            live(reporter)
            switch_user(confirmer, login, b)
            confirmer.get(me)
            assert "Your opponent reported 1-2-0 for you." in confirmer.page_source
            live(confirmer)
            click(confirmer, "button.confirm-result")
            wait(
                confirmer,
                lambda d: "1-2-0" in d.find_element(By.CSS_SELECTOR, ".my-score").text,
                message="confirmation not shown",
            )
            # The reporter's page hears it over the websocket, without a reload.
            wait(
                reporter,
                lambda d: d.find_element(By.CSS_SELECTOR, "[data-status]").get_attribute("data-status") == "confirmed",
                timeout=10,
                message="the reporter's page did not update live",
            )
            assert Match.objects.get(pk=match.pk).status == MatchStatus.CONFIRMED
        # The organiser's dashboard counted the results down live.
        wait(
            organiser,
            lambda d: "0 matches outstanding" in d.page_source,
            timeout=10,
            message="dashboard did not update live",
        )
        click(organiser, "button.finish-round")
        wait(organiser, lambda d: "Round closed." in d.page_source, message="round not closed")
        assert Round.objects.get(pk=round_obj.pk).state == RoundState.FINISHED
    organiser.get(f"{server_url}/matches/events/{t.event.pk}/standings/")
    rows = organiser.find_elements(By.CSS_SELECTOR, "table.standings tbody tr")
    assert len(rows) == 8
    assert [row.find_elements(By.TAG_NAME, "td")[2].text for row in rows] == ["9", "6", "6", "6", "3", "3", "3", "0"]


def test_a_half_typed_result_survives_a_live_refresh_of_its_region(server_url, browsers, login, api_for):
    """static/js/live.js: a field the player is typing in (or has typed in) keeps its node, its
    value and its focus when the region around it is swapped (here: the opponent reports)."""
    from django.utils import timezone

    from matches import services

    t = Tournament()
    t.configure(seed=8)
    round_obj = t.pair(now=timezone.now())
    services.start_round(round_id=round_obj.pk, actor=t.organiser, now=timezone.now())
    match = round_obj.matches.exclude(player_b=None).order_by("table").first()
    player, opponent = t.user_of[match.player_a_id], t.user_of[match.player_b_id]
    driver = browsers.get()
    login(driver, player)
    driver.get(f"{server_url}/matches/events/{t.event.pk}/me/")
    live(driver)

    def typed(name: str, text: str) -> None:
        """Type into a field; again if the page swapped the still untouched region meanwhile
        (its first version check may refresh it on a busy machine)."""

        def attempt(d):
            field = d.find_element(By.CSS_SELECTOR, f'.report-form input[name="{name}"]')
            field.clear()
            field.send_keys(text)
            return field.get_attribute("value") == text

        wait(driver, attempt, message=f"could not type in {name}")

    typed("lost", "1")  # typed, then left for the next field
    typed("won", "2")  # still being typed in
    status, body = api_for(opponent).call("POST", f"/api/matches/{match.pk}/report/", {"won": 1, "lost": 2})
    assert status == 200, body  # through the server, whose change is pushed to the page
    wait(driver, lambda d: "Your opponent reported" in d.page_source, timeout=10, message="no live refresh")
    fields = {
        name: driver.find_element(By.CSS_SELECTOR, f'.report-form input[name="{name}"]') for name in ("won", "lost")
    }
    assert fields["won"].get_attribute("value") == "2" and fields["lost"].get_attribute("value") == "1"
    assert driver.switch_to.active_element == fields["won"]
    # An untouched field still follows the server (the drawn count is the fresh render's).
    assert driver.find_element(By.CSS_SELECTOR, ".confirm-result")
