"""Organiser controls that picks.py does not have: clocks and the spectator link.

Same patterns as ``picks.py``: lock the pod row first (``lock_pod``), apply whatever fell
due before the control (``picks.settle``), bump the version (``touch``), log who did what
(``log_action`` -> PodLogEntry), and tell live pages after the commit (``after_commit``):
the shared steps are public names of ``drafts.services.changes``.
"""

from __future__ import annotations

import datetime as dt
import secrets
import time

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from drafts import error_codes
from drafts.access import Permission, access_pod_seat, authorize
from drafts.core.timing import ROUNDS
from drafts.locking import lock_pod
from drafts.models import Event, Pack, Pod, PodAction, PodState
from drafts.services.changes import after_commit, log_action, touch
from drafts.services.picks import settle
from draftsite.errors import ConflictError, DomainError

MAX_EXTENSION_SECONDS = 15 * 60
MAX_DECK_BUILDING_MINUTES = 180


def _finish(pod: Pod) -> Pod:
    touch(pod)
    pod.save()
    after_commit(pod)
    return pod


@transaction.atomic
def extend_clocks(
    *, pod_id: int, seconds: int, seat_id: int | None = None, actor, now: dt.datetime | None = None
) -> Pod:
    """Give more time on whatever clock is running: every current pick timer (or one seat's),
    the review clock between rounds, or the deck-building clock. A paused pod keeps the extra
    time frozen until it resumes. A clock that ran out more than the grace period ago is not
    brought back: what fell due is applied first (one that ran out within it is extended from
    its deadline, as a pick received in time may still be on its way)."""
    now = now or timezone.now()
    if not isinstance(seconds, int) or not 1 <= seconds <= MAX_EXTENSION_SECONDS:
        raise DomainError(
            error_codes.INVALID_TIMER,
            gettext("Extend by 1 to %(MAX_EXTENSION_SECONDS)s seconds.")
            % {"MAX_EXTENSION_SECONDS": MAX_EXTENSION_SECONDS},
            field="seconds",
        )
    pod = lock_pod(pod_id)
    authorize(actor, pod.event, Permission.ORGANISER)
    settle(pod, now)
    state = pod.effective_state
    paused = pod.state == PodState.PAUSED
    seat = None
    if seat_id is not None:
        seat = access_pod_seat(pod, seat_id)
    if state == PodState.DRAFTING:
        clock, count = "pick", _extend_pick_timers(pod, seat, seconds, paused)
    elif state in (PodState.REVIEWING, PodState.DECK_BUILDING):
        clock, count = _extend_pod_clock(pod, state, seat, seconds, paused), 1
    else:
        raise ConflictError(error_codes.POD_NOT_DRAFTING, gettext("Only a running pod's clocks can be extended."))
    log_action(
        pod,
        now,
        PodAction.EXTEND_CLOCKS,
        actor,
        seconds=seconds,
        clock=clock,
        clocks=count,
        seat=seat.position if seat else None,
    )
    return _finish(pod)


def _extend_pick_timers(pod: Pod, seat, seconds: int, paused: bool) -> int:
    """More time on the running pick timers (of ``seat`` only, if given); returns how many."""
    packs = Pack.objects.filter(pod=pod, holder__isnull=False)
    if seat is not None:
        packs = packs.filter(holder=seat)
    packs = list(packs.exclude(remaining_ms=None) if paused else packs.exclude(deadline=None))
    if not packs:
        raise ConflictError(
            error_codes.NO_RUNNING_CLOCK, "No pick timer is running" + (" for that seat." if seat else " in this pod.")
        )
    for pack in packs:
        if paused:
            pack.remaining_ms += seconds * 1000
        else:
            pack.deadline += dt.timedelta(seconds=seconds)
        pack.save(update_fields=["remaining_ms", "deadline"])
    return len(packs)


def _extend_pod_clock(pod: Pod, state: str, seat, seconds: int, paused: bool) -> str:
    """More time on the review or deck-building clock (the whole pod's); returns which."""
    if seat is not None:
        raise DomainError(
            error_codes.INVALID_TIMER,
            gettext("Between rounds and in deck building the clock is the whole pod's."),
            field="seat",
        )
    field = "review_deadline" if state == PodState.REVIEWING else "deck_building_deadline"
    if paused and pod.paused_remaining_ms is not None:
        pod.paused_remaining_ms += seconds * 1000
    elif not paused and getattr(pod, field) is not None:
        setattr(pod, field, getattr(pod, field) + dt.timedelta(seconds=seconds))
    else:
        raise ConflictError(error_codes.NO_RUNNING_CLOCK, gettext("No clock is running in this pod."))
    return "review" if state == PodState.REVIEWING else "deck_building"


