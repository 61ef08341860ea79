"""Organiser controls that picks.py does not have: clocks and the spectator link.

Each clock control is one stored function (``drafts/sql``) run through the one pod-write path
(``drafts.services.changes``: lock the pod, authorize, and the function settles, checks,
changes, logs and moves the version; live pages hear it after the commit). The arguments are
checked here first; a refusal the function answers is raised with its wording here.
"""

from __future__ import annotations

import datetime as dt
import secrets
import time

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from drafts import error_codes
from drafts.access import access_pod_seat
from drafts.models import Pod, PodAction
from drafts.services.changes import control, locked, write
from draftsite.errors import ConflictError, DomainError

MAX_EXTENSION_SECONDS = 15 * 60
MAX_DECK_BUILDING_MINUTES = 180

_FINISHED = (ConflictError, gettext_lazy("Deck building is over in this pod."))
_REFUSALS = {
    error_codes.POD_NOT_DRAFTING: (ConflictError, gettext_lazy("Only a running pod's clocks can be extended.")),
    error_codes.POD_FINISHED: _FINISHED,
    error_codes.POD_PAUSED: (ConflictError, gettext_lazy("Resume the pod first.")),
    error_codes.POD_NOT_STARTED: (ConflictError, gettext_lazy("This pod has not started.")),
    error_codes.DRAFT_NOT_OVER: (
        ConflictError,
        gettext_lazy("The draft is not over: packs are still going round."),
    ),
}


def _refusal(answer: dict) -> DomainError:
    """The error of a clock control's refusal (``drafts_extend`` and the deck-building clock's)."""
    code = answer["code"]
    if code == error_codes.INVALID_TIMER:  # a seat's clock asked for where the clock is the pod's
        return DomainError(
            code, gettext("Between rounds and in deck building the clock is the whole pod's."), field="seat"
        )
    if code == error_codes.NO_RUNNING_CLOCK:
        if answer.get("clock") == "pick":
            seat = answer.get("seat")
            return ConflictError(code, "No pick timer is running" + (" for that seat." if seat else " in this pod."))
        return ConflictError(code, gettext("No clock is running in this pod."))
    error_class, message = _REFUSALS[code]
    return error_class(code, str(message))


def _check_minutes(minutes) -> None:
    if not isinstance(minutes, int) or not 1 <= minutes <= MAX_DECK_BUILDING_MINUTES:
        raise DomainError(
            error_codes.INVALID_TIMER,
            gettext("Deck building lasts 1 to %(MAX_DECK_BUILDING_MINUTES)s minutes.")
            % {"MAX_DECK_BUILDING_MINUTES": MAX_DECK_BUILDING_MINUTES},
            field="minutes",
        )


@transaction.atomic
def extend_clocks(
    *, pod_id: int, seconds: int, seat_id: int | None = None, actor, now: dt.datetime | None = None
) -> Pod:
    """Give more time on whatever clock is running: every current pick timer (or one seat's),
    the review clock between rounds, or the deck-building clock (``drafts_extend``). A paused
    pod keeps the extra time frozen until it resumes. A clock that ran out more than the grace
    period ago is not brought back: what fell due is applied first (one that ran out within it
    is extended from its deadline, as a pick received in time may still be on its way)."""
    now = now or timezone.now()
    if not isinstance(seconds, int) or not 1 <= seconds <= MAX_EXTENSION_SECONDS:
        raise DomainError(
            error_codes.INVALID_TIMER,
            gettext("Extend by 1 to %(MAX_EXTENSION_SECONDS)s seconds.")
            % {"MAX_EXTENSION_SECONDS": MAX_EXTENSION_SECONDS},
            field="seconds",
        )
    pod = locked(pod_id, actor)
    seat = access_pod_seat(pod, seat_id) if seat_id is not None else None
    return control(
        pod,
        "drafts_extend",
        actor=actor,
        now=now,
        refusal=lambda answer: _refusal({**answer, "seat": seat_id}),
        seconds=seconds,
        seat=seat.pk if seat else None,
    )


@transaction.atomic
def set_deck_building_clock(*, pod_id: int, minutes: int, actor, now: dt.datetime | None = None) -> Pod:
    """Change the deck-building time (``drafts_deck_building_clock``).

    In deck building the clock restarts with ``minutes`` from now (frozen at that if paused).
    Before deck building the event's deck-building minutes change, so this pod (and the
    event's other pods) get that much when their last pick is made.
    """
    now = now or timezone.now()
    _check_minutes(minutes)
    pod = locked(pod_id, actor)
    return control(pod, "drafts_deck_building_clock", actor=actor, now=now, refusal=_refusal, minutes=minutes)


@transaction.atomic
def start_deck_building(*, pod_id: int, minutes: int | None = None, actor, now: dt.datetime | None = None) -> Pod:
    """Start the deck-building clock now, with the full time (or ``minutes``): ``drafts_start_deck_building``.

    The engine starts deck building by itself at the last pick; this ends a review of the
    last round early (should there be one) or restarts the clock when the organiser wants
    every player to start together. Mid-draft it is refused: packs are still going round.
    """
    now = now or timezone.now()
    if minutes is not None:
        _check_minutes(minutes)
    pod = locked(pod_id, actor)
    return control(pod, "drafts_start_deck_building", actor=actor, now=now, refusal=_refusal, minutes=minutes)


@transaction.atomic
def regenerate_spectator_token(*, pod_id: int, actor, now: dt.datetime | None = None) -> Pod:
    """A new spectator link for the pod; the old one stops working at once (open
    spectator pages are disconnected and their next fetch is refused)."""
    now = now or timezone.now()
    pod = locked(pod_id, actor)
    pod.spectator_token = secrets.token_urlsafe(24)
    write(pod, ["spectator_token"], actor=actor, now=now, action=PodAction.SPECTATOR_LINK_REGENERATED)
    transaction.on_commit(lambda: notify_spectators_revoked(pod.pk))
    return pod


def notify_spectators_revoked(pod_id: int) -> None:
    """Tell the pod's open spectator sockets that their link is no longer valid (if Redis is
    down, the old token is refused on every fetch and heartbeat anyway)."""
    from drafts import live

    live.publish((live.spectators_topic(pod_id), {"type": "spectators_revoked", "version": int(time.time() * 1000)}))
