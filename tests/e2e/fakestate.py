"""A stand-in for the server's ``state`` dialect in browser tests of the renderer
(static/js/draftstate.js): the state, snapshot and card sheet of drafts/protocol.py built
from the database here, and a fake WebSocket the page uses instead of the real one, so a
test decides every frame the page hears.

Built from the same reads as the server's pages (``drafts.selectors``, ``drafts.queue``,
``drafts.cardinfo``), so a page drawn from it must look like the server's panel.
"""

from __future__ import annotations

import json

from django.utils import timezone

from drafts import cardinfo, selectors, services
from drafts.models import DraftCard, Pack, Pick, Pod, Seat
from drafts.protocol import Snapshot, check
from drafts.queue import iso, queue_rows
from drafts.state import queue_view

CARDS_URL = "/__test__/sheet.json"


def row(dc: DraftCard) -> list:
    return [dc.pk, dc.card_id, dc.printing_id, dc.rarity, dc.foil, dc.is_dfc]


def pod_state(pod: Pod) -> dict:
    return selectors.pod_summary(services.settle_pod_for_reading(pod.pk))


def board(pod: Pod) -> dict:
    pod = services.settle_pod_for_reading(pod.pk)
    piles_open = selectors._piles_are_open(pod)
    seats = []
    picks: dict = {}
    for seat_id in Pick.objects.filter(seat__pod=pod).values_list("seat_id", flat=True):
        picks[seat_id] = picks.get(seat_id, 0) + 1
    for seat in pod.seats.select_related("registration").order_by("position"):
        packs = []
        for pack in Pack.objects.filter(pod=pod, holder=seat).order_by("queue_seq"):
            cards = DraftCard.objects.in_pack(pack)
            packs.append(
                {
                    "pack_id": pack.pk,
                    "round": pack.round,
                    "cards_left": cards.count(),
                    "dfcs": [row(dc) for dc in cards.filter(is_dfc=True)],
                }
            )
        pile = DraftCard.objects.in_pile(seat).filter(is_dfc=True)
        seats.append(
            {
                "id": seat.pk,
                "position": seat.position,
                "name": seat.registration.name if seat.registration_id else "Automatic drafter",
                "is_automatic": seat.is_automatic,
                "ready": seat.ready,
                "picks": picks.get(seat.pk, 0),
                "packs": packs,
                "pile_dfcs": [row(dc) for dc in pile] if piles_open else None,
            }
        )
    return {"piles_open": piles_open, "seats": seats}


def seat_state(seat: Seat, *, full: bool = False) -> dict:
    seat = Seat.objects.select_related("registration").get(pk=seat.pk)
    # The server's own rule for what a queue shows (R15), from the ORM's rows.
    rows = [{**pack, "deadline": iso(pack["deadline"])} for pack in queue_rows(seat.pk)]
    queue = queue_view(rows, full=full)
    return {
        "info": {
            "id": seat.pk,
            "position": seat.position,
            "name": seat.registration.name if seat.registration_id else "Automatic drafter",
            "is_automatic": seat.is_automatic,
            "pile_cover": seat.pile_cover,
            "ready": seat.ready,
        },
        "queue": queue,
        "pile": [row(dc) for dc in DraftCard.objects.in_pile(seat)],
    }


def state(pod: Pod, seats: list[Seat] | tuple = (), *, full: bool = False) -> dict:
    return {
        "pod": pod_state(pod),
        "board": board(pod),
        "seats": {str(s.pk): seat_state(s, full=full) for s in seats},
    }


def snapshot(pod: Pod, seats: list[Seat] | tuple = (), *, full: bool = False, version: int | None = None) -> dict:
    current = state(pod, seats, full=full)
    frame = {
        "type": "snapshot",
        "pod": pod.pk,
        "version": current["pod"]["version"] if version is None else version,
        "server_time": timezone.now().isoformat(),
        "cards_url": CARDS_URL,
        "state": current,
    }
    check(frame, Snapshot)
    return frame


