"""Fetch a pod or seat and check the caller's permission on it, in one step: the draft engine's
part of the one access layer (``events.access``: the event, ``authorize``, ``SYSTEM``). A pod
or seat that is not there, or not the caller's, answers the same code and message wherever it
is asked."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext

from drafts import error_codes, permissions
from drafts.models import Pod, Seat
from draftsite.errors import ForbiddenError, NotFoundError
from events import permissions as event_permissions
from events.access import SYSTEM, Permission, authorize, denied
from events.models import Event


def authorize_pod(actor, pod: Pod, permission: Permission, *, message: str | Promise | None = None) -> None:
    """Refuse ``actor`` (a user or ``SYSTEM``, as in ``authorize``) unless they have
    ``permission`` on ``pod``: POD_MEMBER, or a permission on its event."""
    if actor is SYSTEM:
        return
    if permission != Permission.POD_MEMBER:
        authorize(actor, pod.event, permission, message=message)
        return
    if actor is not None and (
        event_permissions.sees_everything(actor, pod.event) or permissions.seat_in_pod(actor, pod.pk) is not None
    ):
        return
    refusal = denied(permission)
    raise refusal if message is None else ForbiddenError(refusal.code, str(message))


def access_own_seat(actor, pod: Pod, *, message: str | Promise | None = None) -> Seat:
    """The actor's own seat in ``pod``: only its players (not its staff) act from a seat."""
    seat = permissions.seat_in_pod(actor, pod.pk) if actor is not None and actor is not SYSTEM else None
    if seat is None:
        refusal = denied(Permission.POD_MEMBER)
        raise refusal if message is None else ForbiddenError(refusal.code, str(message))
    return seat


def access_pod(pod_id: int, user=None, *, permission: Permission | None = None) -> Pod:
    """The pod ``pod_id`` with its event, if ``user`` (as in ``access_event``) has ``permission``
    (ORGANISER, STAFF or POD_MEMBER)."""
    pod = Pod.objects.select_related("event").filter(pk=pod_id).first()
    if pod is None:
        raise NotFoundError(error_codes.UNKNOWN_POD, gettext("No pod has id %(pk)s.") % {"pk": pod_id})
    if permission is not None:
        authorize_pod(user, pod, permission)
    return pod


def access_seat(seat_id: int, user=None, *, permission: Permission | None = None) -> Seat:
    """The seat ``seat_id`` with its registration, pod and event, if ``user`` (as in
    ``access_event``) has ``permission`` (SEAT_OWNER, SEAT_READER or ORGANISER)."""
    seat = Seat.objects.select_related("registration", "pod__event").filter(pk=seat_id).first()
    if seat is None:
        raise NotFoundError(error_codes.UNKNOWN_SEAT, gettext("No seat has id %(pk)s.") % {"pk": seat_id})
    if permission is None or user is SYSTEM:
        return seat
    if permission == Permission.SEAT_OWNER:
        allowed = permissions.owns_seat(user, seat)  # None and anonymous users own no seat
    elif permission == Permission.SEAT_READER:
        allowed = permissions.owns_seat(user, seat) or event_permissions.sees_everything(user, seat.pod.event)
    else:
        authorize(user, seat.pod.event, permission)
        return seat
    if not allowed:
        raise denied(permission)
    return seat


def access_pod_seat(pod: Pod, seat_id: int) -> Seat:
    """A seat that must belong to ``pod`` (organiser controls aimed at one seat)."""
    seat = Seat.objects.select_related("registration").filter(pk=seat_id, pod=pod).first()
    if seat is None:
        raise NotFoundError(error_codes.UNKNOWN_SEAT, gettext("No such seat in this pod."))
    return seat


def sees_log_packs(user, event: Event) -> bool:
    """Pack contents in a draft log reveal other seats' cards (R16): staff always see them,
    players only once the event's decklists are published."""
    return event_permissions.sees_everything(user, event) or event.decklists_published
