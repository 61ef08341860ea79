"""Writes of the called paper draft: start a pod or a flight, the judges' controls, the
followers' link, and the DFCs a player posts to the open table.

Every function takes plain arguments and runs in one transaction: the caller's role is checked
first (403 before any 400), the pods' rows are locked in id order (racing controls are
serialised: the second sees the first's result), the call in force is computed at ``now``
from the stored inputs, the control is stored, logged as a ``PodLogEntry`` (who, when, why),
the pod's version bumped, and live pages told once the transaction commits.
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Callable, Sequence

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cards import selectors as card_selectors
from drafts import permissions
from drafts.access import access_own_seat
from drafts.models import Pod, PodLogEntry, PodState, Seat
from draftsite.errors import ConflictError, DomainError, ForbiddenError, NotFoundError
from events.access import SYSTEM, Permission, authorize
from events.models import DraftFormat, Event
from paper import error_codes, live, schedule, selectors
from paper.models import CallAction, CalledPod, CallJump, CallPause, Flight, JumpKind, PostedDfc

MAX_DELAY_SECONDS = 600
MAX_REASON = 200
MAX_POSTED_COUNT = 4


# --- helpers --------------------------------------------------------------------------------


def _lock_paper_pods(pod_ids: Sequence[int]) -> list[Pod]:
    """Lock pods (id order: one order, no deadlocks); each must be a paper draft's pod."""
    pods = list(
        Pod.objects.select_for_update().select_related("event").filter(pk__in=sorted(set(pod_ids))).order_by("pk")
    )
    found = {p.pk for p in pods}
    missing = [pk for pk in pod_ids if pk not in found]
    if missing or any(p.event.draft_format != DraftFormat.PAPER for p in pods):
        bad = missing[0] if missing else next(p.pk for p in pods if p.event.draft_format != DraftFormat.PAPER)
        raise NotFoundError(error_codes.UNKNOWN_PAPER_POD, _("No paper draft pod has id %(id)s.") % {"id": bad})
    return pods


def _called(pod: Pod) -> CalledPod:
    """The pod's call row (made on first use; the pod row is locked, so only one is made)."""
    called, _created = CalledPod.objects.get_or_create(pod=pod)
    return called


# Access checks (``events.access``, ``drafts.access``): the services make them, and the API and pages make them
# before reading a body. The paper draft's wording of the staff refusal:
STAFF_ONLY = gettext_lazy("Only the event's organisers and judges may do that.")


FOLLOWERS_ONLY = gettext_lazy("Only the pod's players and the event's staff may follow it.")
PLAYERS_ONLY = gettext_lazy("Only the players of this pod post to its table.")


def _log(pod: Pod, at: dt.datetime, action: CallAction, actor, **details) -> None:
    """``actor``: the person, or ``SYSTEM`` (the call ran out on its own); the log names no user for it."""
    PodLogEntry.objects.create(
        pod=pod,
        at=at,
        actor=actor if getattr(actor, "is_authenticated", False) else None,
        action=action,
        details=details,
    )


def _changed(pod: Pod, called: CalledPod | None, now: dt.datetime) -> None:
    """Mirror the call into the pod's state, bump its version, tell pages after the commit."""
    if called is not None:
        call = selectors.call_at(pod, called, now)
        pod.state, pod.paused_from = selectors.mirrored_state(call, called.started_at is not None)
        if pod.state == PodState.DONE and pod.finished_at is None:
            pod.finished_at = now
    pod.version += 1
    pod.save(update_fields=["state", "paused_from", "version", "finished_at", "started_at"])
    pod_id, version = pod.pk, pod.version
    transaction.on_commit(lambda: live.call_changed(pod_id, version))


def _delay(delay_seconds) -> dt.timedelta:
    if (
        not isinstance(delay_seconds, int)
        or isinstance(delay_seconds, bool)
        or not 0 <= delay_seconds <= MAX_DELAY_SECONDS
    ):
        raise DomainError(
            error_codes.INVALID_DELAY,
            _("Start now or in up to %(max)s seconds.") % {"max": MAX_DELAY_SECONDS},
            field="delay_seconds",
        )
    return dt.timedelta(seconds=delay_seconds)


def _clean_reason(reason) -> str:
    text = " ".join(str(reason or "").split())
    if not text:
        raise DomainError(
            error_codes.REASON_REQUIRED,
            _("Say why the call is paused (a fallen card, a missing pack…)."),
            field="reason",
        )
    if len(text) > MAX_REASON or "\x00" in text:
        raise DomainError(
            error_codes.INVALID_REASON,
            _("A reason is at most %(max)s characters of text.") % {"max": MAX_REASON},
            field="reason",
        )
    return text