def sheet(pod: Pod, language: str = "en", *, leave_out: set[int] | frozenset[int] = frozenset()) -> dict:
    """The card sheet of the pod (drafts.cardinfo's faces), in the reader's language."""
    rows = list(DraftCard.objects.filter(pod=pod).values_list("card_id", "printing_id"))
    info = cardinfo.card_info({card for card, _ in rows if card not in leave_out})
    images = cardinfo.images({printing for _, printing in rows if printing})
    cards = {}
    for card_id, card in info.items():
        local = (card.get("printed_names") or {}).get(language) or []
        cards[str(card_id)] = {
            "name": card["name"],
            "local_name": " // ".join(local),
            "layout": card["layout"],
            "is_dfc": card["is_dfc"],
            "color_identity": card["color_identity"],
            "faces": [
                {**face, "local_name": local[i] if i < len(local) else ""} for i, face in enumerate(card["faces"])
            ],
        }
    printings = {str(pk): {"front": uris.get("front", ""), "back": uris.get("back", "")} for pk, uris in images.items()}
    return {"cards": cards, "printings": printings}


# The page's WebSocket, replaced before any of its scripts runs: it opens when the test says
# (window.__fake.open()), hears what the test pushes (window.__fake.push(frame)) and keeps
# what the page sends (window.__fake.sent). Fetches of the sheet are answered from
# window.__sheet (the page's own sheet URL too); of missing cards (/events/cards/?ids=) from window.__missing; each is noted.
FAKE_SOCKET = r"""
(function () {
  var sockets = [];
  window.__fake = {
    sent: [], urls: [], fetches: [],
    open: function () { sockets.forEach(function (s) { s._open(); }); },
    push: function (frame) { sockets.forEach(function (s) { s._hear(frame); }); },
    drop: function () { sockets.forEach(function (s) { s.close(); }); },
  };
  function FakeSocket(url) {
    this.url = url; this.readyState = 0; sockets.push(this); window.__fake.urls.push(url);
  }
  FakeSocket.prototype._open = function () {
    if (this.readyState !== 0) return;
    this.readyState = 1;
    if (this.onopen) this.onopen({});
    this._hear({type: "hello", role: "player", protocol: "state"});
  };
  FakeSocket.prototype._hear = function (frame) {
    if (this.readyState === 1 && this.onmessage) this.onmessage({data: JSON.stringify(frame)});
  };
  FakeSocket.prototype.send = function (text) { window.__fake.sent.push(JSON.parse(text)); };
  FakeSocket.prototype.close = function () {
    if (this.readyState === 3) return;
    this.readyState = 3;
    if (this.onclose) this.onclose({code: 1006});
  };
  window.WebSocket = FakeSocket;
  var realFetch = window.fetch;
  window.fetch = function (address, options) {
    var text = String(address);
    var isSheet = text.indexOf("/__test__/sheet.json") === 0 || /^\/events\/\d+\/cards\//.test(text);
    if (isSheet || text.indexOf("/events/cards/?ids=") === 0) {
      window.__fake.fetches.push(text);
      var body = isSheet ? window.__sheet : window.__missing;
      return Promise.resolve(new Response(JSON.stringify(body || {cards: {}, printings: {}}),
        {status: 200, headers: {"Content-Type": "application/json"}}));
    }
    return realFetch.apply(this, arguments);
  };
})();
"""


def load(driver, url: str, *, sheet_data: dict, missing: dict | None = None) -> None:
    """Load ``url`` with the WebSocket and the sheet's fetches replaced (on that page only: the
    window goes on to other tests with the real ones)."""
    source = (
        f"window.__sheet = {json.dumps(sheet_data)};\nwindow.__missing = {json.dumps(missing or {})};\n" + FAKE_SOCKET
    )
    added = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": source})
    try:
        driver.get(url)
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]})
