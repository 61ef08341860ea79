"""Reads of the events app: the events a person takes part in, an event's staff, invitations
and log."""

from __future__ import annotations

import datetime as dt

from django.db.models import Q
from django.utils import timezone

from events.models import Event, EventLogEntry, EventStaff, StaffInvitation, StaffRole


def events_taken_part_in(user) -> list[Event]:
    """The events the user runs, judges or plays in (every event for a superuser), newest
    first: the event list's and ``GET /api/events/``."""
    if user.is_superuser:
        return list(Event.objects.all().order_by("-date", "name"))
    return list(
        Event.objects.filter(Q(staff__user=user) | Q(registrations__user=user)).distinct().order_by("-date", "name")
    )


def upcoming_events(*, exclude: list[int], limit: int = 20) -> list[Event]:
    return list(
        Event.objects.filter(date__gte=timezone.localdate()).exclude(pk__in=exclude).order_by("date", "name")[:limit]
    )


# The roles a player of the event should not hold too (the staff pages warn).
JUDGING_ROLES = (StaffRole.HEAD_JUDGE, StaffRole.JUDGE)

ROLE_ORDER: dict[str, int] = {StaffRole.ORGANISER: 0, StaffRole.HEAD_JUDGE: 1, StaffRole.JUDGE: 2}


def event_staff(event: Event) -> list[EventStaff]:
    rows = list(EventStaff.objects.filter(event=event).select_related("user"))
    return sorted(rows, key=lambda s: (ROLE_ORDER.get(s.role, 9), s.user.get_username().lower()))


def invitation_state(invitation: StaffInvitation, now: dt.datetime) -> str:
    if invitation.accepted_at is not None:
        return "accepted"
    if invitation.revoked_at is not None:
        return "revoked"
    if invitation.expires_at <= now:
        return "expired"
    return "open"


def invitations(event: Event, now: dt.datetime | None = None) -> list[dict]:
    """Every invitation of the event with its state (organisers only: the token is a key)."""
    now = now or timezone.now()
    return [
        {"invitation": inv, "state": invitation_state(inv, now)}
        for inv in StaffInvitation.objects.filter(event=event).select_related("accepted_by")[:100]
    ]


def invitation_by_token(token: str) -> StaffInvitation | None:
    if not token or "\x00" in token:
        return None
    return StaffInvitation.objects.select_related("event").filter(token=token).first()


def event_log(event: Event, limit: int = 100) -> list[EventLogEntry]:
    return list(EventLogEntry.objects.filter(event=event).select_related("actor").order_by("-at", "-pk")[:limit])
