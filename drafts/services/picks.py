"""The draft itself: start, pick, pass, clocks, pause/resume, seat replacement.

Every function here locks the pod row first (``lock_pod``) and runs in one transaction, so
two requests racing for the same seat (a double click, two tabs, a timer firing during a
manual pick) are serialised: one wins, the other sees the new state and gets a clean error.

``settle`` is the engine's heartbeat: it applies everything that is due at ``now``, in
time order — expired pick timers (automatic picks), automatic drafters, last cards, round
ends and review/deck-building clocks. Every write and every read of a pod calls it, and so
does a Celery task at each deadline; it is idempotent, so calling it again does nothing.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from functools import cached_property

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cards.models import Card
from drafts import error_codes
from drafts.access import Permission, access_seat, require
from drafts.autopick import Candidate, choose
from drafts.locking import lock_pod
from drafts.models import PILE_COVERS, DraftCard, Pack, Pick, PickKind, Pod, PodAction, PodState, Seat
from drafts.queue import queue_payload, queue_rows
from drafts.services import fastpath
from drafts.services.changes import after_commit, after_commit_version, arrived, grace_cutoff, log_action, touch
from drafts.services.packs import open_packs
from drafts.timing import ROUNDS, pass_direction, pick_seconds, review_seconds
from draftsite.errors import ConflictError, DomainError, ForbiddenError, NotFoundError

ACTIVE_STATES = (PodState.DRAFTING, PodState.REVIEWING, PodState.DECK_BUILDING)


# --- start -----------------------------------------------------------------------------


@transaction.atomic
def start_pod(*, pod_id: int, actor=None, now: dt.datetime | None = None) -> Pod:
    """Open every pack of the pod (from its stored seed) and start round 1."""
    now = now or timezone.now()
    pod = lock_pod(pod_id)
    require(actor, pod.event, Permission.ORGANISER)
    if pod.state != PodState.NOT_STARTED:
        raise ConflictError(error_codes.POD_ALREADY_STARTED, _("This pod has already started."))
    seats = list(pod.seats.order_by("position"))
    if len(seats) < 2:
        raise DomainError(error_codes.TOO_FEW_PLAYERS, _("A pod needs at least two seats to draft."))
    opened = open_packs(pod.event, pod.seed, len(seats))
    for round_number, packs in opened.items():
        pack_rows = Pack.objects.bulk_create(
            Pack(pod=pod, round=round_number, opener=seat, initial_size=len(p.cards), removed=p.removed)
            for seat, p in zip(seats, packs)
        )
        DraftCard.objects.bulk_create(
            DraftCard(
                pod=pod,
                card_id=c.card_id,
                printing_id=c.printing_id,
                opened_in=row,
                pack=row,
                slot=slot,
                is_dfc=c.is_dfc,
                rarity=c.rarity,
                foil=c.foil,
            )
            for row, p in zip(pack_rows, packs)
            for slot, c in enumerate(p.cards)
        )
    pod.started_at = now
    log_action(pod, now, PodAction.START, actor, seed=pod.seed)
    _begin_round(pod, 1, now)
    settle(pod, now)
    pod.save()
    after_commit(pod)
    return pod


def _begin_round(pod: Pod, round_number: int, at: dt.datetime) -> None:
    pod.round = round_number
    pod.state = PodState.DRAFTING
    pod.review_deadline = None
    Seat.objects.filter(pod=pod).update(ready=False)
    for pack in Pack.objects.filter(pod=pod, round=round_number).select_related("opener"):
        pack.holder_id = pack.opener_id
        arrived(pod, pack.opener_id)
        pod.queue_seq += 1
        pack.queue_seq = pod.queue_seq
        pack.arrived_at = at
        pack.deadline = _deadline(pod, pack.cards_left, at)
        pack.save(update_fields=["holder", "queue_seq", "arrived_at", "deadline"])
    log_action(pod, at, PodAction.ROUND_START, round=round_number)
    touch(pod)


def _deadline(pod: Pod, cards_left: int, start: dt.datetime) -> dt.datetime | None:
    seconds = pick_seconds(cards_left)
    if not pod.event.pick_timer or seconds is None:
        return None
    return start + dt.timedelta(seconds=seconds)


# --- picking ---------------------------------------------------------------------------


def _head_pack(seat: Seat) -> Pack | None:
    return Pack.objects.filter(holder=seat).order_by("queue_seq").first()


@dataclass
class PickResult:
    """A committed manual pick and what the picker's next screen needs: no model instances."""

    id: int
    draft_card_id: int
    seat_id: int
    round: int
    pick_number: int
    kind: str
    pod_version: int  # the version live pages hear for this pick (or a later one)
    pod: dict  # the pod's summary fields (``drafts.selectors.pod_summary``)
    queue: list[dict] = field(default_factory=list)  # the picker's queue rows (``drafts.queue``)

    @property
    def pk(self) -> int:
        return self.id

    @cached_property
    def seat(self) -> Seat:
        return Seat.objects.select_related("registration").get(pk=self.seat_id)

    def answer(self, *, with_queue: bool = True) -> dict:
        """The body of a pick's answer, over HTTP and the socket alike (``with_queue=False``:
        without the picker's queue, for pages whose state brings it)."""
        from drafts import selectors

        body = {
            "pick": {
                "id": self.id,
                "card": self.draft_card_id,
                "round": self.round,
                "pick_number": self.pick_number,
                "kind": self.kind,
                "pod_version": self.pod_version,
            },
            "pod": selectors.pod_summary(self.pod),
        }
        if with_queue:
            body["queue"] = queue_payload(self.queue)
        return body