# --- starting -----------------------------------------------------------------------------------


def _start(pod: Pod, at: dt.datetime, flight: Flight | None) -> CalledPod:
    called = _called(pod)
    if called.started_at is not None:
        raise ConflictError(
            error_codes.CALL_ALREADY_STARTED, _("Pod %(number)s is already being called.") % {"number": pod.number}
        )
    if Seat.objects.filter(pod=pod).count() < 2:
        raise DomainError(
            error_codes.TOO_FEW_PLAYERS, _("Pod %(number)s needs at least two players.") % {"number": pod.number}
        )
    called.started_at = at
    called.flight = flight
    called.save(update_fields=["started_at", "flight"])
    pod.started_at = at
    return called


@transaction.atomic
def start_call(*, pod_id: int, actor, delay_seconds: int = 0, now: dt.datetime | None = None) -> CalledPod:
    """Call one pod on its own, now or after a short countdown."""
    now = now or timezone.now()
    (pod,) = _lock_paper_pods([pod_id])
    authorize(actor, pod.event, Permission.ORGANISER)
    at = now + _delay(delay_seconds)
    called = _start(pod, at, None)
    _log(pod, now, CallAction.START, actor, starts_at=at.isoformat(), flight=None)
    _changed(pod, called, now)
    return called


@transaction.atomic
def start_flight(
    *, event_id: int, pod_ids: Sequence[int], actor, delay_seconds: int = 0, now: dt.datetime | None = None
) -> Flight:
    """Call several pods in lockstep from one start; their controls can then act on all at once."""
    now = now or timezone.now()
    event = Event.objects.select_for_update().filter(pk=event_id, draft_format=DraftFormat.PAPER).first()
    if event is None:
        raise NotFoundError(error_codes.UNKNOWN_EVENT, _("No paper draft event has id %(id)s.") % {"id": event_id})
    authorize(actor, event, Permission.ORGANISER)
    at = now + _delay(delay_seconds)
    if not pod_ids:
        raise DomainError(error_codes.EMPTY_FLIGHT, _("Choose the pods to call together."), field="pods")
    pods = _lock_paper_pods(list(pod_ids))
    if any(p.event_id != event.pk for p in pods):
        raise DomainError(
            error_codes.UNKNOWN_PAPER_POD, _("Every pod of a flight belongs to this event."), field="pods"
        )
    number = (Flight.objects.filter(event=event).aggregate(n=Max("number"))["n"] or 0) + 1
    flight = Flight.objects.create(event=event, number=number, started_at=at, created_by=actor, created_at=now)
    for pod in pods:
        called = _start(pod, at, flight)
        _log(pod, now, CallAction.START, actor, starts_at=at.isoformat(), flight=number)
        _changed(pod, called, now)
    return flight


# --- the judges' controls -------------------------------------------------------------------------


def _running_call(pod: Pod, called: CalledPod, now: dt.datetime) -> schedule.Call:
    call = selectors.call_at(pod, called, now)
    if called.started_at is None:
        raise ConflictError(
            error_codes.CALL_NOT_STARTED, _("Pod %(number)s is not being called.") % {"number": pod.number}
        )
    if call.phase == schedule.DONE:
        raise ConflictError(
            error_codes.CALL_FINISHED, _("The draft of pod %(number)s is over.") % {"number": pod.number}
        )
    return call


def _pause(pod, called, now, actor, *, reason: str, flight: Flight | None = None) -> None:
    _running_call(pod, called, now)
    if called.pauses.filter(ended_at__isnull=True, flight=flight).exists():
        raise ConflictError(error_codes.CALL_PAUSED, _("Pod %(number)s is already paused.") % {"number": pod.number})
    try:
        with transaction.atomic():
            CallPause.objects.create(
                called_pod=called,
                flight=flight,
                started_at=now,
                reason=reason,
                paused_by=actor if getattr(actor, "is_authenticated", False) else None,
            )
    except IntegrityError:  # the constraint backs the check above
        raise ConflictError(
            error_codes.CALL_PAUSED, _("Pod %(number)s is already paused.") % {"number": pod.number}
        ) from None
    _log(pod, now, CallAction.PAUSE, actor, reason=reason, flight=flight.number if flight else None)


