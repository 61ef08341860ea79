"""The draft pages drawn in the browser from the socket's state (static/js/draftstate.js).

The page's WebSocket is a fake here (tests/e2e/fakestate.py): each test decides the frames
the page hears, built from the database the way the server's pages read it. Checked: the
markup drawn from a state is the server panel's for the same state; deltas apply in order
(a gap asks for a snapshot); picks, pile moves and readiness keep focus on something useful;
no panel is fetched while the socket is up.
"""

from __future__ import annotations

import json
import time

import pytest
from django.utils import timezone
from selenium.webdriver.common.by import By

from drafts import services
from drafts.models import DraftCard, Seat
from events.access import SYSTEM
from tests.e2e import fakestate
from tests.e2e.conftest import make_pod
from tests.e2e.test_live_draft import wait

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

# Markup as a comparable tree: tags, attributes (sorted), text with whitespace collapsed; the
# CSRF token, a countdown's deadline format and its ticking text left out.
NORMALISE = """
window.__norm = function (html) {
  var holder = document.createElement("template");
  holder.innerHTML = html;
  function walk(node) {
    if (node.nodeType === 3) {
      var text = node.nodeValue.replace(/\\s+/g, " ").trim();
      return text ? JSON.stringify(text) : "";
    }
    if (node.nodeType !== 1) return "";
    var skipText = node.classList.contains("countdown");
    var attrs = Array.prototype.map.call(node.attributes, function (a) {
      var value = a.value;
      if (a.name === "data-deadline" || (node.name === "csrfmiddlewaretoken" && a.name === "value")) value = "*";
      return a.name + "=" + JSON.stringify(value);
    }).sort();
    var inner = skipText ? "" : Array.prototype.map.call(node.childNodes, walk).filter(Boolean).join(",");
    return "<" + node.tagName.toLowerCase() + (attrs.length ? " " + attrs.join(" ") : "") + ">" + inner + "</>";
  }
  var words = holder.content.textContent.replace(/\\s+/g, " ").trim();
  Array.prototype.forEach.call(holder.content.querySelectorAll(".countdown"), function (c) { c.textContent = ""; });
  words = holder.content.textContent.replace(/\\s+/g, " ").trim();
  return {tree: Array.prototype.map.call(holder.content.childNodes, walk).filter(Boolean).join(",\\n"), text: words};
};
window.__panel = function (address, done) {
  fetch(address, {credentials: "same-origin", headers: {"X-Live-Panel": "1"}}).then(function (r) { return r.text(); })
    .then(function (text) {
      var holder = document.createElement("template");
      holder.innerHTML = text;
      var out = {};
      holder.content.querySelectorAll("[data-region]").forEach(function (region) {
        out[region.getAttribute("data-region")] = region.innerHTML;
      });
      done(out);
    });
};
"""


def pick_front(seat: Seat, *, dfc: bool | None = None) -> int:
    """Pick the seat's front pack's first card (a DFC or not, if asked) through the service."""
    view = fakestate.seat_state(seat)
    pack = view["queue"][0]
    cards = [c for c in pack["cards"] if dfc is None or c[5] == dfc] or pack["cards"]
    services.make_pick(seat_id=seat.pk, draft_card_id=cards[0][0], pack_id=pack["pack_id"], actor=SYSTEM)
    return cards[0][0]


def open_page(driver, url, snapshot, sheet, *, missing=None):
    fakestate.load(driver, url, sheet_data=sheet, missing=missing)
    wait(driver, lambda d: d.execute_script("return !!(window.DraftState && window.Live && window.__fake);"))
    driver.execute_script(NORMALISE)
    driver.execute_script(
        "window.__updates = [];"
        "document.addEventListener('live:updated', function (e) { window.__updates.push(e.detail.regions); });"
    )
    driver.execute_script("window.__fake.open(); window.__fake.push(arguments[0]);", snapshot)
    wait(
        driver,
        lambda d: d.execute_script("return window.__updates.length > 0;"),
        message="the snapshot was never drawn",
    )