# Why a pick was refused, by code: one wording whichever engine path refused it.
_REFUSALS = {
    error_codes.POD_PAUSED: (ConflictError, gettext_lazy("The draft is paused; picks resume with the pod.")),
    error_codes.POD_NOT_DRAFTING: (ConflictError, gettext_lazy("This pod is not drafting right now.")),
    error_codes.ALREADY_PICKED: (ConflictError, gettext_lazy("You have already picked that card.")),
    error_codes.NO_PACK: (ConflictError, gettext_lazy("No pack is waiting for you; the next one is on its way.")),
    error_codes.WRONG_PACK: (
        ConflictError,
        gettext_lazy("That pack has already moved on; pick from the pack now in front of you."),
    ),
    error_codes.NOT_YOUR_SEAT: (ForbiddenError, gettext_lazy("That is not your seat.")),
    error_codes.UNKNOWN_SEAT: (NotFoundError, gettext_lazy("No such seat.")),
    # Deliberately vague: never confirm where some other card is (R16).
    error_codes.CARD_NOT_IN_PACK: (DomainError, gettext_lazy("That card is not in the pack in front of you.")),
}


def _refusal(code: str) -> DomainError:
    if code == error_codes.INVALID_POSITION:
        return DomainError(code, _(_("A pile position is 0 or more.")), field="position")
    error_class, message = _REFUSALS.get(code, _REFUSALS[error_codes.CARD_NOT_IN_PACK])
    return error_class(code if code in _REFUSALS else error_codes.CARD_NOT_IN_PACK, str(message))


@dataclass(frozen=True)
class PickOrder:
    """One manual pick as every transport asks for it (HTTP, the seat socket awaited or in a
    thread, the no-script page): the same arguments into the engine, whichever path runs it."""

    seat_id: int
    draft_card_id: int
    pack_id: int | None
    position: int | None
    actor_id: int | None
    owner_id: int | None  # the user who must hold the seat when the pick runs (in the pod's lock)
    received_at: dt.datetime  # when the server received the pick: the timer rule counts it here
    now: dt.datetime

    @classmethod
    def of(
        cls,
        *,
        seat_id: int,
        draft_card_id: int,
        actor=None,
        owner=None,
        position: int | None = None,
        pack_id: int | None = None,
        now: dt.datetime | None = None,
        received_at: dt.datetime | None = None,
    ) -> PickOrder:
        """``actor`` and ``owner`` are users or their ids; a pick is never received after ``now``."""
        now = now or timezone.now()
        if position is not None and position < 0:
            raise _refusal(error_codes.INVALID_POSITION)
        return cls(
            seat_id=seat_id,
            draft_card_id=draft_card_id,
            pack_id=pack_id,
            position=position,
            actor_id=getattr(actor, "pk", actor),
            owner_id=getattr(owner, "pk", owner),
            received_at=min(received_at or now, now),
            now=now,
        )

    def function_arguments(self) -> dict:
        """The arguments of ``drafts_pick`` (``fastpath.call`` and ``fastpath.acall``)."""
        return {
            "seat_id": self.seat_id,
            "draft_card_id": self.draft_card_id,
            "pack_id": self.pack_id,
            "position": self.position,
            "actor_id": self.actor_id,
            "owner_id": self.owner_id,
            "received_at": self.received_at,
            "now": self.now,
            "cutoff": grace_cutoff(self.now),
        }


@dataclass
class _Reading:
    """``drafts_pick``'s answer, read once for both the sync and the awaited path."""

    notice: tuple[int, int, dict[int, list]] | None  # pod id, version, arrivals: what pages are told
    result: PickResult | None = None  # the pick was made
    refusal: DomainError | None = None  # the pick was refused
    settle: bool = False  # after the pick, a review or deck-building clock is due (the reference applies it)

    @property
    def fallback(self) -> bool:
        """The reference engine must make the whole pick (the function changed nothing of it)."""
        return self.result is None and self.refusal is None


def _read(answer: dict, order: PickOrder) -> _Reading:
    arrivals = fastpath.arrivals(answer)
    if answer["status"] == "ok":
        result = _result_of(answer, order.seat_id)
        return _Reading((result.pod["id"], result.pod_version, arrivals), result=result, settle=bool(answer["settle"]))
    # What fell due before the pick was received is committed even when the pick is not.
    notice = (answer["pod_id"], answer["version"], arrivals) if answer.get("changed") else None
    refusal = _refusal(answer["code"]) if answer["status"] == "refused" else None
    return _Reading(notice, refusal=refusal)