def _resume(pod, called, now, actor, *, flight: Flight | None = None) -> None:
    """A flight's resume ends the flight's pause (a pod paused on its own stays paused);
    resuming one pod ends every pause of that pod, its flight's too (``control_pod`` then
    ends the flight's pause on the flight's other pods, so the flight stays in lockstep)."""
    open_pauses = called.pauses.filter(ended_at__isnull=True)
    if flight is not None:
        open_pauses = open_pauses.filter(flight=flight)
    pauses = list(open_pauses.order_by("started_at"))
    if not pauses:
        raise ConflictError(error_codes.CALL_NOT_PAUSED, _("Pod %(number)s is not paused.") % {"number": pod.number})
    for pause in pauses:
        pause.ended_at = now
        pause.resumed_by = actor if getattr(actor, "is_authenticated", False) else None
        pause.save(update_fields=["ended_at", "resumed_by"])
    _log(
        pod,
        now,
        CallAction.RESUME,
        actor,
        flight=flight.number if flight else None,
        paused_seconds=int((now - pauses[0].started_at).total_seconds()),
    )


def _jump_target(kind: str, pod: Pod, call: schedule.Call) -> int:
    pack_size = pod.event.pack_size
    if call.step is None:  # not started yet: nothing to move
        raise ConflictError(
            error_codes.CALL_NOT_STARTED,
            _("The first call of pod %(number)s has not come yet.") % {"number": pod.number},
        )
    if kind == JumpKind.RESTART_ROUND:
        if call.phase == schedule.DECK_BUILDING:
            raise ConflictError(
                error_codes.NOT_PICKING,
                _("The draft of pod %(number)s is over; deck building runs.") % {"number": pod.number},
            )
        return schedule.round_start_step(pack_size, call.step.round)
    if call.phase != schedule.PICK:
        raise ConflictError(
            error_codes.NOT_PICKING, _("No pick is being called in pod %(number)s.") % {"number": pod.number}
        )
    if kind == JumpKind.REPEAT_PICK:
        return call.step.index
    return schedule.round_end_step(pack_size, call.step.round)


# What the pod log records for each jump.
JUMP_ACTIONS: dict[str, CallAction] = {
    JumpKind.REPEAT_PICK: CallAction.REPEAT_PICK,
    JumpKind.SKIP_TO_REVIEW: CallAction.SKIP_TO_REVIEW,
    JumpKind.RESTART_ROUND: CallAction.RESTART_ROUND,
}


def _jump(pod, called, now, actor, *, kind: str, flight: Flight | None = None) -> None:
    call = _running_call(pod, called, now)
    step = _jump_target(kind, pod, call)
    CallJump.objects.create(
        called_pod=called,
        at=now,
        step=step,
        kind=kind,
        actor=actor if getattr(actor, "is_authenticated", False) else None,
    )
    _log(
        pod, now, JUMP_ACTIONS[kind], actor, round=call.round, pick=call.pick, flight=flight.number if flight else None
    )


CONTROLS: dict[str, Callable] = {
    "pause": _pause,
    "resume": _resume,
    "repeat-pick": lambda *a, **kw: _jump(*a, kind=JumpKind.REPEAT_PICK, **kw),
    "skip-to-review": lambda *a, **kw: _jump(*a, kind=JumpKind.SKIP_TO_REVIEW, **kw),
    "restart-round": lambda *a, **kw: _jump(*a, kind=JumpKind.RESTART_ROUND, **kw),
}


@transaction.atomic
def control_pod(*, pod_id: int, action: str, actor, reason: str = "", now: dt.datetime | None = None) -> Pod:
    """A judge's control of one pod: pause (with a reason), resume, repeat-pick,
    skip-to-review or restart-round."""
    now = now or timezone.now()
    # A resume may end its flight's pause on the flight's other pods: lock them all, in id
    # order. (A pod joins a flight only when its call starts, and a just-started call has no
    # flight pause to end, so reading the flight before the lock is safe.)
    flight_id = (
        CalledPod.objects.filter(pod_id=pod_id).values_list("flight_id", flat=True).first()
        if action == "resume"
        else None
    )
    flight_pods = (
        list(CalledPod.objects.filter(flight_id=flight_id).values_list("pod_id", flat=True)) if flight_id else []
    )
    locked = _lock_paper_pods([pod_id, *flight_pods])
    pod = next(p for p in locked if p.pk == pod_id)
    authorize(actor, pod.event, Permission.STAFF, message=STAFF_ONLY)
    if action not in CONTROLS:
        raise NotFoundError(error_codes.UNKNOWN_CONTROL, _("No control is called %(action)s.") % {"action": action})
    extra = {"reason": _clean_reason(reason)} if action == "pause" else {}
    called = _called(pod)
    flight = called.flight if action == "resume" and called.flight_id else None
    flight_paused = flight is not None and called.pauses.filter(ended_at__isnull=True, flight=flight).exists()
    CONTROLS[action](pod, called, now, actor, **extra)
    _changed(pod, called, now)
    if flight_paused:
        # Resuming one pod of a paused flight resumes the flight: the pods stay in lockstep
        # (issue 27: pod 2 stayed paused). A pod also paused on its own stays paused.
        for other in locked:
            if other.pk == pod.pk:
                continue
            other_called = _called(other)
            try:
                with transaction.atomic():
                    _resume(other, other_called, now, actor, flight=flight)
            except ConflictError:
                continue  # not paused by the flight (or its call is over)
            _changed(other, other_called, now)
    return pod


