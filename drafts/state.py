"""What a live draft page holds: a pod's state read in one statement, and each viewer's part of it.

A *document* is everything about a pod that any of its pages shows (the pod's clocks, every
seat, every held pack and the cards in it, every pile), read in one SQL statement so that it is
one consistent version. It is server-side only: it travels between processes (``drafts.live``)
but never to a browser. What a browser receives is a *view* of it, built here per viewer from
the open-information rule (R15-R17), the same as ``drafts.selectors``:

- everyone on the pod's pages: the pod's state and clocks, and the open board (every seat's
  held packs with their sizes and DFCs, and the DFCs of every pile while piles are open);
- a seat's player: that seat's queue (the pack in front in full, of the packs waiting behind
  it only their DFCs) and pile;
- staff (organisers, judges): every card of the seats their page shows.

A view is a set of *pieces* (the pod, each board seat, each shown seat's info, queue and
pile), each encoded once per document. A snapshot sends every piece; a delta sends the pieces
that differ from what the socket sent before, so "what changed for this viewer" is decided by
the same view function that makes the snapshot. Cards are ``protocol.CardRow`` lists of ids.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
from functools import cached_property
from typing import Any

import orjson

from drafts.clocks import shown_clock
from drafts.models import PodState, effective_state
from drafts.queue import shown_packs

AUTOMATIC_NAME = "Automatic drafter"  # as drafts.selectors names a seat without a player
DRAFT_STATES = (PodState.DRAFTING, PodState.REVIEWING)

# The pod's document is built by the stored function ``drafts_pod_document``
# (drafts/sql/drafts_pod_document.sql): one statement, so that what it reads is one version of
# the pod, as JSON text that is published as it is (``Document.encode``). A pick from a socket
# reads it in the pick's own call (``drafts_pick_live``).
DOCUMENT_SQL = "SELECT drafts_pod_document(%s::bigint)"


def document_params(pod_id: int) -> list:
    return [pod_id]


def from_rows(rows) -> Document | None:
    """The document of ``DOCUMENT_SQL``'s rows (None for an unknown pod)."""
    return from_text(rows[0][0]) if rows else None


def from_text(text: str | None) -> Document | None:
    """The document of ``drafts_pod_document``'s text (None for an unknown pod)."""
    return Document.decode(text) if text is not None else None