def make_pick(
    *,
    seat_id: int,
    draft_card_id: int,
    actor=None,
    owner=None,
    position: int | None = None,
    pack_id: int | None = None,
    now: dt.datetime | None = None,
    received_at: dt.datetime | None = None,
) -> PickResult:
    """A player picks a card from the first pack in their queue and passes the pack.

    ``pack_id``, when given, is the pack the player was looking at: if that pack has moved
    on (a double click, a second tab, the timer) the pick is refused with 409 instead of
    landing on the next pack. ``position`` places the card in the pile (R17; default: the
    end). ``owner``, when given, is the user who must hold the seat at the moment of the
    pick (a socket authenticated before the seat was handed over picks no more).

    Timers are fair under load: ``received_at`` is when the server received the pick, and a
    pick received before its pack's deadline is never replaced by a timeout pick, however
    long it then waits for the database. Whatever fell due before that moment (a timer that
    ran out) is committed even when the pick itself is refused, so the player sees why.

    Every transport gives the same arguments (``PickOrder``). On PostgreSQL the whole pick is
    one call of ``drafts_pick`` (``fastpath``); elsewhere, or when that function answers
    ``fallback``, the reference engine below does it. Both give the same state.
    """
    order = PickOrder.of(
        seat_id=seat_id,
        draft_card_id=draft_card_id,
        actor=actor,
        owner=owner,
        position=position,
        pack_id=pack_id,
        now=now,
        received_at=received_at,
    )
    if fastpath.enabled():
        # One statement, committed on its own (one round trip) unless the caller holds a
        # transaction. No deadline check is booked: beat's sweep (every DEADLINE_SWEEP_SECONDS)
        # enforces every clock, so a pick costs no broker round trip.
        reading = _read(fastpath.call(**order.function_arguments()), order)
        if reading.notice is not None:
            after_commit_version(*reading.notice)
        if reading.refusal is not None:
            raise reading.refusal
        if reading.result is not None:
            if reading.settle:
                _settle_after(reading.result, order.now)
            return reading.result
    return _reference(order)


def _reference(order: PickOrder) -> PickResult:
    """The whole pick by the reference engine, in one transaction (never ``drafts_pick`` again)."""
    with transaction.atomic():
        result, refusal = _reference_pick(order)
    if refusal is not None:
        raise refusal
    assert result is not None  # a pick is made or refused
    return result


def _result_of(answer: dict, seat_id: int) -> PickResult:
    pick, pod_fields = answer["pick"], answer["pod"]
    return PickResult(
        id=pick["id"],
        draft_card_id=pick["card"],
        seat_id=seat_id,
        round=pick["round"],
        pick_number=pick["pick_number"],
        kind=pick["kind"],
        pod_version=pod_fields["version"],
        pod=pod_fields,
        queue=answer["queue"],
    )


def _settle_after(result: PickResult, now: dt.datetime) -> None:
    """The pick ended a round whose review (or deck building) is already over, which only the
    reference engine applies: it settles that right after, as any read would, and the answer
    shows the result."""
    enforce_deadlines(pod_id=result.pod["id"], now=now, grace=True)
    pod = Pod.objects.select_related("event").get(pk=result.pod["id"])
    result.pod, result.queue = _pod_fields(pod), queue_rows(result.seat_id)


async def amake_pick(
    *,
    pod_id: int | None = None,
    seat_id: int,
    draft_card_id: int,
    actor_id: int | None,
    owner_id: int | None,
    position: int | None,
    pack_id: int | None,
    received_at: dt.datetime,
    with_queue: bool = True,
) -> dict:
    """``make_pick`` from an event loop (the seat socket): the same order, the same database
    function, the same reading of its answer, awaited without a thread; on ``fallback`` the
    reference engine runs off the loop (the function is not called a second time). Returns the
    answer's body. ``pod_id`` (the seat's pod, which the socket knows) lines the call up behind
    the pod's other picks in this process."""
    order = PickOrder.of(
        seat_id=seat_id,
        draft_card_id=draft_card_id,
        actor=actor_id,
        owner=owner_id,
        position=position,
        pack_id=pack_id,
        received_at=received_at,
    )
    from drafts import live, state

    # The live pages' document in the same round trip, when some page may follow the pod.
    then = (state.DOCUMENT_SQL, state.document_params(pod_id)) if pod_id and live.wants_document(pod_id) else None
    answer, rows = await fastpath.acall(pod_id=pod_id, then=then, **order.function_arguments())
    reading = _read(answer, order)
    result = reading.result
    if reading.notice is not None:
        document = state.from_rows(rows) if rows is not None else None
        await _apublish(*reading.notice, *([result.queue] if result is not None else []), document=document)
    if reading.refusal is not None:
        raise reading.refusal
    if result is None:
        return await _off_the_loop(lambda: _reference(order).answer(with_queue=with_queue))
    if reading.settle:
        await _off_the_loop(lambda: _settle_after(result, order.now))
    return result.answer(with_queue=with_queue)


