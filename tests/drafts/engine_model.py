"""A pure model of one digital pod, the oracle of the engine's stored functions.

Small on purpose: the rules as MTR and RULES.md state them (pass left-right-left, the pick
clock by cards left, the review clock, the automatic drafter's choice by ``drafts.core.autopick``,
last cards passed without a clock, a pick received in time beats its clock, everything due
applied in time order) over plain lists and dicts, no database. The property test
(``tests/drafts/services/test_engine_model.py``) drives the database and this model with the
same steps and compares the whole pod after each one. It imports no Django.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from drafts.core.autopick import Candidate, choose
from drafts.core.timing import ROUNDS, pass_direction, pick_seconds, review_seconds

# The values of drafts.models' enums, as the database stores them.
NOT_STARTED, DRAFTING, REVIEWING, DECK_BUILDING, DONE, PAUSED = (
    "not_started",
    "drafting",
    "reviewing",
    "deck_building",
    "done",
    "paused",
)
MANUAL, TIMEOUT, AUTOMATIC, LAST_CARD = "manual", "timeout", "automatic", "last_card"
ACTIVE = (DRAFTING, REVIEWING, DECK_BUILDING)


class Refused(Exception):
    """A step the engine refuses, with its error code."""

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


@dataclass
class Card:
    id: int
    rarity: str
    colors: str
    card_id: int  # the catalogue card (the automatic drafter counts a pile's distinct ones)


@dataclass
class Pack:
    id: int
    round: int
    opener: int  # seat position
    cards: list[int]  # in slot order
    initial_size: int
    holder: int | None = None
    queue_seq: int = 0
    arrived_at: dt.datetime | None = None
    deadline: dt.datetime | None = None
    picks_made: int = 0
    remaining_ms: int | None = None

    @property
    def cards_left(self) -> int:
        return self.initial_size - self.picks_made


@dataclass
class Seat:
    position: int
    holder: int | None  # the registration holding it
    pile: list[int] = field(default_factory=list)
    last_pick_at: dt.datetime | None = None
    automatic: bool = False
    ready: bool = False


@dataclass
class Pod:
    seats: list[Seat]
    packs: list[Pack]
    cards: dict[int, Card]
    timer: bool
    deck_building_minutes: int
    grace: dt.timedelta
    state: str = NOT_STARTED
    round: int = 0
    version: int = 0
    queue_seq: int = 0
    review_deadline: dt.datetime | None = None
    deck_building_deadline: dt.datetime | None = None
    finished_at: dt.datetime | None = None
    paused_from: str = ""
    paused_remaining_ms: int | None = None
    picks: list[tuple] = field(default_factory=list)
    log: list[tuple] = field(default_factory=list)  # (at, action, details)

    # --- what the pod looks like -----------------------------------------------------------

    def held(self) -> list[Pack]:
        return sorted((p for p in self.packs if p.holder is not None), key=lambda p: p.queue_seq)

    def head(self, position: int) -> Pack | None:
        return next((p for p in self.held() if p.holder == position), None)

    def _clock(self, at: dt.datetime, cards_left: int) -> dt.datetime | None:
        seconds = pick_seconds(cards_left)
        return at + dt.timedelta(seconds=seconds) if self.timer and seconds is not None else None

    def _log(self, at: dt.datetime, action: str, **details) -> None:
        self.log.append((at, action, details))

    # --- the engine's moves ----------------------------------------------------------------

    def _take(self, seat: Seat, pack: Pack, card: int, kind: str, made_at, at, position=None, actor=False) -> None:
        contents = list(pack.cards)
        if position is None or position >= len(seat.pile):
            seat.pile.append(card)
        else:
            seat.pile.insert(position, card)
        pack.cards.remove(card)
        pack.picks_made += 1
        self.picks.append((seat.position, pack.round, pack.picks_made, card, kind, made_at, tuple(contents), actor))
        seat.last_pick_at = made_at
        if pack.cards_left == 0:
            pack.holder, pack.deadline = None, None
        else:
            neighbour = (seat.position + pass_direction(pack.round)) % len(self.seats)
            first = not any(p.holder == neighbour for p in self.packs if p is not pack)
            self.queue_seq += 1
            pack.holder, pack.queue_seq, pack.arrived_at = neighbour, self.queue_seq, at
            pack.deadline = self._clock(at, pack.cards_left) if first else None
        following = self.head(seat.position)
        if following is not None and following.deadline is None:
            following.deadline = self._clock(at, following.cards_left)
        self.version += 1

    def _automatic_card(self, pack: Pack, seat: Seat) -> int:
        picked = {self.cards[c].card_id: self.cards[c].colors for c in seat.pile}
        candidates = [Candidate(c, self.cards[c].rarity, self.cards[c].colors) for c in pack.cards]
        return choose(candidates, list(picked.values()))[0].key

    def _next_due(self, now, cutoff, own: int | None, own_limit) -> tuple | None:
        due = []
        for pack in self.held():
            limit = own_limit if pack.holder == own else cutoff
            if pack.deadline is not None and pack.deadline <= limit:
                due.append((pack.deadline, pack.id, 0, pack, TIMEOUT))
            if pack.cards_left == 1:
                due.append((pack.arrived_at or now, pack.id, 1, pack, LAST_CARD))
            if self.seats[pack.holder].automatic and self.head(pack.holder) is pack:
                due.append((pack.arrived_at or now, pack.id, 2, pack, AUTOMATIC))
        return min(due, key=lambda d: d[:3]) if due else None

    def begin_round(self, at: dt.datetime) -> None:
        self.round += 1
        self.state, self.review_deadline = DRAFTING, None
        for seat in self.seats:
            seat.ready = False
        for pack in sorted((p for p in self.packs if p.round == self.round), key=lambda p: p.opener):
            self.queue_seq += 1
            pack.holder, pack.queue_seq, pack.arrived_at = pack.opener, self.queue_seq, at
            pack.deadline = self._clock(at, pack.cards_left)
        self._log(at, "round_start", round=self.round)
        self.version += 1

    def settle(self, now, cutoff=None, own: int | None = None, own_limit=None) -> None:
        cutoff = now - self.grace if cutoff is None else cutoff
        while True:
            if self.state == DRAFTING:
                while (due := self._next_due(now, cutoff, own, own_limit)) is not None:
                    at, _, _, pack, kind = due
                    at = min(at, now)
                    seat = self.seats[pack.holder]
                    number = pack.picks_made + 1
                    self._take(seat, pack, self._automatic_card(pack, seat), kind, at, at)
                    if kind != LAST_CARD:
                        self._log(at, "automatic_pick", seat=seat.position, kind=kind, round=pack.round, pick=number)
                if any(p.round == self.round for p in self.held()):
                    return
                ended = max((p[5] for p in self.picks if p[1] == self.round), default=now)
                self._log(ended, "round_end", round=self.round)
                if self.round >= ROUNDS:
                    self.state = DECK_BUILDING
                    self.deck_building_deadline = ended + dt.timedelta(minutes=self.deck_building_minutes)
                    self._log(ended, "deck_building_start")
                else:
                    self.state = REVIEWING
                    seconds = review_seconds(self.round)
                    self.review_deadline = ended + dt.timedelta(seconds=seconds) if self.timer else None
                self.version += 1
            elif self.state == REVIEWING and self.review_deadline is not None and self.review_deadline <= cutoff:
                self.begin_round(self.review_deadline)
            elif self.state == DECK_BUILDING and self.deck_building_deadline <= cutoff:
                self.state, self.finished_at = DONE, self.deck_building_deadline
                self._log(self.deck_building_deadline, "deck_building_over")
                self.version += 1
            else:
                return

    # --- the steps -------------------------------------------------------------------------

    def start(self, now, seed: int) -> None:
        self._log(now, "start", seed=seed)
        self.begin_round(now)
        self.settle(now)

    def pick(self, position, card, pack_id, pile_position, owner, received, now) -> None:
        """A manual pick; what fell due before it was received stays applied when it is refused."""
        seat = self.seats[position]
        if owner is not None and seat.holder != owner:
            raise Refused("not_your_seat")
        if self.state == PAUSED:
            raise Refused("pod_paused")
        received = min(received, now)
        self.settle(received, min(received, now - self.grace), own=position, own_limit=received)
        if self.state != DRAFTING:
            raise Refused("pod_not_drafting")
        head = self.head(position)
        if card in seat.pile:
            raise Refused("already_picked")
        if head is None:
            raise Refused("no_pack")
        if pack_id is not None and pack_id != head.id:
            raise Refused("wrong_pack")
        if card not in head.cards:
            raise Refused("card_not_in_pack")
        self._take(seat, head, card, MANUAL, received, now, pile_position, actor=True)
        self.settle(now)

    def wait(self, now) -> None:
        """Beat's sweep at ``now`` (no grace: ``enforce_deadlines`` as the test calls it)."""
        self.settle(now, now)

    def pause(self, now) -> None:
        self.settle(now)
        if self.state == PAUSED:
            raise Refused("pod_paused")
        if self.state not in ACTIVE:
            raise Refused("pod_not_drafting")
        for pack in self.held():
            if pack.deadline is not None:
                pack.remaining_ms = max(0, int((pack.deadline - now).total_seconds() * 1000))
                pack.deadline = None
        clock = {REVIEWING: self.review_deadline, DECK_BUILDING: self.deck_building_deadline}.get(self.state)
        self.paused_remaining_ms = max(0, int((clock - now).total_seconds() * 1000)) if clock else None
        self.paused_from, self.state = self.state, PAUSED
        self._log(now, "pause")
        self.version += 1

    def resume(self, now) -> None:
        if self.state != PAUSED:
            raise Refused("pod_not_paused")
        for pack in self.held():
            if pack.remaining_ms is not None:
                pack.deadline = now + dt.timedelta(milliseconds=pack.remaining_ms)
                pack.remaining_ms = None
        self.state = self.paused_from or DRAFTING
        if self.paused_remaining_ms is not None:
            deadline = now + dt.timedelta(milliseconds=self.paused_remaining_ms)
            if self.state == REVIEWING:
                self.review_deadline = deadline
            elif self.state == DECK_BUILDING:
                self.deck_building_deadline = deadline
        self.paused_from, self.paused_remaining_ms = "", None
        self._log(now, "resume")
        self.version += 1
        self.settle(now)

    def advance(self, now) -> None:
        self.settle(now)
        if self.state != REVIEWING:
            raise Refused("pod_not_reviewing")
        self._log(now, "advance_round", round=self.round + 1)
        self.begin_round(now)
        self.settle(now)

    def ready(self, position, now) -> None:
        """A player is ready; what fell due first stays applied when it is refused (as a pick)."""
        self.settle(now)
        if self.state != REVIEWING:
            raise Refused("pod_not_reviewing")
        self.seats[position].ready = True
        self.version += 1
        if all(s.ready or s.automatic for s in self.seats):
            self._log(now, "all_ready", round=self.round + 1)
            self.begin_round(now)
            self.settle(now)

    def automatic(self, position, now) -> None:
        if self.state == DONE:
            raise Refused("pod_finished")
        self.seats[position].automatic = True
        self._log(now, "replace_with_automatic", seat=position)
        self.version += 1
        self.settle(now)

    def hand(self, position, registration: int, names: dict[int, str], now) -> None:
        if self.state == DONE:
            raise Refused("pod_finished")
        if any(s.holder == registration and s.position != position for s in self.seats):
            raise Refused("seat_taken")
        seat = self.seats[position]
        previous = names[seat.holder] if seat.holder is not None else None
        seat.holder, seat.automatic = registration, False
        self._log(now, "hand_seat", seat=position, previous=previous, to=names[registration])
        self.version += 1