def compare(driver, panel_url, names):
    """Each region drawn from the state against the server's panel for the same state."""
    server = driver.execute_async_script("window.__panel(arguments[0], arguments[1]);", panel_url)
    for name in names:
        ours = driver.execute_script("return DraftState.region(arguments[0]);", name)
        assert ours is not None, name
        theirs_n = driver.execute_script("return window.__norm(arguments[0]);", server[name])
        ours_n = driver.execute_script("return window.__norm(arguments[0]);", ours)
        assert len(theirs_n["tree"]) > 100, (name, theirs_n)
        assert ours_n["text"] == theirs_n["text"], name
        assert ours_n["tree"] == theirs_n["tree"], name


def push_delta(driver, frm, to, pod, seats, *, board=True):
    delta = {"from": frm, "version": to, "pod": fakestate.pod_state(pod)}
    if board:
        current = fakestate.board(pod)
        delta["board"] = {
            "piles_open": current["piles_open"],
            "seats": {str(s["position"]): s for s in current["seats"]},
        }
    delta["seats"] = {str(s.pk): fakestate.seat_state(s) for s in seats}
    driver.execute_script("window.__fake.push(arguments[0]);", {"type": "delta", "pod": pod.pk, "deltas": [delta]})


def active(driver) -> dict:
    return driver.execute_script(
        "var a = document.activeElement; var card = a && a.closest && a.closest('.card');"
        "return {tag: a.tagName, id: a.id, cls: a.className, card: card && card.getAttribute('data-card')};"
    )


def test_the_seat_page_drawn_from_state_is_the_server_panel(
    browsers, login, server_url, organiser, players, cube_names
):
    pod = make_pod(organiser, players, cube_names, pick_timer=True, now=timezone.now())
    seats = list(Seat.objects.filter(pod=pod).order_by("position"))
    for seat in seats:  # a pile with a DFC, a second pack waiting, DFCs on the board
        pick_front(seat, dfc=seat.position % 2 == 0)
    pick_front(seats[7])
    services.set_pile_cover(seat_id=seats[0].pk, cover="checklist", actor=players[0])
    page = login(browsers.get(), players[0])
    url = server_url + f"/events/seats/{seats[0].pk}/"
    open_page(page, url, fakestate.snapshot(pod, [seats[0]]), fakestate.sheet(pod))
    assert page.execute_script("return window.__fake.urls[0];").endswith(
        f"/ws/seats/{seats[0].pk}/?pod={pod.pk}&protocol=state"  # the page's data-socket, then its dialect
    )
    compare(page, url + "panel/", ["status", "main", "pile", "board"])
    assert "1 more pack waiting" in page.find_element(By.CSS_SELECTOR, '[data-region="status"]').text

    # Staff reading the seat: no pick buttons, no pile controls, no "you".
    staff = login(browsers.get(), organiser)
    open_page(staff, url, fakestate.snapshot(pod, [seats[0]], full=True), fakestate.sheet(pod))
    compare(staff, url + "panel/", ["status", "main", "pile", "board"])
    assert not staff.find_elements(By.CSS_SELECTOR, ".pick-button, .pile-moves")