async def _apublish(pod_id: int, version: int, arrivals: dict[int, list], *queues: list, document=None) -> None:
    """Tell live pages of a committed change from the event loop (``live.pod_messages``);
    ``document``: the pod as the change left it, read in the same round trip."""
    from drafts import cardinfo, live

    rows = [card for queue in (*queues, *arrivals.values()) for pack in queue for card in pack["cards"]]
    if cardinfo.missing(rows):  # a card this process has not shown yet: read it off the loop
        await _off_the_loop(lambda: cardinfo.payloads(rows))
    await live.anotify_pod(pod_id, version, arrivals, document=document)


async def _off_the_loop(work):
    """Run Django ORM work on an executor thread and give its connection back to the pool
    afterwards (a thread that kept it would starve the process's requests)."""
    from asgiref.sync import sync_to_async
    from django.db import close_old_connections

    def run():
        try:
            return work()
        finally:
            close_old_connections()

    return await sync_to_async(run, thread_sensitive=False)()


def _reference_pick(order: PickOrder) -> tuple[PickResult | None, DomainError | None]:
    seat_id, draft_card_id, actor_id, owner_id = order.seat_id, order.draft_card_id, order.actor_id, order.owner_id
    position, pack_id, received_at, now = order.position, order.pack_id, order.received_at, order.now
    seat = Seat.objects.select_related("registration").filter(pk=seat_id).first()
    if seat is None:
        return None, _refusal(error_codes.UNKNOWN_SEAT)
    pod = lock_pod(seat.pod_id)
    seat.refresh_from_db(fields=["registration"])
    if owner_id is not None and (seat.registration is None or seat.registration.user_id != owner_id):
        return None, _refusal(error_codes.NOT_YOUR_SEAT)
    pod._arrivals = {}
    others = grace_cutoff(now)
    settled = settle(pod, received_at, min(received_at, others), own=(seat.pk, received_at))
    card = _requested_card(pod, draft_card_id)
    code = _refusal_code(pod, seat, card, _head_of(seat.pk, settled.held), pack_id)
    refusal = None if code is None else _refusal(code)
    result = None
    if refusal is None:
        pick = _take(
            pod, seat, card.pack, card, PickKind.MANUAL, now, actor_id=actor_id, position=position, made_at=received_at
        )
        settle(pod, now, others)
        result = PickResult(
            id=pick.pk,
            draft_card_id=card.pk,
            seat_id=seat.pk,
            round=pick.round,
            pick_number=pick.pick_number,
            kind=pick.kind,
            pod_version=pod.version,
            pod={},
            queue=[],
        )
    if result is not None or settled.changed:
        pod.save()
        after_commit(pod)
    if result is not None:
        result.pod, result.queue = _pod_fields(pod), queue_rows(seat.pk)
    return result, refusal


def _pod_fields(pod: Pod) -> dict:
    """The pod's summary fields as the fast path returns them."""
    return {
        "id": pod.pk,
        "event_id": pod.event_id,
        "number": pod.number,
        "state": pod.state,
        "paused_from": pod.paused_from,
        "round": pod.round,
        "review_deadline": pod.review_deadline,
        "deck_building_deadline": pod.deck_building_deadline,
        "paused_remaining_ms": pod.paused_remaining_ms,
        "pick_timer": pod.event.pick_timer,
        "version": pod.version,
    }


def _requested_card(pod: Pod, draft_card_id: int) -> DraftCard | None:
    """The card a pick asks for, wherever it is in the pod (only while the pod drafts)."""
    if pod.state != PodState.DRAFTING:
        return None
    return DraftCard.objects.filter(pk=draft_card_id, pod=pod).first()


def _refusal_code(pod: Pod, seat: Seat, card: DraftCard | None, head: Pack | None, pack_id: int | None) -> str | None:
    """Why this pick cannot be made, if it cannot (the checks ``drafts_pick`` makes too)."""
    if pod.state == PodState.PAUSED:
        return error_codes.POD_PAUSED
    if pod.state != PodState.DRAFTING:
        return error_codes.POD_NOT_DRAFTING
    if card is not None and card.seat_id == seat.pk:
        return error_codes.ALREADY_PICKED
    if head is None:
        return error_codes.NO_PACK
    if pack_id is not None and pack_id != head.pk:
        return error_codes.WRONG_PACK
    if card is None or card.pack_id != head.pk:
        return error_codes.CARD_NOT_IN_PACK
    return None