@transaction.atomic
def control_flight(
    *, flight_id: int, action: str, actor, reason: str = "", now: dt.datetime | None = None
) -> list[Pod]:
    """The same control on every pod of a flight, at the same instant (lockstep stays exact).

    Pausing a flight adds the flight's own pause to each pod, so a pod a judge paused on its
    own stays paused when the flight resumes. Repeat and skip act on the pods where a pick
    is being called; the others are left alone (refused only if no pod qualifies).
    """
    now = now or timezone.now()
    flight = Flight.objects.select_related("event").filter(pk=flight_id).first()
    if flight is None:
        raise NotFoundError(error_codes.UNKNOWN_FLIGHT, _("No flight has id %(id)s.") % {"id": flight_id})
    authorize(actor, flight.event, Permission.STAFF, message=STAFF_ONLY)
    if action not in CONTROLS:
        raise NotFoundError(error_codes.UNKNOWN_CONTROL, _("No control is called %(action)s.") % {"action": action})
    extra = {"reason": _clean_reason(reason)} if action == "pause" else {}
    pods = _lock_paper_pods(list(CalledPod.objects.filter(flight=flight).values_list("pod_id", flat=True)))
    done, refusal = [], None
    for pod in pods:
        called = _called(pod)
        try:
            with transaction.atomic():
                CONTROLS[action](pod, called, now, actor, flight=flight, **extra)
        except ConflictError as exc:
            refusal = refusal or exc
            continue
        _changed(pod, called, now)
        done.append(pod)
    if not done:
        raise refusal or ConflictError(error_codes.EMPTY_FLIGHT, _("This flight has no pods."))
    return done


@transaction.atomic
def settle(*, pod_id: int, now: dt.datetime | None = None) -> bool:
    """Mirror the call into the pod's state when time alone moved it on (deck building, done).
    Idempotent: reads and a Celery task call it; a second call finds nothing to do."""
    now = now or timezone.now()
    pods = _lock_paper_pods([pod_id])
    pod = pods[0]
    called = CalledPod.objects.filter(pod=pod).first()
    if called is None:
        return False
    call = selectors.call_at(pod, called, now)
    if (pod.state, pod.paused_from) == selectors.mirrored_state(call, called.started_at is not None):
        return False
    if call.phase == schedule.DONE:
        _log(pod, now, CallAction.OVER, SYSTEM)
    _changed(pod, called, now)
    return True


def settle_if_due(*, pod: Pod, now: dt.datetime) -> Pod:
    """Settle the pod's mirrored state if time alone moved its call on, and return the pod as
    it now stands. Every read of the call runs it first (the way the draft engine's reads
    enforce its deadlines); it writes only when something is due (then through ``settle``)."""
    called, call = selectors.current_call(pod, now)
    if selectors.is_settled(pod, called, call):
        return pod
    settle(pod_id=pod.pk, now=now)
    return Pod.objects.select_related("event").get(pk=pod.pk)


def settle_event_if_due(*, event: Event, now: dt.datetime) -> None:
    """``settle_if_due`` for every pod of the event (before its dashboard rows are read)."""
    for pod in event.pods.select_related("event").order_by("number"):
        settle_if_due(pod=pod, now=now)


# --- followers (players on their phones, no account) ------------------------------------------------