def test_deltas_picks_and_pile_moves_on_the_seat_page(browsers, login, server_url, organiser, players, cube_names):
    pod = make_pod(organiser, players, cube_names, pick_timer=False, now=timezone.now())
    seats = list(Seat.objects.filter(pod=pod).order_by("position"))
    pick_front(seats[7])  # a second pack waits for seat 1
    sheet = fakestate.sheet(pod)
    page = login(browsers.get(), players[0])
    url = server_url + f"/events/seats/{seats[0].pk}/"
    open_page(page, url, fakestate.snapshot(pod, [seats[0]], version=10), sheet)
    page.execute_script(
        "window.__panelFetches = 0; var f = window.fetch; window.fetch = function (a) {"
        " if (String(a).indexOf('/panel/') !== -1) window.__panelFetches += 1; return f.apply(this, arguments); };"
    )
    first_pack = page.find_element(By.ID, "pack-form").get_attribute("data-pack")

    # Pick then confirm: the pick goes over the socket; the delta brings the next pack, and
    # focus lands on its first card (not on <body>).
    time.sleep(0.6)
    card = page.find_element(By.CSS_SELECTOR, "#pack-form .card")
    card.find_element(By.CSS_SELECTOR, ".pick-button").click()
    page.find_element(By.CSS_SELECTOR, "[data-confirm-pick]").click()
    sent = page.execute_script("return window.__fake.sent;")
    pick = [f for f in sent if f["type"] == "pick"][-1]
    assert pick["card"] == int(card.get_attribute("data-card")) and pick["pack"] == int(first_pack)
    services.make_pick(seat_id=seats[0].pk, draft_card_id=pick["card"], pack_id=pick["pack"], actor=SYSTEM)
    page.execute_script(
        "window.__fake.push(arguments[0]);", {"type": "picked", "ref": pick["ref"], "pick": {}, "pod": {}, "queue": []}
    )
    push_delta(page, 10, 11, pod, [seats[0]])
    wait(page, lambda d: d.find_element(By.ID, "pack-form").get_attribute("data-pack") != first_pack)
    now = active(page)
    first = page.find_element(By.CSS_SELECTOR, "#pack-form .card").get_attribute("data-card")
    assert now["card"] == first and "pick-button" in now["cls"], now
    assert "(1 card)" in page.find_element(By.CSS_SELECTOR, '[data-region="pile"]').text
    assert "No other pack waiting" in page.find_element(By.CSS_SELECTOR, '[data-region="status"]').text
    # The half-second rule sees the pack the delta drew: a pick right away is not sent.
    assert page.execute_async_script("var done = arguments[1]; DraftPage.pick(arguments[0]).then(done);", first) is None
    assert len([f for f in page.execute_script("return window.__fake.sent;") if f["type"] == "pick"]) == 1

    # A delta the page has already is skipped; after a gap it asks for a snapshot and waits.
    push_delta(page, 9, 11, pod, [seats[0]])
    assert page.execute_script("return DraftState.version();") == 11
    pick_front(seats[0])
    push_delta(page, 12, 13, pod, [seats[0]])
    assert page.execute_script("return DraftState.syncing();")
    assert page.execute_script("return window.__fake.sent;")[-1] == {"type": "sync"}
    push_delta(page, 13, 14, pod, [seats[0]])
    assert "(1 card)" in page.find_element(By.CSS_SELECTOR, '[data-region="pile"]').text  # ignored meanwhile
    page.execute_script("window.__fake.push(arguments[0]);", fakestate.snapshot(pod, [seats[0]], version=14))
    wait(page, lambda d: "(2 cards)" in d.find_element(By.CSS_SELECTOR, '[data-region="pile"]').text)
    assert not page.execute_script("return DraftState.syncing();")
    assert page.execute_script("return window.__panelFetches;") == 0, "a panel was fetched with the socket up"
    compare(page, url + "panel/", ["status", "main", "pile", "board"])
    page.execute_script("window.__panelFetches = 0;")  # that one was the test's

    # ▼ on the first pile card (over HTTP, as before); the pushed pile moves it and focus
    # stays on that card's other button (its ▼ is now disabled).
    top = DraftCard.objects.in_pile(seats[0]).first().pk
    page.find_element(By.ID, f"down-{top}").click()
    wait(
        page,
        lambda d: list(DraftCard.objects.in_pile(seats[0]).values_list("pk", flat=True))[-1] == top,
    )
    push_delta(page, 14, 15, pod, [seats[0]], board=False)
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, ".pile-item")[-1].get_attribute("data-card") == str(top))
    wait(page, lambda d: active(d)["id"] == f"up-{top}", message=f"focus is on {active(page)}")
    assert page.execute_script("return window.__panelFetches;") == 0, "a panel was fetched with the socket up"