def _take(
    pod: Pod,
    seat: Seat,
    pack: Pack,
    card: DraftCard,
    kind: str,
    at: dt.datetime,
    actor_id: int | None = None,
    position: int | None = None,
    made_at: dt.datetime | None = None,
) -> Pick:
    """Move ``card`` from ``pack`` into ``seat``'s pile and pass the pack on (``drafts_take``).

    ``made_at`` is when the pick was made (a manual pick: when the server received it);
    ``at`` is when the pack moves on, which starts the next clocks.
    """
    made_at = made_at or at
    contents = list(DraftCard.objects.filter(pack=pack).order_by("slot", "pk").values_list("pk", flat=True))
    pile_size = DraftCard.objects.filter(seat=seat).count()
    if position is None or position >= pile_size:
        position = pile_size
    elif position < 0:
        raise DomainError(error_codes.INVALID_POSITION, _("A pile position is 0 or more."))
    else:
        DraftCard.objects.filter(seat=seat, pile_position__gte=position).update(pile_position=F("pile_position") + 1)
    pick_number = pack.picks_made + 1
    card.pack = None
    card.seat = seat
    card.pile_position = position
    card.save(update_fields=["pack", "seat", "pile_position"])
    pick = Pick.objects.create(
        seat=seat,
        draft_card=card,
        pack=pack,
        round=pack.round,
        pick_number=pick_number,
        kind=kind,
        made_by_id=actor_id,
        made_at=made_at,
        pack_contents=contents,
    )
    seat.last_pick_at = made_at
    seat.save(update_fields=["last_pick_at"])
    if kind in (PickKind.TIMEOUT, PickKind.AUTOMATIC_DRAFTER):
        log_action(pod, at, PodAction.AUTOMATIC_PICK, seat=seat.position, kind=kind, round=pack.round, pick=pick_number)
    pack.picks_made += 1
    _pass_on(pod, seat, pack, at)
    # The seat's next pack (if one is queued) starts its clock now.
    following = _head_pack(seat)
    if following is not None and following.deadline is None:
        following.deadline = _deadline(pod, following.cards_left, at)
        following.save(update_fields=["deadline"])
    touch(pod)
    return pick


def _seat_ids(pod: Pod) -> list[int]:
    """Seat ids by position, loaded once per transaction (positions never change once started)."""
    if getattr(pod, "_seat_ids", None) is None:
        pod._seat_ids = list(Seat.objects.filter(pod=pod).order_by("position").values_list("pk", flat=True))
    return pod._seat_ids


def _pass_on(pod: Pod, seat: Seat, pack: Pack, at: dt.datetime) -> None:
    if pack.cards_left == 0:
        pack.holder = None
        pack.deadline = None
        pack.save(update_fields=["holder", "deadline", "picks_made"])
        return
    seat_ids = _seat_ids(pod)
    neighbour = Seat(pk=seat_ids[(seat.position + pass_direction(pack.round)) % len(seat_ids)])
    pod.queue_seq += 1
    pack.holder = neighbour
    pack.queue_seq = pod.queue_seq
    pack.arrived_at = at
    first_in_queue = not Pack.objects.filter(holder=neighbour).exclude(pk=pack.pk).exists()
    pack.deadline = _deadline(pod, pack.cards_left, at) if first_in_queue else None
    pack.save(update_fields=["holder", "queue_seq", "arrived_at", "deadline", "picks_made"])
    if first_in_queue and pack.cards_left > 1:
        arrived(pod, neighbour.pk)


# --- the heartbeat ---------------------------------------------------------------------


def _automatic_choice(pack: Pack, seat: Seat) -> DraftCard:
    cards = list(DraftCard.objects.filter(pack=pack).order_by("slot"))
    identities = dict(Card.objects.filter(pk__in={c.card_id for c in cards}).values_list("pk", "color_identity"))
    picked = list(
        Card.objects.filter(pk__in=DraftCard.objects.filter(seat=seat).values("card_id")).values_list(
            "color_identity", flat=True
        )
    )
    candidates = [Candidate(c.pk, c.rarity, identities.get(c.card_id, "")) for c in cards]
    best, _reason = choose(candidates, picked)
    return next(c for c in cards if c.pk == best.key)


def _held_packs(pod: Pod) -> list[Pack]:
    """Every pack now in a seat's queue, with its holder: the pod's whole live state in one query."""
    return list(Pack.objects.filter(pod=pod, holder__isnull=False).select_related("holder").order_by("queue_seq"))


def _head_of(seat_id: int, held: list[Pack]) -> Pack | None:
    return next((p for p in held if p.holder_id == seat_id), None)  # held is in queue order


def _next_due(
    pod: Pod,
    now: dt.datetime,
    held: list[Pack],
    cutoff: dt.datetime | None = None,
    own: tuple[int, dt.datetime] | None = None,
) -> tuple[dt.datetime, Pack, str] | None:
    """The earliest thing the engine must do by ``now`` while drafting, if any (clocks that
    ran out by ``cutoff``, default ``now``; for the seat ``own[0]``, by ``own[1]``)."""
    cutoff = cutoff or now
    due: list[tuple[dt.datetime, int, Pack, str]] = []
    for pack in held:
        limit = own[1] if own is not None and pack.holder_id == own[0] else cutoff
        if pack.deadline is not None and pack.deadline <= limit:
            due.append((pack.deadline, pack.pk, pack, PickKind.TIMEOUT))
        if pack.cards_left == 1:
            due.append((pack.arrived_at or now, pack.pk, pack, PickKind.LAST_CARD))
        if pack.holder.is_automatic and _head_of(pack.holder_id, held) is pack:
            due.append((pack.arrived_at or now, pack.pk, pack, PickKind.AUTOMATIC_DRAFTER))
    if not due:
        return None
    at, _, pack, kind = min(due, key=lambda item: (item[0], item[1]))
    return min(at, now), pack, kind


