"""Reads of the called paper draft: the call in force, the open table, seating lists, the
dashboard rows. Never writes: a read of the call takes the pod as
``paper.services.settle_if_due`` left it (the pod's mirrored state settled first, the way the
draft engine's reads enforce its deadlines)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import TypeVar

from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from cards.models import DFC_LAYOUTS, Card, CardFace
from drafts.models import Pod, PodLogEntry, PodState, Seat
from draftsite.errors import NotFoundError
from events import permissions
from events.models import DraftFormat, Event
from paper import error_codes, schedule
from paper.models import CallAction, CalledPod, CallPause, Flight, PostedDfc

T = TypeVar("T")


def paper_pod(pod_id: int) -> Pod:
    """A pod of a paper draft event, or a 404 naming it (a digital pod is not one)."""
    pod = Pod.objects.select_related("event").filter(pk=pod_id).first()
    if pod is None or pod.event.draft_format != DraftFormat.PAPER:
        raise NotFoundError(
            error_codes.UNKNOWN_PAPER_POD, gettext("No paper draft pod has id %(pod_id)s.") % {"pod_id": pod_id}
        )
    return pod


def followed_pod(token: str) -> Pod | None:
    """The paper pod whose current spectator link this is, if its players may follow on it."""
    if not token or "\x00" in token:  # PostgreSQL refuses NUL in a query
        return None
    pod = (
        Pod.objects.select_related("event")
        .filter(spectator_token=token, call__followers_allowed=True, event__draft_format=DraftFormat.PAPER)
        .exclude(spectator_token="")
        .first()
    )
    return pod


def called_pod(pod: Pod) -> CalledPod | None:
    return CalledPod.objects.filter(pod=pod).first()


def call_inputs(called: CalledPod | None) -> dict:
    """The stored inputs of the schedule: start, pauses, jumps."""
    if called is None:
        return {"start": None, "pauses": [], "jumps": []}
    pauses = [schedule.Pause(p.started_at, p.ended_at) for p in called.pauses.all()]
    jumps = [schedule.Jump(j.at, j.step) for j in called.jumps.order_by("at", "pk")]
    return {"start": called.started_at, "pauses": pauses, "jumps": jumps}


def scheduled(function: Callable[..., T], pod: Pod, inputs: dict, at: dt.datetime) -> T:
    """``schedule.schedule`` or ``schedule.timeline`` of ``pod``'s call at ``at``, from its
    stored inputs (``call_inputs``) and its event's pack size and deck-building time."""
    return function(
        inputs["start"],
        inputs["pauses"],
        pod.event.pack_size,
        at,
        jumps=inputs["jumps"],
        deck_building_minutes=pod.event.deck_building_minutes,
    )


def call_at(pod: Pod, called: CalledPod | None, now: dt.datetime) -> schedule.Call:
    return scheduled(schedule.schedule, pod, call_inputs(called), now)


def mirrored_state(call: schedule.Call, started: bool) -> tuple[str, str]:
    """The ``drafts.Pod`` state (and paused_from) a call stands for: seating locks once a call
    is set, deck registration and later rounds see the draft end."""
    if call.phase == schedule.NOT_STARTED:
        return (PodState.DRAFTING if started else PodState.NOT_STARTED), ""
    if call.phase == schedule.DONE:
        return PodState.DONE, ""
    running = PodState.DECK_BUILDING if call.phase == schedule.DECK_BUILDING else PodState.DRAFTING
    return (PodState.PAUSED, running) if call.paused else (running, "")


def current_call(pod: Pod, now: dt.datetime) -> tuple[CalledPod | None, schedule.Call]:
    """The pod's call row and the call in force at ``now``."""
    called = called_pod(pod)
    return called, call_at(pod, called, now)


def is_settled(pod: Pod, called: CalledPod | None, call: schedule.Call) -> bool:
    """Whether the pod's stored state is the one its call stands for (a pod never called is)."""
    if called is None:
        return True
    return (pod.state, pod.paused_from) == mirrored_state(call, called.started_at is not None)


def _iso(value: dt.datetime | None) -> str | None:
    return value.isoformat() if value else None


