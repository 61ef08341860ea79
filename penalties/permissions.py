"""Who may see and do what with penalties. Every page and API call asks these, per object."""

from __future__ import annotations

from events.models import StaffRole
from events.permissions import JUDGING_ROLES, event_roles


def is_site_staff(user) -> bool:
    return bool(getattr(user, "is_authenticated", False) and (user.is_superuser or user.is_staff))


def judges_event(user, event) -> bool:
    """Organisers, head judges and judges of the event (superusers hold every role)."""
    return bool(event_roles(user, event) & set(JUDGING_ROLES))


def is_head_judge(user, event) -> bool:
    return StaffRole.HEAD_JUDGE in event_roles(user, event)


def sees_event_penalties(user, event) -> bool:
    """The event's judges and organisers, and site staff."""
    return judges_event(user, event) or is_site_staff(user)


def owns_penalty(user, penalty) -> bool:
    return bool(getattr(user, "is_authenticated", False) and penalty.registration.user_id == user.pk)


def can_view_penalty(user, penalty) -> bool:
    return owns_penalty(user, penalty) or sees_event_penalties(user, penalty.event_id)