@dataclass
class Settled:
    """What ``settle`` did: whether anything changed, and the packs in seats' queues after it."""

    changed: bool
    held: list[Pack]


def settle(
    pod: Pod, now: dt.datetime, cutoff: dt.datetime | None = None, own: tuple[int, dt.datetime] | None = None
) -> Settled:
    """Apply everything due by ``now``, in time order; returns what changed and what is held.

    Clocks count as run out when their deadline is at or before ``cutoff``: by default ``now``
    less the grace period, since a player's pick may be on its way (organiser controls settle
    like the enforcers: a pause one second after a deadline does not take the timeout pick
    that a sweep would still wait for); the picking seat's own clock (``own``: seat id, when
    the server received the pick) by that moment. ``held`` (the packs in queues, as of the
    end) is what a pick checks itself against.
    """
    cutoff = cutoff or grace_cutoff(now)
    changed = False
    held: list[Pack] = []
    for _step in range(10_000):  # bounded: a whole 8-seat draft is 360 picks
        if pod.state == PodState.DRAFTING:
            held = _held_packs(pod)
            due = _next_due(pod, now, held, cutoff, own)
            if due is not None:
                at, pack, kind = due
                seat = pack.holder
                card = _automatic_choice(pack, seat)
                _take(pod, seat, pack, card, kind, at)
                changed = True
                continue
            if not any(p.round == pod.round for p in held):
                _end_round(pod, now)
                changed = True
                continue
        elif pod.state == PodState.REVIEWING and pod.review_deadline and pod.review_deadline <= cutoff:
            _begin_round(pod, pod.round + 1, pod.review_deadline)
            changed = True
            continue
        elif (
            pod.state == PodState.DECK_BUILDING and pod.deck_building_deadline and pod.deck_building_deadline <= cutoff
        ):
            pod.state = PodState.DONE
            pod.finished_at = pod.deck_building_deadline
            log_action(pod, pod.deck_building_deadline, PodAction.DECK_BUILDING_OVER)
            touch(pod)
            changed = True
            continue
        break
    return Settled(changed, held)


def _end_round(pod: Pod, now: dt.datetime) -> None:
    last = (
        Pick.objects.filter(pack__pod=pod, round=pod.round)
        .order_by("-made_at")
        .values_list("made_at", flat=True)
        .first()
    ) or now
    log_action(pod, last, PodAction.ROUND_END, round=pod.round)
    if pod.round >= ROUNDS:
        pod.state = PodState.DECK_BUILDING
        pod.deck_building_deadline = last + dt.timedelta(minutes=pod.event.deck_building_minutes)
        log_action(pod, last, PodAction.DECK_BUILDING_START)
    else:
        pod.state = PodState.REVIEWING
        seconds = review_seconds(pod.round)
        pod.review_deadline = last + dt.timedelta(seconds=seconds) if pod.event.pick_timer else None
    touch(pod)


@transaction.atomic
def enforce_deadlines(*, pod_id: int, now: dt.datetime | None = None, grace: bool = False) -> bool:
    """Apply whatever is due (idempotent): called by the Celery tasks and before reads.

    ``grace``: count a clock as run out only ``PICK_TIMER_GRACE_SECONDS`` after its deadline,
    so that a pick the server received in time, still waiting for the pod, is served first.
    """
    now = now or timezone.now()
    cutoff = grace_cutoff(now) if grace else now
    settled = False  # by the database function
    if fastpath.enabled():
        # One statement does what is due while the pod drafts (``drafts_settle``); the
        # reference below only starts a round or ends deck building, when one is due.
        answer = fastpath.settle(pod_id=pod_id, now=now, cutoff=cutoff)
        if answer["status"] == "ok":
            settled = answer["changed"]
            if settled:
                after_commit_version(pod_id, answer["version"], fastpath.arrivals(answer))
            if not answer["pending"]:
                return settled
    pod = lock_pod(pod_id)
    if pod.state not in ACTIVE_STATES:
        return settled
    changed = settle(pod, now, cutoff).changed
    if changed:
        pod.save()
        after_commit(pod)
    return settled or changed


def fresh_pod(pod_id: int, now: dt.datetime | None = None) -> Pod | None:
    """The pod with every deadline already past enforced first (reads never see stale clocks):
    pages and the API call this before they read a pod.

    At the real time (no ``now``) clocks get the enforcers' grace period, so a read never
    takes a pick away from a player whose pick the server received in time.
    """
    grace = now is None
    now = now or timezone.now()
    pod = Pod.objects.select_related("event").filter(pk=pod_id).first()
    if pod is None:
        return None
    due = next_due_at(pod)
    cutoff = grace_cutoff(now) if grace else now
    if due is not None and due <= cutoff:
        enforce_deadlines(pod_id=pod_id, now=now, grace=grace)
        pod = Pod.objects.select_related("event").get(pk=pod_id)
    return pod