def _step(step: schedule.Step | None) -> dict | None:
    if step is None:
        return None
    return {
        "index": step.index,
        "phase": step.phase,
        "round": step.round,
        "pick": step.pick,
        "cards_left": step.cards_left,
        "seconds": step.seconds,
        "direction": step.direction,
    }


def open_pauses(called: CalledPod | None) -> list[CallPause]:
    if called is None:
        return []
    return list(called.pauses.filter(ended_at__isnull=True).select_related("paused_by", "flight"))


def call_view(pod: Pod, *, staff: bool, now: dt.datetime | None = None) -> dict:
    """What every caller, phone and follower page needs, as JSON (of a pod that
    ``paper.services.settle_if_due`` returned).

    Everyone gets the call, the server's time and the timeline ahead; only the event's staff
    get who paused the pod and why (a judge's reason may name a player).
    """
    now = now or timezone.now()
    called, call = current_call(pod, now)
    inputs = call_inputs(called)
    # Before the first call, the timeline from the start: pages tick into it by themselves.
    at = inputs["start"] if inputs["start"] and now < inputs["start"] else now
    segments = scheduled(schedule.timeline, pod, inputs, at)
    pauses = open_pauses(called) if call.paused else []
    return {
        "pod": {
            "id": pod.pk,
            "number": pod.number,
            "event_id": pod.event_id,
            "event": pod.event.name,
            "version": pod.version,
            "pack_size": pod.event.pack_size,
            "flight": called.flight.number if called and called.flight_id else None,
            "seats": pod.seats.count(),
        },
        "server_time": now.isoformat(),
        "call": {
            "phase": call.phase,
            "step": _step(call.step),
            "round": call.round,
            "pick": call.pick,
            "direction": call.direction,
            "paused": call.paused,
            "remaining_ms": call.remaining_ms,
            "ends_at": _iso(call.ends_at),
            "starts_at": _iso(call.starts_at),
        },
        "timeline": [
            {"step": _step(s.step), "begins_at": _iso(s.begins_at), "ends_at": _iso(s.ends_at)} for s in segments
        ],
        "pauses": [
            {
                "since": _iso(p.started_at),
                "flight": p.flight.number if p.flight_id else None,
                **({"reason": p.reason, "by": p.paused_by.get_username() if p.paused_by_id else None} if staff else {}),
            }
            for p in pauses
        ],
        **({"log": [{**e, "at": _iso(e["at"])} for e in call_log(pod, 15)]} if staff else {}),
    }


# --- the open table (R15) ---------------------------------------------------------------


def _faces(card: Card) -> list[dict]:
    return [
        {"name": f.name, "mana_cost": f.mana_cost, "type_line": f.type_line, "oracle_text": f.oracle_text}
        for f in card.faces.all()
    ]


def posted_dfcs(pod: Pod) -> list[dict]:
    """Every seat of the pod with the DFCs its player chose to show (both faces, R14)."""
    seats = list(Seat.objects.filter(pod=pod).select_related("registration").order_by("position"))
    rows = (
        PostedDfc.objects.filter(seat__pod=pod)
        .order_by("posted_at", "pk")
        .select_related("card")
        .prefetch_related(Prefetch("card__faces", CardFace.objects.order_by("position")))
    )
    by_seat: dict[int, list[dict]] = {}
    for row in rows:
        by_seat.setdefault(row.seat_id, []).append(
            {
                "id": row.pk,
                "card_id": row.card_id,
                "name": row.card.name,
                "count": row.count,
                "faces": _faces(row.card),
                "posted_at": _iso(row.posted_at),
            }
        )
    return [
        {
            "seat": s.pk,
            "position": s.position,
            "number": s.position + 1,
            "name": s.registration.name if s.registration_id else "",
            "cards": by_seat.get(s.pk, []),
        }
        for s in seats
    ]


def event_dfcs(event: Event) -> list[Card]:
    """The DFCs printed in the event's sets: the reminder of what is open information."""
    codes = sorted(set(event.set_codes or []))
    return list(
        Card.objects.filter(layout__in=DFC_LAYOUTS, printings__card_set__code__in=codes).distinct().order_by("name")
    )


# --- seating for the venue ----------------------------------------------------------------


