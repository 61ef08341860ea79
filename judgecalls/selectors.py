"""Reads of judge calls: the staff queue, a player's own call (status and judge only)."""

from __future__ import annotations

from datetime import timedelta

from judgecalls.models import CallStatus, JudgeCall
from penalties.models import Penalty, PenaltyStatus

# How long the caller's box says their call was resolved (then it offers the button alone).
RESOLVED_NOTICE = timedelta(minutes=10)


def _base():
    return JudgeCall.objects.select_related(
        "caller", "claimed_by", "escalated_by", "resolved_by", "match", "match__round", "seat", "seat__pod"
    )


def call_by_id(call_id: int) -> JudgeCall | None:
    return _base().select_related("event").filter(pk=call_id).first()


def open_calls(event_id: int) -> list[JudgeCall]:
    """Every unresolved call of the event, oldest first (the order judges take them)."""
    return list(_base().filter(event_id=event_id).exclude(status=CallStatus.RESOLVED).order_by("created_at", "pk"))


def recently_resolved(event_id: int, limit: int = 10) -> list[JudgeCall]:
    return list(_base().filter(event_id=event_id, status=CallStatus.RESOLVED).order_by("-resolved_at", "-pk")[:limit])


def call_players(call: JudgeCall) -> set[int]:
    """The registrations a penalty linked to the call may be for: the caller, and at a table
    both players (``services.resolve_call`` checks the same)."""
    players = {call.caller_id}
    if call.match is not None:
        players |= {p for p in (call.match.player_a_id, call.match.player_b_id) if p is not None}
    return players


def linkable_penalties(calls: list[JudgeCall]) -> dict[int, list[Penalty]]:
    """For each call, the event's penalties of its players that a judge may link to it (not
    withdrawn), newest first: what the resolve form offers instead of a bare number."""
    if not calls:
        return {}
    players = {call.pk: call_players(call) for call in calls}
    penalties = list(
        Penalty.objects.filter(
            event_id__in={call.event_id for call in calls},
            registration_id__in=set().union(*players.values()),
        )
        .exclude(status=PenaltyStatus.WITHDRAWN)
        .select_related("registration", "infraction")
        .order_by("-issued_at", "-pk")
    )
    return {
        call.pk: [p for p in penalties if p.event_id == call.event_id and p.registration_id in players[call.pk]]
        for call in calls
    }


def age_seconds(call: JudgeCall, now) -> int:
    return max(0, int((now - call.created_at).total_seconds()))


def players_open_call(registration_id: int) -> JudgeCall | None:
    """The player's own unresolved call, if any (what the caller sees: status and judge)."""
    return _base().filter(caller_id=registration_id).exclude(status=CallStatus.RESOLVED).first()


def players_recently_resolved(registration_id: int, now) -> JudgeCall | None:
    """The player's call resolved in the last minutes (the box says so for a while)."""
    return (
        _base()
        .filter(caller_id=registration_id, status=CallStatus.RESOLVED, resolved_at__gte=now - RESOLVED_NOTICE)
        .order_by("-resolved_at", "-pk")
        .first()
    )


def public_view(call: JudgeCall) -> dict:
    """What the caller may read of their call: never another player's data."""
    judge = call.claimed_by
    return {
        "id": call.pk,
        "status": call.status,
        "judge": (judge.get_full_name() or judge.get_username()) if judge else None,
        "created_at": call.created_at.isoformat(),
    }