def fresh_event_pods(event, now: dt.datetime | None = None) -> list[Pod]:
    """``fresh_pod`` of every pod of the event, by number."""
    pods = (fresh_pod(pod_id, now) for pod_id in event.pods.order_by("number").values_list("pk", flat=True))
    return [pod for pod in pods if pod is not None]


def next_due_at(pod: Pod) -> dt.datetime | None:
    """When the engine next has something to do on its own (for the scheduler and reads)."""
    if pod.event.draft_format == "paper":  # called by the paper app: nothing for this engine
        return None
    if pod.state == PodState.REVIEWING:
        return pod.review_deadline
    if pod.state == PodState.DECK_BUILDING:
        return pod.deck_building_deadline
    if pod.state != PodState.DRAFTING:
        return None
    held = _held_packs(pod)
    if not any(p.round == pod.round for p in held):
        return pod.started_at or timezone.now()  # a round end is pending
    soonest = _next_due(pod, dt.datetime.max.replace(tzinfo=dt.UTC), held)
    return soonest[0] if soonest else None


# --- organiser controls ----------------------------------------------------------------


@transaction.atomic
def pause_pod(*, pod_id: int, actor=None, now: dt.datetime | None = None) -> Pod:
    """Freeze every clock of the pod with the time that was left on it."""
    now = now or timezone.now()
    pod = lock_pod(pod_id)
    require(actor, pod.event, Permission.ORGANISER)
    settle(pod, now)
    if pod.state == PodState.PAUSED:
        raise ConflictError(error_codes.POD_PAUSED, _("The pod is already paused."))
    if pod.state not in ACTIVE_STATES:
        raise ConflictError(error_codes.POD_NOT_DRAFTING, _("Only a running pod can be paused."))
    for pack in Pack.objects.filter(pod=pod, holder__isnull=False).exclude(deadline=None):
        pack.remaining_ms = max(0, int((pack.deadline - now).total_seconds() * 1000))
        pack.deadline = None
        pack.save(update_fields=["remaining_ms", "deadline"])
    clock = (
        pod.review_deadline
        if pod.state == PodState.REVIEWING
        else (pod.deck_building_deadline if pod.state == PodState.DECK_BUILDING else None)
    )
    pod.paused_remaining_ms = max(0, int((clock - now).total_seconds() * 1000)) if clock else None
    pod.paused_from = pod.state
    pod.state = PodState.PAUSED
    log_action(pod, now, PodAction.PAUSE, actor)
    touch(pod)
    pod.save()
    after_commit(pod)
    return pod


@transaction.atomic
def resume_pod(*, pod_id: int, actor=None, now: dt.datetime | None = None) -> Pod:
    """Restart every clock with exactly the time it had left when paused."""
    now = now or timezone.now()
    pod = lock_pod(pod_id)
    require(actor, pod.event, Permission.ORGANISER)
    if pod.state != PodState.PAUSED:
        raise ConflictError(error_codes.POD_NOT_PAUSED, _("The pod is not paused."))
    for pack in Pack.objects.filter(pod=pod, holder__isnull=False).exclude(remaining_ms=None):
        pack.deadline = now + dt.timedelta(milliseconds=pack.remaining_ms)
        pack.remaining_ms = None
        pack.save(update_fields=["remaining_ms", "deadline"])
    pod.state = pod.paused_from or PodState.DRAFTING
    if pod.paused_remaining_ms is not None:
        deadline = now + dt.timedelta(milliseconds=pod.paused_remaining_ms)
        if pod.state == PodState.REVIEWING:
            pod.review_deadline = deadline
        elif pod.state == PodState.DECK_BUILDING:
            pod.deck_building_deadline = deadline
    pod.paused_from = ""
    pod.paused_remaining_ms = None
    log_action(pod, now, PodAction.RESUME, actor)
    touch(pod)
    settle(pod, now)
    pod.save()
    after_commit(pod)
    return pod


def _start_next_round(pod: Pod, now: dt.datetime) -> None:
    _begin_round(pod, pod.round + 1, now)
    settle(pod, now)


@transaction.atomic
def advance_round(*, pod_id: int, actor=None, now: dt.datetime | None = None) -> Pod:
    """End the review between rounds early and open the next packs."""
    now = now or timezone.now()
    pod = lock_pod(pod_id)
    require(actor, pod.event, Permission.ORGANISER)
    settle(pod, now)
    if pod.state != PodState.REVIEWING:
        raise ConflictError(error_codes.POD_NOT_REVIEWING, _("The pod is not between rounds."))
    log_action(pod, now, PodAction.ADVANCE_ROUND, actor, round=pod.round + 1)
    _start_next_round(pod, now)
    pod.save()
    after_commit(pod)
    return pod