def seating(event: Event) -> list[dict]:
    """Every pod with its seats in order (the printable slips)."""
    pods = []
    for pod in event.pods.order_by("number").prefetch_related("seats__registration"):
        seats = sorted(pod.seats.all(), key=lambda s: s.position)
        pods.append(
            {
                "pod": pod,
                "seats": [
                    {
                        "number": s.position + 1,
                        "name": s.registration.name if s.registration_id else "",
                        "left": (s.position + 1) % len(seats) + 1,
                        "right": (s.position - 1) % len(seats) + 1,
                    }
                    for s in seats
                ],
            }
        )
    return pods


def seating_by_name(event: Event) -> list[dict]:
    """Player, pod, seat: alphabetical by name, as posted on the venue wall."""
    rows = [
        {"name": s.registration.name, "pod": s.pod.number, "seat": s.position + 1}
        for s in Seat.objects.filter(pod__event=event, registration__isnull=False).select_related("registration", "pod")
    ]
    return sorted(rows, key=lambda r: (r["name"].casefold(), r["pod"], r["seat"]))


# --- staff views ------------------------------------------------------------------------------

# The pod log's entries of a paper call.
CALL_ACTIONS = tuple(CallAction)


def call_log(pod: Pod, limit: int = 30) -> list[dict]:
    """The pod's controls, newest first, with who and when (staff only: reasons may name players)."""
    entries = (
        PodLogEntry.objects.filter(pod=pod, action__in=CALL_ACTIONS)
        .select_related("actor")
        .order_by("-at", "-pk")[:limit]
    )
    out = []
    for entry in entries:
        details = entry.details or {}
        text = str(CallAction(entry.action).label)
        if details.get("round") and details.get("pick"):
            text += " " + str(
                _("(round %(round)s, pick %(pick)s)") % {"round": details["round"], "pick": details["pick"]}
            )
        if details.get("flight"):
            text += " " + str(_("(flight %(number)s)") % {"number": details["flight"]})
        out.append(
            {
                "at": entry.at,
                "action": entry.action,
                "text": text,
                "reason": details.get("reason", ""),
                "by": entry.actor.get_username() if entry.actor_id else "",
            }
        )
    return out


PHASE_LABELS = {
    schedule.PICK: _("Pick timer"),
    schedule.REVIEW: _("Review"),
    schedule.DECK_BUILDING: _("Deck building"),
}


def pod_glance(pod: Pod, now: dt.datetime) -> dict:
    """One dashboard row of a paper pod (as ``paper.services.settle_if_due`` returned it):
    state, round, pick, time left, who paused it and why."""
    called, call = current_call(pod, now)
    pauses = open_pauses(called) if call.paused else []
    return {
        "pod": pod,
        "paper": True,
        "call": call,
        "seats": pod.seats.count(),
        "flight": called.flight.number if called and called.flight_id else None,
        "pick": str(call.pick) if call.pick else None,
        "clock": {
            "deadline": call.ends_at,
            "remaining_ms": call.remaining_ms,
            "paused": call.paused,
            "label": PHASE_LABELS.get(call.phase) if call.step else None,
        },
        "pauses": [
            {
                "by": p.paused_by.get_username() if p.paused_by_id else "",
                "reason": p.reason,
                "since": p.started_at,
                "flight": p.flight.number if p.flight_id else None,
            }
            for p in pauses
        ],
        "holding_up": [],
        "offline": [],
    }


def event_rows(event: Event, now: dt.datetime) -> list[dict]:
    """The dashboard's rows of a paper event (its pods settled first: ``paper.services.settle_event_if_due``)."""
    return [pod_glance(p, now) for p in event.pods.select_related("event").order_by("number")]


def may_control(user, pod: Pod) -> bool:
    """Judges' controls (pause, resume, repeat, skip, restart): the event's organisers and judges."""
    return permissions.sees_everything(user, pod.event)


def posted_dfc(posted_id: int) -> PostedDfc | None:
    return PostedDfc.objects.select_related("seat__registration").filter(pk=posted_id).first()


def flight(flight_id: int) -> Flight | None:
    return Flight.objects.select_related("event").filter(pk=flight_id).first()


def flights(event: Event):
    return Flight.objects.filter(event=event).order_by("number")


def calls_by_pod(event: Event) -> dict[int, CalledPod]:
    """The event's pod calls, by pod id (pods never called have none)."""
    return {c.pod_id: c for c in CalledPod.objects.filter(pod__event=event)}
