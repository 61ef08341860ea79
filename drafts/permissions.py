"""Who holds a seat: a pod's and a seat's own rules (an event's roles are events.permissions')."""

from __future__ import annotations

from drafts.models import Seat


def owns_seat(user, seat: Seat) -> bool:
    return (
        getattr(user, "is_authenticated", False)
        and seat.registration_id is not None
        and seat.registration.user_id == user.pk
    )


def seat_in_pod(user, pod_id: int) -> Seat | None:
    """The user's own seat in a pod, if they have one."""
    if not getattr(user, "is_authenticated", False):
        return None
    return Seat.objects.filter(pod_id=pod_id, registration__user=user).first()