def read(pod_id: int) -> Document | None:
    """The pod's document, from this thread's Django connection."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(DOCUMENT_SQL, document_params(pod_id))
        return from_rows(cursor.fetchall())


_shared: dict[str, Document] = {}


def shared_document(topic: str, version: int, body: str | dict | Document) -> Document | None:
    """This process's copy of the pod's document after a published change, made once per
    process however many of its sockets follow the pod (they then share its views' pieces
    too). ``body``: the document (``Document``, or its text, or from another process
    (``drafts.live.decode``) its data already parsed), or a pick's ``Patch`` (text or parsed),
    applied to the copy. None when the patch does not start from the copy's version (a gap:
    the caller reads the document whole, ``drafts.live.Hub.refresh``). A copy as new as
    ``version`` or newer is returned as it is (a page goes from what it has to the newest)."""
    known = _shared.get(topic)
    if known is not None and known.version >= version:
        return known
    if isinstance(body, Document):
        document: Document | None = body
    else:
        data = orjson.loads(body) if isinstance(body, str) else body
        if PATCH_FROM in data:
            document = None if known is None else known.patched(data, body if isinstance(body, str) else None)
        else:
            document = Document(data, body if isinstance(body, str) else None)
    if document is not None:
        remember(topic, document)
    return document


def known(topic: str) -> Document | None:
    """This process's copy of the pod's document (``state_topic``), if it follows the pod."""
    return _shared.get(topic)


def remember(topic: str, document: Document) -> None:
    """Keep ``document`` as this process's copy of the pod's (the process that read or patched
    it publishes it: its sockets then never decode it again). An older version never replaces
    a newer one (two processes publish out of commit order)."""
    if len(_shared) > 5_000:  # bounded: a pod's entry is replaced by its next version
        _shared.clear()
    current = _shared.get(topic)
    if current is None or current.version <= document.version:
        _shared[topic] = document


# A pick's answer for the live pages (``drafts_pick_live``), instead of the whole document when
# the pick wrote only what a pick writes: {"from": the pod's version before, "version": after,
# "seats": the seats written, "gone": the pack picked from, "packs": every pack those seats hold
# now (the document's pack rows, cards as ids), "piles": those seats' piles (ids)}. Also what a
# web process publishes of such a pick: every other process patches its copy with it.
PATCH_FROM = "from"


def _encode(value: Any) -> bytes:
    return orjson.dumps(value)


class Document:
    """A pod's document and the pieces of its views, each built and encoded at most once."""

    def __init__(self, data: dict, text: str | None, *, patch: str | dict | None = None) -> None:
        self.data = data
        self._text = text
        self.patch = patch  # made from a pick's patch (its text): what is published of it
        self._seat_pieces: dict[tuple[int, bool], dict[str, bytes]] = {}
        # Each viewer's change from a version to this one (``view_change``), built once however
        # many sockets of that view (a pod's spectators, its staff) send it.
        self._changes: dict[tuple[Viewer, int], ViewChange] = {}

    @classmethod
    def decode(cls, text: str) -> Document:
        return cls(orjson.loads(text), text)

    def encode(self) -> str:
        """The document as published: the text it was read as, never encoded again (one heard
        already parsed is encoded on demand: only tests ask)."""
        if self._text is None:
            self._text = orjson.dumps(self.data).decode()
        return self._text

    def wire(self) -> str:
        """What is published of this version: the patch it was made from (every other process
        patches its copy alike), else the document's text."""
        if isinstance(self.patch, dict):  # heard parsed from another process: only tests publish it again
            self.patch = orjson.dumps(self.patch).decode()
        return self.patch if self.patch is not None else self.encode()

    def patched(self, patch: dict, text: str | None = None) -> Document | None:
        """This document after the pick ``patch`` describes (``PATCH_FROM``), or None when the
        patch does not start from this version or names a card this document does not hold.
        Every card a pick moves was in the packs or piles of the seats it wrote (and the pack
        picked from), so the patch names cards by id and their entries are taken from here."""
        if patch[PATCH_FROM] != self.version:
            return None
        seats = set(patch["seats"])
        gone = patch["gone"]
        data = self.data
        entries: dict[int, list] = {}
        kept = []
        for row in data["packs"]:
            if row[1] in seats or row[0] == gone:
                for card in row[7]:
                    entries[card[0]] = card
            else:
                kept.append(row)
        piles = dict(data["piles"])
        for seat_id in seats:
            for card in piles.get(str(seat_id), ()):
                entries[card[0]] = card
        try:
            kept += [[*row[:7], [entries[card_id] for card_id in row[7]]] for row in patch["packs"]]
            for seat_id, card_ids in patch["piles"].items():
                if card_ids:
                    piles[str(seat_id)] = [entries[card_id] for card_id in card_ids]
                else:  # as the document: a seat with no card yet has no entry
                    piles.pop(str(seat_id), None)
        except KeyError:  # a card this copy does not place: it is not the version it says
            return None
        pod = {**data["pod"], "version": patch["version"]}
        return Document(
            {"pod": pod, "seats": data["seats"], "packs": kept, "piles": piles},
            None,
            patch=text if text is not None else patch,
        )

    @property
    def pod_id(self) -> int:
        return self.data["pod"]["id"]

    @property
    def version(self) -> int:
        return self.data["pod"]["version"]

    @cached_property
    def summary(self) -> dict:
        from drafts.selectors import pod_summary

        return pod_summary(self.data["pod"])

    @cached_property
    def piles_open(self) -> bool:
        """Piles' DFCs are open information during the draft; after it, private until the
        organiser publishes decklists (as ``selectors.open_board``)."""
        pod = self.data["pod"]
        return effective_state(pod["state"], pod["paused_from"]) in DRAFT_STATES or pod["decklists_published"]

    @cached_property
    def held(self) -> dict[int, list[dict]]:
        """Each seat's queue rows (``drafts.queue``'s shape), in queue order."""
        queues: dict[int, list[dict]] = {seat[0]: [] for seat in self.data["seats"]}
        for pack_id, holder, round_, picks_made, initial_size, deadline, remaining_ms, cards in self.data["packs"]:
            queues.setdefault(holder, []).append(
                {
                    "pack_id": pack_id,
                    "round": round_,
                    "picks_made": picks_made,
                    "initial_size": initial_size,
                    "deadline": deadline,
                    "remaining_ms": remaining_ms,
                    "cards": cards,
                }
            )
        return queues

    @cached_property
    def seats_by_id(self) -> dict[int, list]:
        """Each seat's row by its id (every socket of the pod looks its seat up in each document)."""
        return {seat[0]: seat for seat in self.data["seats"]}

    def pile(self, seat_id: int) -> list[list]:
        return self.data["piles"].get(str(seat_id), [])

    @cached_property
    def board(self) -> list[tuple[int, dict]]:
        """R15: every seat's held packs (size and DFCs) and, while piles are open, the DFCs of
        its pile. Nothing else about a seat's cards (R16)."""
        out = []
        for seat_id, position, name, _registration, is_automatic, ready, _cover in self.data["seats"]:
            pile = self.pile(seat_id)
            out.append(
                (
                    position,
                    {
                        "id": seat_id,
                        "position": position,
                        "name": name,
                        "is_automatic": is_automatic,
                        "ready": ready,
                        "picks": len(pile),
                        "packs": [
                            {
                                "pack_id": p["pack_id"],
                                "round": p["round"],
                                "cards_left": p["initial_size"] - p["picks_made"],
                                "dfcs": [card for card in p["cards"] if card[5]],
                            }
                            for p in self.held.get(seat_id, [])
                        ],
                        "pile_dfcs": [card for card in pile if card[5]] if self.piles_open else None,
                    },
                )
            )
        return out

    @cached_property
    def shared_pieces(self) -> dict[str, bytes]:
        """The pieces every page of the pod gets: the pod, and each seat of the open board."""
        # The pod without its version: that changes every time and travels in the frame.
        pod = {key: value for key, value in self.summary.items() if key != "version"}
        pieces = {"pod": _encode(pod), "piles_open": _encode(self.piles_open)}
        for position, seat in self.board:
            pieces[f"board:{position}"] = _encode(seat)
        return pieces

    def seat_pieces(self, seat_id: int, *, full: bool) -> dict[str, bytes]:
        """A seat's own cards as its player (or, ``full``, staff) sees them."""
        key = (seat_id, full)
        pieces = self._seat_pieces.get(key)
        if pieces is None:
            seat = self.seats_by_id.get(seat_id)
            if seat is None:
                pieces = {}
            else:
                info = {
                    "id": seat[0],
                    "position": seat[1],
                    "name": seat[2],
                    "is_automatic": seat[4],
                    "ready": seat[5],
                    "pile_cover": seat[6],
                }
                pieces = {
                    f"seat:{seat_id}:info": _encode(info),
                    f"seat:{seat_id}:queue": _encode(queue_view(self.held.get(seat_id, []), full=full)),
                    f"seat:{seat_id}:pile": _encode(self.pile(seat_id)),
                }
            self._seat_pieces[key] = pieces
        return pieces

    @cached_property
    def digest(self) -> dict:
        """The pod as the dashboard shows it (``protocol.PodDigest``): its state, the pick it
        is on (its slowest seat's), the clock its line shows (``clocks.shown_clock``: the
        first pick clock to run out, the review or the deck-building clock; a deadline while it
        runs, the time left while paused), the seats holding more than one pack (holding the
        pod up), and the seats' names. No card."""
        pod = self.data["pod"]
        fronts = [queue[0] for queue in self.held.values() if queue]
        kind, deadline, frozen = shown_clock(
            state=pod["state"],
            paused_from=pod["paused_from"] or None,
            review_deadline=pod["review_deadline"],
            deck_building_deadline=pod["deck_building_deadline"],
            paused_remaining_ms=pod["paused_remaining_ms"],
            # ISO text in one format and zone: the earliest sorts first.
            soonest_pick=min((p["deadline"] for p in fronts if p["deadline"]), default=None),
            soonest_paused_ms=min(
                (p["remaining_ms"] for p in fronts if not p["deadline"] and p["remaining_ms"] is not None),
                default=None,
            ),
        )
        return {
            "id": pod["id"],
            "state": pod["state"],
            "paused_from": pod["paused_from"] or None,
            "round": pod["round"],
            "pick": min((p["picks_made"] + 1 for p in fronts), default=None),
            "clock": kind,
            # whole seconds since the epoch
            "deadline": math.ceil(dt.datetime.fromisoformat(deadline).timestamp()) if deadline else None,
            "frozen": frozen,  # milliseconds left on a paused pod's clock
            "holding": sorted(
                [position, len(self.held.get(seat_id, []))]
                for seat_id, position, *_ in self.data["seats"]
                if len(self.held.get(seat_id, [])) > 1
            ),
            # Apart from ``holding``, which changes with the picks: a summary sends a field only
            # when it changed, and the names change only when a seat is handed over.
            "names": [name for _seat_id, _position, name, *_ in sorted(self.data["seats"], key=lambda s: s[1])],
        }


