"""The draft itself: start, pick, pass, clocks, pause/resume, seat replacement.

Every function here locks the pod row first (``lock_pod``) and runs in one transaction, so
two requests racing for the same seat (a double click, two tabs, a timer firing during a
manual pick) are serialised: one wins, the other sees the new state and gets a clean error.

The engine's rules run in the database, each written once (``drafts/sql``): a pick is one
call of ``drafts_pick``; ``drafts_settle_pod`` is the heartbeat that applies everything due at
``now`` in time order: expired pick timers (automatic picks), automatic drafters, last cards,
round ends, review and deck-building clocks. Each organiser's control (start, pause, resume,
advance, hand-over) and a pile move is one stored function too, which settles first and then
changes what only it changes; Python opens the packs, checks the arguments, and builds the
order and reads the answer through the one pod-write path (``drafts.services.changes``). Every
read of a pod and beat's sweep settle too; settling is idempotent.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from functools import cached_property

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from drafts import error_codes, extensions, presence
from drafts.access import access_seat
from drafts.locking import lock_pod
from drafts.models import ACTIVE_STATES, PILE_COVERS, DraftCard, Pack, Pod, PodState, Seat
from drafts.queue import queue_payload
from drafts.services import fastpath
from drafts.services.changes import after_commit_version, control, grace_cutoff, locked, write
from drafts.services.packs import open_packs
from draftsite.errors import ConflictError, DomainError, ForbiddenError, NotFoundError
from events.access import SYSTEM, Permission, access_event
from events.models import DraftFormat

# --- start -----------------------------------------------------------------------------


@transaction.atomic
def start_pod(*, pod_id: int, actor, now: dt.datetime | None = None) -> Pod:
    """Open every pack of the pod (from its stored seed) and start round 1."""
    now = now or timezone.now()
    pod = locked(pod_id, actor)
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
                slot=slot,
                pack_slot=c.slot,
                is_dfc=c.is_dfc,
                rarity=c.rarity,
                foil=c.foil,
            )
            for row, p in zip(pack_rows, packs)
            for slot, c in enumerate(p.cards)
        )
    # The packs list their cards, the log names the seed, round 1 opens (``drafts_start``).
    pod = control(pod, "drafts_start", actor=actor, now=now, refusal=_control_refusal)
    extensions.notice_on_commit(extensions.DRAFT_START, pod.pk)
    return pod


# --- picking ---------------------------------------------------------------------------


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


def _actor_id(actor) -> int | None:
    """Who picks, as ``drafts_pick`` takes it: a user's id, or NULL for ``SYSTEM``. Nobody
    (``None``) and anonymous users get the refusal of a pick from someone else's seat."""
    if actor is SYSTEM:
        return None
    if isinstance(actor, int) and not isinstance(actor, bool):
        return actor
    if actor is None or not getattr(actor, "is_authenticated", False):
        raise _refusal(error_codes.NOT_YOUR_SEAT)
    return actor.pk


@dataclass(frozen=True)
class PickOrder:
    """One manual pick as every transport asks for it (HTTP, the seat socket awaited or in a
    thread, the no-script page): the same arguments into the engine, whichever path runs it
    (``make_pick`` here, ``drafts.aio.amake_pick`` on an event loop)."""

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
        actor,
        owner=None,
        position: int | None = None,
        pack_id: int | None = None,
        now: dt.datetime | None = None,
        received_at: dt.datetime | None = None,
    ) -> PickOrder:
        """``actor`` is a user, a user's id or ``SYSTEM`` (a NULL actor in ``drafts_pick``: the
        trusted system); ``None`` and anonymous users are refused as a pick from someone else's
        seat. ``owner`` is a user or their id. A pick is never received after ``now``."""
        now = now or timezone.now()
        if position is not None and position < 0:
            raise _refusal(error_codes.INVALID_POSITION)
        return cls(
            seat_id=seat_id,
            draft_card_id=draft_card_id,
            pack_id=pack_id,
            position=position,
            actor_id=_actor_id(actor),
            owner_id=getattr(owner, "pk", owner),
            received_at=min(received_at or now, now),
            now=now,
        )

    def function_arguments(self) -> dict:
        """The arguments of ``drafts_pick`` (``fastpath.call``, and ``drafts.aio.acall`` on a loop)."""
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
class Reading:
    """``drafts_pick``'s answer, read once for every path (here, and awaited in ``drafts.aio``)."""

    notice: tuple[int, int, dict[int, list]] | None  # pod id, version, arrivals: what pages are told
    result: PickResult | None = None  # the pick was made
    refusal: DomainError | None = None  # the pick was refused