@transaction.atomic
def set_deck_building_clock(*, pod_id: int, minutes: int, actor, now: dt.datetime | None = None) -> Pod:
    """Change the deck-building time.

    In deck building the clock restarts with ``minutes`` from now (frozen at that if paused).
    Before deck building the event's deck-building minutes change, so this pod (and the
    event's other pods) get that much when their last pick is made.
    """
    now = now or timezone.now()
    if not isinstance(minutes, int) or not 1 <= minutes <= MAX_DECK_BUILDING_MINUTES:
        raise DomainError(
            error_codes.INVALID_TIMER,
            gettext("Deck building lasts 1 to %(MAX_DECK_BUILDING_MINUTES)s minutes.")
            % {"MAX_DECK_BUILDING_MINUTES": MAX_DECK_BUILDING_MINUTES},
            field="minutes",
        )
    pod = lock_pod(pod_id)
    authorize(actor, pod.event, Permission.ORGANISER)
    settle(pod, now)
    state = pod.effective_state
    if state == PodState.DONE:
        raise ConflictError(error_codes.POD_FINISHED, gettext("Deck building is over in this pod."))
    if state == PodState.DECK_BUILDING:
        if pod.state == PodState.PAUSED:
            pod.paused_remaining_ms = minutes * 60_000
        else:
            pod.deck_building_deadline = now + dt.timedelta(minutes=minutes)
        scope = "pod"
    else:
        Event.objects.filter(pk=pod.event_id).update(deck_building_minutes=minutes)
        pod.event.deck_building_minutes = minutes
        scope = "event"
    log_action(pod, now, PodAction.DECK_BUILDING_CLOCK, actor, minutes=minutes, scope=scope)
    return _finish(pod)


@transaction.atomic
def start_deck_building(*, pod_id: int, minutes: int | None = None, actor, now: dt.datetime | None = None) -> Pod:
    """Start the deck-building clock now, with the full time (or ``minutes``).

    The engine starts deck building by itself at the last pick; this ends a review of the
    last round early (should there be one) or restarts the clock when the organiser wants
    every player to start together. Mid-draft it is refused: packs are still going round.
    """
    now = now or timezone.now()
    if minutes is not None and (not isinstance(minutes, int) or not 1 <= minutes <= MAX_DECK_BUILDING_MINUTES):
        raise DomainError(
            error_codes.INVALID_TIMER,
            gettext("Deck building lasts 1 to %(MAX_DECK_BUILDING_MINUTES)s minutes.")
            % {"MAX_DECK_BUILDING_MINUTES": MAX_DECK_BUILDING_MINUTES},
            field="minutes",
        )
    pod = lock_pod(pod_id)
    authorize(actor, pod.event, Permission.ORGANISER)
    settle(pod, now)
    if pod.state == PodState.PAUSED:
        raise ConflictError(error_codes.POD_PAUSED, gettext("Resume the pod first."))
    final_review = pod.state == PodState.REVIEWING and pod.round >= ROUNDS
    if pod.state == PodState.DONE:
        raise ConflictError(error_codes.POD_FINISHED, gettext("Deck building is over in this pod."))
    if pod.state == PodState.NOT_STARTED:
        raise ConflictError(error_codes.POD_NOT_STARTED, gettext("This pod has not started."))
    if pod.state != PodState.DECK_BUILDING and not final_review:
        raise ConflictError(error_codes.DRAFT_NOT_OVER, gettext("The draft is not over: packs are still going round."))
    minutes = minutes or pod.event.deck_building_minutes
    pod.state = PodState.DECK_BUILDING
    pod.review_deadline = None
    pod.deck_building_deadline = now + dt.timedelta(minutes=minutes)
    log_action(pod, now, PodAction.START_DECK_BUILDING, actor, minutes=minutes)
    return _finish(pod)


@transaction.atomic
def regenerate_spectator_token(*, pod_id: int, actor, now: dt.datetime | None = None) -> Pod:
    """A new spectator link for the pod; the old one stops working at once (open
    spectator pages are disconnected and their next fetch is refused)."""
    now = now or timezone.now()
    pod = lock_pod(pod_id)
    authorize(actor, pod.event, Permission.ORGANISER)
    pod.spectator_token = secrets.token_urlsafe(24)
    log_action(pod, now, PodAction.SPECTATOR_LINK_REGENERATED, actor)
    _finish(pod)
    transaction.on_commit(lambda: notify_spectators_revoked(pod.pk))
    return pod


def notify_spectators_revoked(pod_id: int) -> None:
    """Tell the pod's open spectator sockets that their link is no longer valid (if Redis is
    down, the old token is refused on every fetch and heartbeat anyway)."""
    from drafts import live

    live.publish((live.spectators_topic(pod_id), {"type": "spectators_revoked", "version": int(time.time() * 1000)}))