def queue_view(rows: list[dict], *, full: bool) -> list[dict]:
    """``protocol.QueuePack`` of each pack in the queue: ``drafts.queue``'s rule (R15)."""
    out = []
    for pack, visible, cards in shown_packs(rows, full=full):
        entry = {
            "pack_id": pack["pack_id"],
            "round": pack["round"],
            "pick_number": pack["picks_made"] + 1,
            "cards_left": pack["initial_size"] - pack["picks_made"],
            "deadline": pack["deadline"],  # ISO text already (``parse``)
            "remaining_ms": pack["remaining_ms"],
            "cards": [list(card) for card in cards],
        }
        if not visible:
            entry["waiting"] = True
        out.append(entry)
    return out


@dataclasses.dataclass(frozen=True)
class Viewer:
    """Who a socket shows the pod to: the seats whose own cards it may see, and whether in
    full (staff) or as their player."""

    seat_ids: tuple[int, ...] = ()
    full: bool = False
    every_seat: bool = False  # staff on the pod page: every seat of the pod


def pieces(document: Document, viewer: Viewer) -> dict[str, bytes]:
    """Everything this viewer's page shows of the document, piece by piece."""
    out = dict(document.shared_pieces)
    seat_ids = [s[0] for s in document.data["seats"]] if viewer.every_seat else viewer.seat_ids
    for seat_id in seat_ids:
        out.update(document.seat_pieces(seat_id, full=viewer.full))
    return out