def read_answer(answer: dict, order: PickOrder) -> Reading:
    """What ``drafts_pick`` answered to ``order``: the pick made, or refused with the error its
    code means, and what live pages must hear either way."""
    arrivals = fastpath.arrivals(answer)
    if answer["status"] == "ok":
        result = _result_of(answer, order.seat_id)
        return Reading((result.pod["id"], result.pod_version, arrivals), result=result)
    if answer["status"] != "refused":
        raise RuntimeError(f"drafts_pick answered {answer['status']!r}")
    # What fell due before the pick was received is committed even when the pick is not.
    notice = (answer["pod_id"], answer["version"], arrivals) if answer.get("changed") else None
    return Reading(notice, refusal=_refusal(answer["code"]))


def make_pick(
    *,
    seat_id: int,
    draft_card_id: int,
    actor,
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

    ``actor`` (required) is the user who picks, their id, or ``SYSTEM``; ``None`` is refused
    like an anonymous user (``PickOrder.of``).

    Every transport gives the same arguments (``PickOrder``); the whole pick is one call of
    ``drafts_pick`` (``fastpath``).
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
    # One statement, committed on its own (one round trip) unless the caller holds a
    # transaction. No deadline check is booked: beat's sweep (every DEADLINE_SWEEP_SECONDS)
    # enforces every clock, so a pick costs no broker round trip.
    reading = read_answer(fastpath.call(**order.function_arguments()), order)
    if reading.notice is not None:
        after_commit_version(*reading.notice)
    if reading.refusal is not None:
        raise reading.refusal
    assert reading.result is not None  # a pick is made or refused
    return reading.result


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


@transaction.atomic
def enforce_deadlines(*, pod_id: int, now: dt.datetime | None = None, grace: bool = False) -> bool:
    """Apply whatever is due (idempotent): called by the Celery tasks and before reads.

    ``grace``: count a clock as run out only ``PICK_TIMER_GRACE_SECONDS`` after its deadline,
    so that a pick the server received in time, still waiting for the pod, is served first.
    """
    now = now or timezone.now()
    cutoff = grace_cutoff(now) if grace else now
    # One statement locks the pod and does everything due (``drafts_settle``).
    answer = fastpath.settle(pod_id=pod_id, now=now, cutoff=cutoff)
    if answer["status"] != "ok" or not answer["changed"]:
        return False
    after_commit_version(pod_id, answer["version"], fastpath.arrivals(answer))
    return True


def settle_pod_for_reading(pod_id: int, now: dt.datetime | None = None) -> Pod | None:
    """Enforce every deadline already past, then return the pod (a write before a read: pages and
    the API call it so that they never show a stale clock).

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


def settle_event_pods_for_reading(event, now: dt.datetime | None = None) -> list[Pod]:
    """``settle_pod_for_reading`` for every pod of the event; the pods by number."""
    pods = (
        settle_pod_for_reading(pod_id, now) for pod_id in event.pods.order_by("number").values_list("pk", flat=True)
    )
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
    now = timezone.now()
    if not Pack.objects.filter(pod=pod, round=pod.round, holder__isnull=False).exists():
        return pod.started_at or now  # a round end is pending
    return fastpath.next_due(pod_id=pod.pk, now=now)


# --- organiser controls ----------------------------------------------------------------


@transaction.atomic
def pause_pod(*, pod_id: int, actor, now: dt.datetime | None = None) -> Pod:
    """Freeze every clock of the pod with the time that was left on it (``drafts_pause``)."""
    now = now or timezone.now()
    pod = locked(pod_id, actor)
    return control(pod, "drafts_pause", actor=actor, now=now, refusal=_control_refusal)


@transaction.atomic
def resume_pod(*, pod_id: int, actor, now: dt.datetime | None = None) -> Pod:
    """Restart every clock with exactly the time it had left when paused (``drafts_resume``)."""
    now = now or timezone.now()
    pod = locked(pod_id, actor)
    return control(pod, "drafts_resume", actor=actor, now=now, refusal=_control_refusal)


# Why an organiser's control of this module was refused, by code (``drafts/sql``'s answers).
_CONTROL_REFUSALS = {
    error_codes.POD_PAUSED: (ConflictError, gettext_lazy("The pod is already paused.")),
    error_codes.POD_NOT_DRAFTING: (ConflictError, gettext_lazy("Only a running pod can be paused.")),
    error_codes.POD_NOT_PAUSED: (ConflictError, gettext_lazy("The pod is not paused.")),
    error_codes.POD_NOT_REVIEWING: (ConflictError, gettext_lazy("The pod is not between rounds.")),
    error_codes.POD_ALREADY_STARTED: (ConflictError, gettext_lazy("This pod has already started.")),
    error_codes.POD_FINISHED: (
        ConflictError,
        gettext_lazy("This pod has finished; its seats can no longer change."),
    ),
    error_codes.CARD_NOT_IN_PILE: (DomainError, gettext_lazy("That card is not in your pile.")),
    error_codes.UNKNOWN_SEAT: _REFUSALS[error_codes.UNKNOWN_SEAT],
}


def _control_refusal(answer: dict) -> DomainError:
    code = answer["code"]
    if code == error_codes.INVALID_POSITION:
        return DomainError(code, _("Pile positions run from 0 to %(last)s.") % {"last": answer["last"]})
    error_class, message = _CONTROL_REFUSALS[code]
    return error_class(code, str(message))


def _pods_of_event(event_id: int, actor, states) -> list[int]:
    """The event's digital pods in ``states``, each locked (in id order, as every pod lock is
    taken, so two organisers' "all pods" never deadlock), after the organiser check."""
    event = access_event(event_id, actor, permission=Permission.ORGANISER)
    if event.draft_format == DraftFormat.PAPER:
        raise ConflictError(
            error_codes.PAPER_PODS_ARE_CALLED,
            _("A paper draft's pods are paused and resumed from their calls (the call room)."),
        )
    ids = list(Pod.objects.filter(event_id=event_id).order_by("pk").values_list("pk", flat=True))
    return [pod_id for pod_id in ids if lock_pod(pod_id).state in states]


@transaction.atomic
def pause_all_pods(*, event_id: int, actor, now: dt.datetime | None = None) -> list[int]:
    """The dashboard's "Pause all": every running pod of the event, in one transaction."""
    now = now or timezone.now()
    running = _pods_of_event(event_id, actor, ACTIVE_STATES)
    if not running:
        raise ConflictError(error_codes.NO_RUNNING_POD, _("No pod of this event is running."))
    paused = []
    for pod_id in running:
        try:
            pause_pod(pod_id=pod_id, actor=actor, now=now)
        except ConflictError as error:  # its last clock ran out as it was settled: the draft is over
            if error.code != error_codes.POD_NOT_DRAFTING:
                raise
        else:
            paused.append(pod_id)
    if not paused:
        raise ConflictError(error_codes.NO_RUNNING_POD, _("No pod of this event is running."))
    return paused


@transaction.atomic
def resume_all_pods(*, event_id: int, actor, now: dt.datetime | None = None) -> list[int]:
    """The dashboard's "Resume all": every paused pod of the event, each with its time left."""
    now = now or timezone.now()
    paused = _pods_of_event(event_id, actor, (PodState.PAUSED,))
    if not paused:
        raise ConflictError(error_codes.NO_PAUSED_POD, _("No pod of this event is paused."))
    for pod_id in paused:
        resume_pod(pod_id=pod_id, actor=actor, now=now)
    return paused


@transaction.atomic
def advance_round(*, pod_id: int, actor, now: dt.datetime | None = None) -> Pod:
    """End the review between rounds early and open the next packs (``drafts_advance_round``)."""
    now = now or timezone.now()
    pod = locked(pod_id, actor)
    return control(pod, "drafts_advance_round", actor=actor, now=now, refusal=_control_refusal)


def mark_ready(*, seat_id: int, actor, now: dt.datetime | None = None) -> Seat:
    """A player is done reviewing; when every player is, the next round starts.

    One call of ``drafts_ready`` (the seat socket sends the same statement from its event loop:
    ``drafts.aio.amark_ready``). Whatever fell due first is committed even when the ready is
    refused (the pod is no longer between rounds), as with a pick."""
    now = now or timezone.now()
    seat = access_seat(seat_id, actor, permission=Permission.SEAT_OWNER)
    notice, refusal = read_ready(fastpath.ready(seat_id=seat.pk, owner_id=None, now=now, cutoff=grace_cutoff(now)))
    if notice is not None:
        after_commit_version(*notice)
    if refusal is not None:
        raise refusal
    seat.refresh_from_db()
    return seat


_READY_REFUSALS = {
    error_codes.POD_NOT_REVIEWING: (ConflictError, gettext_lazy("The pod is not between rounds.")),
    error_codes.PAPER_POD: (
        ConflictError,
        gettext_lazy("This pod drafts paper boosters: call it from its caller page."),
    ),
    # the seat's refusals, worded as a pick's
    **{code: _REFUSALS[code] for code in (error_codes.NOT_YOUR_SEAT, error_codes.UNKNOWN_SEAT)},
}


def read_ready(answer: dict) -> tuple[tuple[int, int, dict[int, None]] | None, DomainError | None]:
    """What ``drafts_ready`` answered: what live pages must hear (pod id, version, the seats a
    pack reached the front of), and the refusal if it was refused."""
    notice = None
    if answer.get("changed"):
        notice = (answer["pod_id"], answer["version"], dict.fromkeys(answer.get("arrivals") or []))
    if answer["status"] == "ok":
        return notice, None
    error_class, message = _READY_REFUSALS[answer["code"]]
    return notice, error_class(answer["code"], str(message))


@transaction.atomic
def replace_with_automatic(*, seat_id: int, actor, now: dt.datetime | None = None) -> Seat:
    """A player left: an automatic drafter takes the seat and its pile stays."""
    now = now or timezone.now()
    seat = access_seat(seat_id, actor, permission=Permission.ORGANISER)
    pod = locked(seat.pod_id, actor, permission=None)
    control(pod, "drafts_hand_seat", actor=actor, now=now, refusal=_control_refusal, seat=seat.pk, registration=None)
    seat.refresh_from_db()
    return seat


@transaction.atomic
def hand_seat(*, seat_id: int, registration_id: int, actor, now: dt.datetime | None = None) -> Seat:
    """Give a seat, its queue and its pile, to another registered player."""
    from events.models import Registration

    now = now or timezone.now()
    seat = access_seat(seat_id, actor, permission=Permission.ORGANISER)
    pod = locked(seat.pod_id, actor, permission=None)
    if pod.state == PodState.DONE:  # a finished pod's seats and pools belong to their players
        raise _control_refusal({"code": error_codes.POD_FINISHED})
    registration = Registration.objects.filter(pk=registration_id, event_id=pod.event_id).first()
    if registration is None:
        raise DomainError(error_codes.NOT_REGISTERED, _("That player is not registered for this event."))
    if Seat.objects.filter(registration=registration).exclude(pk=seat.pk).exists():
        raise ConflictError(error_codes.SEAT_TAKEN, _("That player already has a seat."))
    if registration.user_id is None:  # (a paper pod never reaches here: lock_pod refuses it)
        # A guest has no account to sign in with, so the seat would never pick (issue 27).
        raise DomainError(
            error_codes.GUEST_ONLINE_SEAT,
            _(
                "%(name)s is a guest without an account and cannot hold an online seat: hand the seat to a"
                " player with an account, or replace it with an automatic drafter."
            )
            % {"name": registration.name},
            field="registration",
        )
    control(
        pod,
        "drafts_hand_seat",
        actor=actor,
        now=now,
        refusal=_control_refusal,
        seat=seat.pk,
        registration=registration.pk,
    )
    seat.refresh_from_db()
    # What was known of the seat's connections was the previous holder's ("seen 10:02").
    seat_id = seat.pk
    transaction.on_commit(lambda: presence.forget([seat_id]))
    return seat


# --- the pile (R17) --------------------------------------------------------------------


@transaction.atomic
def move_pile_card(*, seat_id: int, draft_card_id: int, position: int, actor) -> Seat:
    """R17: a player may reorder their pile at any time."""
    seat = access_seat(seat_id, actor, permission=Permission.SEAT_OWNER)
    pod = locked(seat.pod_id, actor, permission=None)
    # The board shows piles' DFCs in order: other seats hear the new version.
    control(
        pod,
        "drafts_move_pile_card",
        actor=actor,
        now=timezone.now(),
        refusal=_control_refusal,
        seat=seat.pk,
        card=draft_card_id,
        position=position,
    )
    seat.refresh_from_db(fields=["pile_ids"])
    return seat


@transaction.atomic
def set_pile_cover(*, seat_id: int, cover: str, actor) -> Seat:
    """R17: start the pile with a basic land or checklist card, DFCs beneath it."""
    if cover not in PILE_COVERS:
        raise DomainError(
            error_codes.INVALID_PILE_COVER,
            _("The pile can start with nothing, a basic land or a checklist card."),
            field="cover",
        )
    seat = access_seat(seat_id, actor, permission=Permission.SEAT_OWNER)
    pod = locked(seat.pod_id, actor, permission=None)
    seat.pile_cover = cover
    seat.save(update_fields=["pile_cover"])
    write(pod, [], actor=actor)  # the cover shows on the open board
    return seat