def test_a_card_missing_from_the_sheet_is_asked_for_once(browsers, login, server_url, organiser, players, cube_names):
    pod = make_pod(organiser, players, cube_names, pick_timer=False, now=timezone.now())
    seats = list(Seat.objects.filter(pod=pod).order_by("position"))
    front = fakestate.seat_state(seats[0])["queue"][0]["cards"]
    lacking = {front[0][1], front[1][1]}
    full = fakestate.sheet(pod)
    partial = fakestate.sheet(pod, leave_out=lacking)
    missing = {"cards": {str(i): full["cards"][str(i)] for i in lacking}, "printings": {}}
    page = login(browsers.get(), players[0])
    open_page(
        page,
        server_url + f"/events/seats/{seats[0].pk}/",
        fakestate.snapshot(pod, [seats[0]]),
        partial,
        missing=missing,
    )
    fetches = page.execute_script("return window.__fake.fetches;")
    asked = [f for f in fetches if f.startswith("/events/cards/?ids=")]
    assert len(asked) == 1 and set(map(int, asked[0].split("=")[1].split(","))) == lacking
    names = [c.get_attribute("data-name") for c in page.find_elements(By.CSS_SELECTOR, "#pack-form .card")][:2]
    assert names == [full["cards"][str(front[0][1])]["name"], full["cards"][str(front[1][1])]["name"]]
    assert json.dumps(names)


def test_the_table_and_the_spectator_view_drawn_from_state(browsers, login, server_url, organiser, players, cube_names):
    pod = make_pod(organiser, players, cube_names, pick_timer=False, now=timezone.now())
    seats = list(Seat.objects.filter(pod=pod).order_by("position"))
    for seat in seats:
        pick_front(seat, dfc=True)
    sheet = fakestate.sheet(pod)
    member = login(browsers.get(), players[2])
    url = server_url + f"/events/pods/{pod.pk}/board/"
    open_page(member, url, fakestate.snapshot(pod), sheet)
    compare(member, url + "panel/", ["status", "board"])
    assert member.find_element(By.CSS_SELECTOR, ".board-seat.is-me .seat-no").text.upper() == "SEAT 3"

    spectator = browsers.get()
    url = server_url + f"/events/watch/{pod.spectator_token}/"
    snapshot = fakestate.snapshot(pod)
    open_page(spectator, url, snapshot, sheet)
    compare(spectator, url + "panel/", ["status", "board"])
    assert "112 cards left" in spectator.find_element(By.CSS_SELECTOR, '[data-region="status"]').text
    # A pick elsewhere: the board follows the delta.
    pick_front(seats[3])
    push_delta(spectator, snapshot["version"], snapshot["version"] + 1, pod, [])
    wait(spectator, lambda d: "111 cards left" in d.find_element(By.CSS_SELECTOR, '[data-region="status"]').text)
    compare(spectator, url + "panel/", ["status", "board"])


def test_the_server_state_draws_the_server_panel(browsers, login, api_for, server_url, organiser, players, cube_names):
    """With the real socket: each page's regions drawn from the server's own snapshot and
    deltas are its panel's."""
    pod = make_pod(organiser, players, cube_names, pick_timer=True, now=timezone.now())
    seats = list(Seat.objects.filter(pod=pod).order_by("position"))
    page = login(browsers.get(), players[0])
    seat_url = server_url + f"/events/seats/{seats[0].pk}/"
    page.get(seat_url)
    wait(page, lambda d: d.execute_script("return !!(window.DraftState && DraftState.state());"))
    page.execute_script(NORMALISE)
    for seat in seats:  # deltas: a pile, a second pack waiting, DFCs on the board
        assert api_for(players[seat.position]).pick_first(seat.pk)
    assert api_for(players[7]).pick_first(seats[7].pk)
    wait(page, lambda d: "1 more pack waiting" in d.find_element(By.CSS_SELECTOR, '[data-region="status"]').text)
    wait(page, lambda d: "(1 card)" in d.find_element(By.CSS_SELECTOR, '[data-region="pile"]').text)
    time.sleep(0.5)  # the last deltas drawn
    compare(page, seat_url + "panel/", ["status", "main", "pile", "board"])

    for url in (f"/events/pods/{pod.pk}/board/", f"/events/watch/{pod.spectator_token}/"):
        page.get(server_url + url)
        wait(page, lambda d: d.execute_script("return !!(window.DraftState && DraftState.state());"))
        page.execute_script(NORMALISE)
        time.sleep(0.3)
        compare(page, server_url + url + "panel/", ["status", "board"])