@dataclasses.dataclass
class ViewChange:
    """A view's change from one version to a document's: the same for every socket of that
    view that sent that version (what a socket sent is its view of the version it is at:
    ``pieces`` of a document of that version), so it is built, and its frame encoded, once."""

    after: dict[str, bytes]
    changed: dict[str, bytes]
    board_only: bool
    start: int
    version: int
    pod_id: int
    _delta: dict | None = None
    _frame: str | None = None

    @property
    def delta(self) -> dict:
        """``protocol.Delta``'s entry from ``start`` to ``version``."""
        if self._delta is None:
            self._delta = {"from": self.start, "version": self.version, **changes(self.changed)}
        return self._delta

    @property
    def frame(self) -> str:
        """The delta frame (``delta_frame``), encoded once and written to every such socket."""
        if self._frame is None:
            self._frame = delta_frame(self.pod_id, [self.delta])
        return self._frame


def view_change(document: Document, viewer: Viewer, version: int, shown: dict[str, bytes]) -> ViewChange:
    """``viewer``'s change from ``version`` (whose pieces the socket sent: ``shown``) to
    ``document``, shared by every socket of the view at that version."""
    key = (viewer, version)
    change = document._changes.get(key)
    if change is None:
        after = pieces(document, viewer)
        changed = changed_pieces(shown, after)
        change = document._changes[key] = ViewChange(
            after, changed, board_only(changed), version, document.version, document.pod_id
        )
    return change


