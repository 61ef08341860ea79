"""Reads for event staff management: who runs an event, open invitation links, the event log."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from drafts.models import Event, EventLogEntry, EventStaff, StaffInvitation, StaffRole
from drafts.services.staff import invitation_state

ROLE_ORDER = {StaffRole.ORGANISER: 0, StaffRole.HEAD_JUDGE: 1, StaffRole.JUDGE: 2}


def event_staff(event: Event) -> list[EventStaff]:
    rows = list(EventStaff.objects.filter(event=event).select_related("user"))
    return sorted(rows, key=lambda s: (ROLE_ORDER.get(s.role, 9), s.user.get_username().lower()))


def invitations(event: Event, now: dt.datetime | None = None) -> list[dict]:
    """Every invitation of the event with its state (organisers only: the token is a key)."""
    now = now or timezone.now()
    return [{"invitation": inv, "state": invitation_state(inv, now)}
            for inv in StaffInvitation.objects.filter(event=event).select_related("accepted_by")[:100]]


def invitation_by_token(token: str) -> StaffInvitation | None:
    if not token or "\x00" in token:
        return None
    return StaffInvitation.objects.select_related("event").filter(token=token).first()


def event_log(event: Event, limit: int = 100) -> list[EventLogEntry]:
    return list(EventLogEntry.objects.filter(event=event).select_related("actor").order_by("-at", "-pk")[:limit])