@pytest.mark.parametrize(
    "fields",
    [
        {"state": "not_started", "round": 0},
        {"state": "paused", "paused_from": "drafting", "round": 1},
        {"state": "reviewing", "round": 1, "review_deadline": "future"},
        {"state": "paused", "paused_from": "reviewing", "round": 1, "paused_remaining_ms": 45_000},
        {"state": "deck_building", "round": 3, "deck_building_deadline": "future"},
        {"state": "done", "round": 3},
    ],
    ids=lambda f: f["state"] + ("-" + f["paused_from"] if f.get("paused_from") else ""),
)
def test_every_pod_state_draws_as_the_server_does(browsers, login, server_url, organiser, players, cube_names, fields):
    from drafts.models import Pod

    pod = make_pod(organiser, players, cube_names, pick_timer=True, now=timezone.now())
    seats = list(Seat.objects.filter(pod=pod).order_by("position"))
    pick_front(seats[7])
    pick_front(seats[0], dfc=True)
    pick_front(seats[0])
    later = timezone.now() + timezone.timedelta(minutes=5)
    Pod.objects.filter(pk=pod.pk).update(**{k: later if v == "future" else v for k, v in fields.items()})
    sheet = fakestate.sheet(pod)
    for user in (players[0], organiser):
        page = login(browsers.get(), user)
        url = server_url + f"/events/seats/{seats[0].pk}/"
        open_page(page, url, fakestate.snapshot(pod, [seats[0]]), sheet)
        compare(page, url + "panel/", ["status", "main", "pile", "board"])
    spectator = browsers.get()
    url = server_url + f"/events/watch/{pod.spectator_token}/"
    open_page(spectator, url, fakestate.snapshot(pod), sheet)
    compare(spectator, url + "panel/", ["status", "board"])


def test_ready_goes_over_the_socket_and_focus_stays(browsers, login, server_url, organiser, players, cube_names):
    from drafts.models import Pod

    pod = make_pod(organiser, players, cube_names, pick_timer=False, now=timezone.now())
    seats = list(Seat.objects.filter(pod=pod).order_by("position"))
    Pod.objects.filter(pk=pod.pk).update(
        state="reviewing", review_deadline=timezone.now() + timezone.timedelta(minutes=5)
    )
    page = login(browsers.get(), players[0])
    open_page(page, server_url + f"/events/seats/{seats[0].pk}/", fakestate.snapshot(pod, [seats[0]], version=5), {})
    page.find_element(By.ID, "ready-button").click()
    ready = page.execute_script("return window.__fake.sent;")[-1]
    assert ready["type"] == "ready" and ready["ref"]
    Seat.objects.filter(pk=seats[0].pk).update(ready=True)
    page.execute_script("window.__fake.push(arguments[0]);", {"type": "readied", "ref": ready["ref"]})
    push_delta(page, 5, 6, pod, [seats[0]])
    wait(
        page,
        lambda d: (
            "You are ready. Waiting for 7 other players" in d.find_element(By.CSS_SELECTOR, '[data-region="main"]').text
        ),
    )
    assert active(page)["tag"] == "H2", active(page)


