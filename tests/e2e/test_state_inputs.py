"""Live pages drawn from the socket's state never replace a field the reader is editing or has
edited (issue 27), in real headless Chromium: the player's pile-position choice on the seat page
survives the deltas of the neighbours' picks, and the organiser's half-filled controls on the
pod page survive the pod's picks, its slow refresh, and a redraw of their own region when
another organiser pauses the pod."""

from __future__ import annotations

import time

import pytest
from django.utils import timezone
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from drafts.models import Seat
from tests.e2e.conftest import make_pod
from tests.e2e.test_live_draft import live, ui_pick, wait

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_the_state_pages_keep_what_the_reader_typed(
    browsers, login, api_for, server_url, organiser, players, cube_names
):
    pod = make_pod(organiser, players, cube_names, pick_timer=False, now=timezone.now())
    seats = list(Seat.objects.filter(pod=pod).order_by("position"))
    player = login(browsers.get(), players[0])
    boss = login(browsers.get(), organiser)
    player.get(f"{server_url}/events/seats/{seats[0].pk}/")
    boss.get(f"{server_url}/events/pods/{pod.pk}/")
    live(player)
    live(boss)
    assert player.find_element(By.ID, "live").get_attribute("data-draw") == "state"

    for seat in seats[1:]:  # a pack waits behind the player's first: after a pick there is a next
        api_for(players[seat.position]).pick_first(seat.pk)
    ui_pick(player)  # and a pile to choose a place in
    wait(player, lambda d: len(Select(d.find_element(By.ID, "pick-position")).options) > 1)
    Select(player.find_element(By.ID, "pick-position")).select_by_value("0")  # "at the top of my pile"
    seconds = Select(boss.find_element(By.ID, "extend-seconds"))
    seconds.select_by_value("15")
    minutes = boss.find_element(By.ID, "deck-minutes")
    minutes.clear()
    minutes.send_keys("42")

    # A mark on a node the swaps replace (not the edited fields, whose own nodes are kept).
    mark = "document.getElementById('pack-title').__old = true; document.querySelector('[data-region=\"controls\"] legend').__old = true;"
    player.execute_script(mark.split(";")[0])
    boss.execute_script(mark.split(";")[1])
    # Every other seat picks again: deltas redraw the player's regions and the pod page's seats.
    before = player.find_element(By.CSS_SELECTOR, '[data-region="board"]').get_attribute("innerHTML")
    for seat in seats[1:]:
        api_for(players[seat.position]).pick_first(seat.pk)
    wait(
        player,
        lambda d: d.find_element(By.CSS_SELECTOR, '[data-region="board"]').get_attribute("innerHTML") != before,
        timeout=8,
        message="the neighbours' picks never reached the page",
    )
    time.sleep(6)  # past the pod page's slow refresh (presence and log, every 5 s)
    # The neighbours' picks change the board, not the pack in front: the player's pack region
    # is left alone (not redrawn at all) and keeps the choice.
    assert player.execute_script("return document.getElementById('pack-title').__old === true")
    assert Select(player.find_element(By.ID, "pick-position")).first_selected_option.get_attribute("value") == "0"
    assert Select(boss.find_element(By.ID, "extend-seconds")).first_selected_option.get_attribute("value") == "15"
    assert boss.find_element(By.ID, "deck-minutes").get_attribute("value") == "42"

    # Another organiser's pause (here the API) redraws the pod page's controls (Pause becomes
    # Resume) around the organiser's half-filled fields, which stay as they were.
    status, body = api_for(organiser).call("POST", f"/api/pods/{pod.pk}/pause/")
    assert status == 200, body
    wait(boss, lambda d: d.find_elements(By.ID, "control-resume"), timeout=8, message="the pause never showed")
    legend = "return document.querySelector('[data-region=\"controls\"] legend').__old === true"
    assert not boss.execute_script(legend)  # the region was redrawn
    assert Select(boss.find_element(By.ID, "extend-seconds")).first_selected_option.get_attribute("value") == "15"
    assert boss.find_element(By.ID, "deck-minutes").get_attribute("value") == "42"