def own_pieces_changed(document: Document, viewer: Viewer, shown: dict[str, bytes]) -> bool:
    """Whether anything but the seats' places on the board differs from ``shown``: what
    ``board_only`` would say of ``changed_pieces``, without building the whole view (most
    documents a seat page hears are a neighbour's pick, held back for the board's turn)."""
    shared = document.shared_pieces
    if shown.get("pod") != shared["pod"] or shown.get("piles_open") != shared["piles_open"]:
        return True
    seat_ids = [s[0] for s in document.data["seats"]] if viewer.every_seat else viewer.seat_ids
    for seat_id in seat_ids:
        for key, value in document.seat_pieces(seat_id, full=viewer.full).items():
            if shown.get(key) != value:
                return True
    return False


def _assemble(changed: dict[str, bytes]) -> dict:
    """Pieces back into the shape of ``protocol.State`` (or of a delta's changes), each kept
    as its encoded JSON (``orjson.Fragment``): a frame is never encoded twice."""
    out: dict[str, Any] = {}
    for key, encoded in changed.items():
        value = orjson.Fragment(encoded)
        kind, _, rest = key.partition(":")
        if kind == "pod":
            out["pod"] = value
        elif kind == "piles_open":
            out.setdefault("board", {})["piles_open"] = value
        elif kind == "board":
            out.setdefault("board", {}).setdefault("seats", {})[rest] = value
        else:
            seat_id, _, part = rest.partition(":")
            out.setdefault("seats", {}).setdefault(seat_id, {})[part] = value
    return out


def snapshot_state(shown: dict[str, bytes]) -> dict:
    """``protocol.State`` from a view's pieces (board seats as a list, in seat order)."""
    state = _assemble(shown)
    board = state.get("board", {})
    seats = board.get("seats", {})
    return {
        "pod": state["pod"],
        "board": {"piles_open": board.get("piles_open", False), "seats": [seats[k] for k in sorted(seats, key=int)]},
        "seats": state.get("seats", {}),
    }


def changed_pieces(before: dict[str, bytes], after: dict[str, bytes]) -> dict[str, bytes]:
    """The pieces of ``after`` that differ from ``before`` (compared as encoded, so equal
    content is never sent again)."""
    return {key: value for key, value in after.items() if before.get(key) != value}


def board_only(changed: dict[str, bytes]) -> bool:
    """Whether only seats' places on the open board changed (a page gets those at most every
    ``BOARD_EVERY`` seconds)."""
    return all(key.startswith("board:") for key in changed)


def changes(changed: dict[str, bytes]) -> dict:
    """The changes of a ``protocol.Delta`` from the changed pieces."""
    return _assemble(changed)


def delta(before: dict[str, bytes], after: dict[str, bytes]) -> dict:
    """The changes of a ``protocol.Delta`` from one view to the next."""
    return changes(changed_pieces(before, after))


def snapshot_frame(document: Document, shown: dict[str, bytes], *, cards_url: str, now: dt.datetime) -> str:
    return orjson.dumps(
        {
            "type": "snapshot",
            "pod": document.pod_id,
            "version": document.version,
            "server_time": now.isoformat(),
            "cards_url": cards_url,
            "state": snapshot_state(shown),
        }
    ).decode()


def delta_frame(pod_id: int, deltas: list[dict]) -> str:
    return orjson.dumps({"type": "delta", "pod": pod_id, "deltas": deltas}).decode()