@transaction.atomic
def mark_ready(*, seat_id: int, actor=None, now: dt.datetime | None = None) -> Seat:
    """A player is done reviewing; when every player is, the next round starts."""
    now = now or timezone.now()
    seat = access_seat(seat_id, actor, permission=Permission.SEAT_OWNER)
    pod = lock_pod(seat.pod_id)
    settle(pod, now)
    if pod.state != PodState.REVIEWING:
        raise ConflictError(error_codes.POD_NOT_REVIEWING, _("The pod is not between rounds."))
    Seat.objects.filter(pk=seat.pk).update(ready=True)
    waiting = Seat.objects.filter(pod=pod, ready=False, is_automatic=False).exists()
    if not waiting:
        log_action(pod, now, PodAction.ALL_READY, round=pod.round + 1)
        _start_next_round(pod, now)
    touch(pod)
    pod.save()
    after_commit(pod)
    seat.refresh_from_db()
    return seat


def _refuse_if_finished(pod: Pod) -> None:
    """A finished pod's seats and pools belong to their players: no hand-over, no robot."""
    if pod.state == PodState.DONE:
        raise ConflictError(error_codes.POD_FINISHED, _("This pod has finished; its seats can no longer change."))


@transaction.atomic
def replace_with_automatic(*, seat_id: int, actor=None, now: dt.datetime | None = None) -> Seat:
    """A player left: an automatic drafter takes the seat and its pile stays."""
    now = now or timezone.now()
    seat = access_seat(seat_id, actor, permission=Permission.ORGANISER)
    pod = lock_pod(seat.pod_id)
    _refuse_if_finished(pod)
    seat.is_automatic = True
    seat.save(update_fields=["is_automatic"])
    log_action(pod, now, PodAction.REPLACE_WITH_AUTOMATIC, actor, seat=seat.position)
    touch(pod)
    settle(pod, now)
    pod.save()
    after_commit(pod)
    return seat


@transaction.atomic
def hand_seat(*, seat_id: int, registration_id: int, actor=None, now: dt.datetime | None = None) -> Seat:
    """Give a seat, its queue and its pile, to another registered player."""
    from drafts.models import Registration

    now = now or timezone.now()
    seat = access_seat(seat_id, actor, permission=Permission.ORGANISER)
    pod = lock_pod(seat.pod_id)
    _refuse_if_finished(pod)
    registration = Registration.objects.filter(pk=registration_id, event_id=pod.event_id).first()
    if registration is None:
        raise DomainError(error_codes.NOT_REGISTERED, _("That player is not registered for this event."))
    if Seat.objects.filter(registration=registration).exclude(pk=seat.pk).exists():
        raise ConflictError(error_codes.SEAT_TAKEN, _("That player already has a seat."))
    previous = seat.registration.name if seat.registration_id else None
    seat.registration = registration
    seat.is_automatic = False
    seat.save(update_fields=["registration", "is_automatic"])
    log_action(pod, now, PodAction.HAND_SEAT, actor, seat=seat.position, previous=previous, to=registration.name)
    touch(pod)
    pod.save()
    after_commit(pod)
    return seat


# --- the pile (R17) --------------------------------------------------------------------


@transaction.atomic
def move_pile_card(*, seat_id: int, draft_card_id: int, position: int, actor=None) -> DraftCard:
    """R17: a player may reorder their pile at any time."""
    seat = access_seat(seat_id, actor, permission=Permission.SEAT_OWNER)
    pod = lock_pod(seat.pod_id)
    card = DraftCard.objects.filter(pk=draft_card_id, seat=seat).first()
    if card is None:
        raise DomainError(error_codes.CARD_NOT_IN_PILE, _("That card is not in your pile."))
    size = DraftCard.objects.filter(seat=seat).count()
    if position < 0 or position >= size:
        raise DomainError(
            error_codes.INVALID_POSITION, _("Pile positions run from 0 to %(last)s.") % {"last": size - 1}
        )
    old = card.pile_position
    if position < old:
        DraftCard.objects.filter(seat=seat, pile_position__gte=position, pile_position__lt=old).update(
            pile_position=F("pile_position") + 1
        )
    elif position > old:
        DraftCard.objects.filter(seat=seat, pile_position__gt=old, pile_position__lte=position).update(
            pile_position=F("pile_position") - 1
        )
    card.pile_position = position
    card.save(update_fields=["pile_position"])
    touch(pod)
    pod.save(update_fields=["version"])
    after_commit(pod)  # the board shows piles' DFCs in order: other seats must refresh
    return card


@transaction.atomic
def set_pile_cover(*, seat_id: int, cover: str, actor=None) -> Seat:
    """R17: start the pile with a basic land or checklist card, DFCs beneath it."""
    if cover not in PILE_COVERS:
        raise DomainError(
            error_codes.INVALID_PILE_COVER,
            _("The pile can start with nothing, a basic land or a checklist card."),
            field="cover",
        )
    seat = access_seat(seat_id, actor, permission=Permission.SEAT_OWNER)
    pod = lock_pod(seat.pod_id)
    seat.pile_cover = cover
    seat.save(update_fields=["pile_cover"])
    touch(pod)  # the cover shows on the open board
    pod.save(update_fields=["version"])
    after_commit(pod)
    return seat