def test_the_pod_page_follows_the_state(browsers, login, api_for, server_url, organiser, players, cube_names):
    """Staff: every seat's queue, picks and clock cells follow the socket's state."""
    pod = make_pod(organiser, players, cube_names, pick_timer=True, now=timezone.now())
    seats = list(Seat.objects.filter(pod=pod).order_by("position"))
    boss = login(browsers.get(), organiser)
    boss.get(server_url + f"/events/pods/{pod.pk}/")
    wait(boss, lambda d: d.execute_script("return !!(window.DraftState && DraftState.state());"))
    assert len(boss.execute_script("return Object.keys(DraftState.state().seats);")) == 8

    def cell(position, name):
        return boss.find_element(By.CSS_SELECTOR, f'tr[data-position="{position}"] [data-cell="{name}"]').text

    assert cell(1, "picks") == "0" and cell(1, "queue").startswith("1 pack")
    started = time.monotonic()
    assert api_for(players[0]).pick_first(seats[0].pk)
    wait(boss, lambda d: cell(0, "picks") == "1" and cell(1, "queue").startswith("2 packs"), timeout=4)
    assert time.monotonic() - started < 2.5
    assert boss.find_element(By.CSS_SELECTOR, 'tr[data-position="1"] [data-cell="clock"] .countdown[data-deadline]')


def test_the_pod_page_fetches_its_panel_for_the_log_not_for_picks(
    browsers, login, api_for, server_url, organiser, players, cube_names
):
    """Staff pod page: a pick changes only what the state draws (no panel fetch); a pause, which
    writes the pod's log, brings the panel (its log and connections) once, within its gap."""
    pod = make_pod(organiser, players, cube_names, pick_timer=True, now=timezone.now())
    seats = list(Seat.objects.filter(pod=pod).order_by("position"))
    boss = login(browsers.get(), organiser)
    boss.get(server_url + f"/events/pods/{pod.pk}/")
    wait(boss, lambda d: d.execute_script("return !!(window.DraftState && DraftState.state());"))
    boss.execute_script(
        "window.__panelFetches = 0; var f = window.fetch; window.fetch = function (a) {"
        " if (String(a).indexOf('/panel/') !== -1) window.__panelFetches += 1; return f.apply(this, arguments); };"
    )

    def cell(position, name):
        return boss.find_element(By.CSS_SELECTOR, f'tr[data-position="{position}"] [data-cell="{name}"]').text

    assert api_for(players[0]).pick_first(seats[0].pk)
    assert api_for(players[2]).pick_first(seats[2].pk)
    wait(boss, lambda d: cell(0, "picks") == "1" and cell(2, "picks") == "1", timeout=6)
    time.sleep(2.5)  # longer than the page's gap between panel fetches
    assert boss.execute_script("return window.__panelFetches;") == 0, "a pick made the pod page fetch its panel"
    log_before = boss.find_element(By.CSS_SELECTOR, '[data-region="log"]').text
    status, paused = api_for(organiser).call("POST", f"/api/pods/{pod.pk}/pause/")
    assert status == 200 and paused["state"] == "paused", paused
    wait(boss, lambda d: d.find_element(By.CSS_SELECTOR, '[data-region="log"]').text != log_before, timeout=8)
    assert boss.execute_script("return window.__panelFetches;") >= 1


def test_an_automatic_seat_draws_as_the_server_does(browsers, login, server_url, organiser, players, cube_names):
    """Issue 46 item 2: the player's seat given to an automatic drafter, drawn from the state
    as the server's panel draws it: the notice, no pick or pile controls."""
    pod = make_pod(organiser, players, cube_names, pick_timer=True, now=timezone.now())
    seats = list(Seat.objects.filter(pod=pod).order_by("position"))
    pick_front(seats[0])
    services.replace_with_automatic(seat_id=seats[0].pk, actor=organiser)
    seats[0].refresh_from_db()
    page = login(browsers.get(), players[0])
    url = server_url + f"/events/seats/{seats[0].pk}/"
    open_page(page, url, fakestate.snapshot(pod, [seats[0]]), fakestate.sheet(pod))
    compare(page, url + "panel/", ["status", "main", "pile", "board"])
    assert page.find_elements(By.ID, "automatic-seat")
    assert not page.find_elements(By.CSS_SELECTOR, ".pile-moves, #pile-cover, .pick-button")