@transaction.atomic
def set_followers_allowed(*, event_id: int, allowed: bool, actor, now: dt.datetime | None = None) -> int:
    """Let the players of every pod follow the call and the open table on their pod's
    spectator link, without an account (or stop it: the links then answer 404)."""
    now = now or timezone.now()
    event = Event.objects.filter(pk=event_id, draft_format=DraftFormat.PAPER).first()
    if event is None:
        raise NotFoundError(error_codes.UNKNOWN_EVENT, _("No paper draft event has id %(id)s.") % {"id": event_id})
    authorize(actor, event, Permission.ORGANISER)
    pods = _lock_paper_pods(list(event.pods.values_list("pk", flat=True)))
    for pod in pods:
        called = _called(pod)
        if called.followers_allowed != bool(allowed):
            called.followers_allowed = bool(allowed)
            called.save(update_fields=["followers_allowed"])
            _log(pod, now, CallAction.FOLLOWERS, actor, allowed=bool(allowed))
            _changed(pod, None, now)
            if not allowed:
                transaction.on_commit(lambda pk=pod.pk: live.close_followers(pk))
    return len(pods)


@transaction.atomic
def regenerate_follow_link(*, pod_id: int, actor, now: dt.datetime | None = None) -> Pod:
    """A new link for the pod; the old one stops working at once (its open pages are closed)."""
    now = now or timezone.now()
    (pod,) = _lock_paper_pods([pod_id])
    authorize(actor, pod.event, Permission.ORGANISER)
    pod.spectator_token = secrets.token_urlsafe(24)
    pod.save(update_fields=["spectator_token"])
    _log(pod, now, CallAction.LINK_REGENERATED, actor)
    _changed(pod, None, now)
    transaction.on_commit(lambda: live.close_followers(pod.pk))
    return pod


# --- the open table: DFCs a player chooses to show (R15) -------------------------------------------


def access_posted_dfc(actor, posted_id: int) -> PostedDfc:
    """A card the actor posted; any other id is refused the same way, so ids are not probed."""
    posted = selectors.posted_dfc(posted_id)
    if posted is None or not permissions.owns_seat(actor, posted.seat):
        raise ForbiddenError(error_codes.NOT_YOUR_SEAT, _("Only the player who posted a card can take it back."))
    return posted


@transaction.atomic
def post_dfc(*, pod_id: int, actor, card: str | int, count: int = 1, now: dt.datetime | None = None) -> PostedDfc:
    """R15: a player shows a double-faced card they drafted to the pod (allowed, never
    required). Single-faced cards are not open information (R16) and are refused."""
    now = now or timezone.now()
    (pod,) = _lock_paper_pods([pod_id])
    seat = access_own_seat(actor, pod, message=PLAYERS_ONLY)
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_POSTED_COUNT:
        raise DomainError(
            error_codes.INVALID_COUNT, _("Show 1 to %(max)s copies.") % {"max": MAX_POSTED_COUNT}, field="count"
        )
    query = card if isinstance(card, int) else str(card or "").strip()
    valid = (0 < query < 2**31) if isinstance(query, int) else (bool(query) and "\x00" not in query)
    found = card_selectors.find_card(query) if valid else None  # an id past the column's range is none
    if found is None:
        raise DomainError(
            error_codes.UNKNOWN_CARD,
            _("No card is called %(name)s.") % {"name": str(query)[:100]},
            field="card",
            suggestions=card_selectors.suggest_names(str(query)[:100], 3)
            if isinstance(query, str) and "\x00" not in query
            else [],
        )
    if not found.is_dfc:
        raise DomainError(
            error_codes.NOT_A_DFC,
            _("%(name)s is not a double-faced card: only those are open information (R16).") % {"name": found.name},
            field="card",
        )
    called = _called(pod)
    posted, created = PostedDfc.objects.get_or_create(
        seat=seat, card=found, defaults={"called_pod": called, "count": count, "posted_at": now}
    )
    if not created:
        posted.count = count
        posted.save(update_fields=["count"])
    _changed(pod, None, now)
    return posted


@transaction.atomic
def withdraw_dfc(*, posted_id: int, actor, now: dt.datetime | None = None) -> None:
    """R15: a player may hide their DFCs again."""
    now = now or timezone.now()
    posted = PostedDfc.objects.select_related("seat").filter(pk=posted_id).first()
    if posted is None:
        raise NotFoundError(error_codes.NOT_POSTED, _("Nothing was posted with id %(id)s.") % {"id": posted_id})
    (pod,) = _lock_paper_pods([posted.seat.pod_id])
    if access_own_seat(actor, pod, message=PLAYERS_ONLY).pk != posted.seat_id:
        raise ForbiddenError(error_codes.NOT_YOUR_SEAT, _("Only the player who posted a card can take it back."))
    PostedDfc.objects.filter(pk=posted.pk).delete()
    _changed(pod, None, now)
