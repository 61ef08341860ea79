"""Who may do what in an event: their staff roles in it. Checked on the server for every call
(events.access asks these; a pod's and a seat's own rules are drafts.permissions')."""

from __future__ import annotations

from events import roles
from events.models import Event, EventStaff, StaffRole

JUDGING_ROLES = (StaffRole.ORGANISER, StaffRole.HEAD_JUDGE, StaffRole.JUDGE)


def event_roles(user, event: Event | int) -> set[str]:
    """The user's staff roles in one event (a superuser holds them all)."""
    if not getattr(user, "is_authenticated", False):
        return set()
    if user.is_superuser:
        return set(StaffRole.values)
    event_id = event if isinstance(event, int) else event.pk
    return set(EventStaff.objects.filter(event_id=event_id, user=user).values_list("role", flat=True))


def can_create_event(user) -> bool:
    return getattr(user, "is_authenticated", False) and (user.is_superuser or roles.has_role(user, roles.ORGANISER))


def is_organiser(user, event: Event | int) -> bool:
    return StaffRole.ORGANISER in event_roles(user, event)


def sees_everything(user, event: Event | int) -> bool:
    """Organisers and judges of the event see every card of every pod (read-only for judges)."""
    return bool(event_roles(user, event) & set(JUDGING_ROLES))
