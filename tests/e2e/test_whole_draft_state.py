"""A whole 8-seat pod drafted, three rounds, with two players in Chromium on the page that draws
its socket's state (the other six over the API): every pick lands, the DFCs show on every table
view (R15) and no single-faced card of another seat ever does (R16), and the page never fetches
its panel while its socket is up."""

from __future__ import annotations

import time

import pytest
from django.utils import timezone
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By

from drafts.models import DraftCard, Pick, Pod, PodState, Seat
from tests.e2e.conftest import make_pod
from tests.e2e.test_live_draft import live, pack_id, region, ui_pick, wait
from tests.places import piled

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

PANEL_FETCHES = "return performance.getEntriesByType('resource').filter(e => e.name.indexOf('/panel/') !== -1).length;"


def press_ready(page) -> None:
    """Click "I'm ready" if it is there (a live redraw may swap it out between find and click)."""
    for _ in range(3):
        try:
            buttons = page.find_elements(By.ID, "ready-button")
            if buttons:
                buttons[0].click()
            return
        except StaleElementReferenceException:
            time.sleep(0.1)


def test_a_whole_pod_drafts_in_the_browser_from_pushed_state(
    browsers, login, api_for, server_url, organiser, players, cube_names
):
    pod = make_pod(organiser, players, cube_names, pick_timer=False, now=timezone.now())
    seats = list(Seat.objects.filter(pod=pod).order_by("position"))
    in_browser = {seats[0].pk: login(browsers.get(), players[0]), seats[4].pk: login(browsers.get(), players[4])}
    apis = {s.pk: api_for(players[s.position]) for s in seats if s.pk not in in_browser}
    for seat_id, page in in_browser.items():
        page.get(server_url + f"/events/seats/{seat_id}/")
        live(page)
        assert page.execute_script("return document.getElementById('live').getAttribute('data-draw');") == "state"
    single_faced = set(DraftCard.objects.filter(pod=pod, is_dfc=False).values_list("card__name", flat=True))
    boards_with_dfcs = 0
    deadline = time.monotonic() + 420
    while True:
        assert time.monotonic() < deadline, "the draft did not finish"
        state = Pod.objects.get(pk=pod.pk).state
        if state == PodState.REVIEWING:
            for seat_id, api in apis.items():
                api.call("POST", f"/api/seats/{seat_id}/ready/", {})
            for page in in_browser.values():
                press_ready(page)
            wait(
                next(iter(in_browser.values())),
                lambda d: Pod.objects.get(pk=pod.pk).state != PodState.REVIEWING,
                timeout=10,
                message="the next round never started",
            )
            continue
        if state != PodState.DRAFTING:
            break
        progressed = False
        for seat_id, api in apis.items():
            progressed |= api.pick_first(seat_id)
        for page in in_browser.values():
            board = region(page, "board")
            # R16: the table shows another seat's cards only as DFCs ("Front NNN // Back NNN").
            assert not any(name in board for name in single_faced if name.startswith("Single")), board
            boards_with_dfcs += "Front " in board
            if pack_id(page):
                ui_pick(page)
                progressed = True
        if not progressed:
            time.sleep(0.05)

    assert Pod.objects.get(pk=pod.pk).state == PodState.DECK_BUILDING
    assert Pick.objects.filter(seat__pod=pod).count() == 8 * 45  # every pick landed, once
    for seat_id, page in in_browser.items():
        wait(page, lambda d: "(45 cards)" in region(d, "pile"), timeout=10)
        mine = set(piled(pk=seat_id))
        shown = {
            int(x)
            for x in page.execute_script(
                "return Array.from(document.querySelectorAll('.pile-item')).map(e => e.getAttribute('data-card'));"
            )
        }
        assert shown == mine
        assert page.execute_script(PANEL_FETCHES) == 0  # drawn from the socket, never fetched
    assert boards_with_dfcs > 0  # R15: the DFCs were on the table
