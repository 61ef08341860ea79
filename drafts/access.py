"""Fetch an event, pod or seat and check the caller's permission on it, in one step.

Every look-up by id in the draft engine goes through these helpers (the API, the pages and the
services alike), so "no such thing" and "not yours" answer the same code and message wherever
they are asked. A helper raises ``NotFoundError`` or ``ForbiddenError``; the API renders them
as JSON, the pages turn them into their 404 and 403 pages (``drafts.views.common``).

``user=None`` (the default) skips the permission check: system callers (Celery tasks, timers,
the demo, benchmarks) are trusted. A service that acts for a person passes that person.

Other apps call ``access_event`` for their events too, e.g.
``access_event(event_id)`` (look-up only), ``access_event(event_id, user, permission=Permission.STAFF)``
(``code=`` and ``message=`` keep an app's own refusal, e.g. ``not_organiser``),
``access_event(event_id, draft_format=DraftFormat.PAPER)`` (paper drafts: anything else is
"no paper draft event has id ...") and ``access_event(event_id, for_update=True)`` inside a
transaction (locks the event row).
"""

from __future__ import annotations

from enum import StrEnum

from django.utils.translation import gettext

from drafts import error_codes, permissions
from drafts.models import DraftFormat, Event, Pod, Seat
from draftsite.errors import ForbiddenError, NotFoundError


class Permission(StrEnum):
    """What the caller must be, for the object asked for."""

    MEMBER = "member"  # of an event: its staff, or a registered player
    STAFF = "staff"  # of an event: an organiser or judge (sees every card, read-only for judges)
    ORGANISER = "organiser"  # of the object's event
    POD_MEMBER = "pod_member"  # of a pod: a player seated in it, or the event's staff
    SEAT_OWNER = "seat_owner"  # of a seat: the player holding it
    SEAT_READER = "seat_reader"  # of a seat: its player, or the event's staff (read-only)


def _denied(permission: Permission) -> ForbiddenError:
    if permission == Permission.MEMBER:
        return ForbiddenError(error_codes.NOT_EVENT_STAFF, gettext("You are not part of this event."))
    if permission == Permission.STAFF:
        return ForbiddenError(
            error_codes.NOT_EVENT_STAFF, gettext("Only the event's organisers and judges may see that.")
        )
    if permission == Permission.ORGANISER:
        return ForbiddenError(error_codes.NOT_EVENT_STAFF, gettext("Only an organiser of this event may do that."))
    if permission == Permission.POD_MEMBER:
        return ForbiddenError(error_codes.NOT_IN_POD, gettext("You are not in this pod."))
    return ForbiddenError(error_codes.NOT_YOUR_SEAT, gettext("That is not your seat."))


def _event_allows(user, event: Event, permission: Permission) -> bool:
    if permission == Permission.ORGANISER:
        return permissions.is_organiser(user, event)
    if permission == Permission.STAFF:
        return permissions.sees_everything(user, event)
    if permission == Permission.MEMBER:
        return bool(permissions.event_roles(user, event)) or (
            getattr(user, "is_authenticated", False) and event.registrations.filter(user=user).exists()
        )
    raise ValueError(f"{permission} is not a permission on an event")


def require(user, event: Event, permission: Permission, message: str | None = None, code: str | None = None) -> None:
    """Refuse ``user`` unless they have ``permission`` on ``event`` (``None``: a trusted system
    caller). ``message`` and ``code`` replace the standard refusal's (an app that has its own
    wording or code for the refusal keeps it)."""
    if user is None or _event_allows(user, event, permission):
        return
    denied = _denied(permission)
    if message is not None or code is not None:
        denied = ForbiddenError(code or denied.code, message or denied.message)
    raise denied


def require_event_creator(user) -> None:
    if not permissions.can_create_event(user):
        raise ForbiddenError(error_codes.NOT_EVENT_STAFF, gettext("Only organisers may create events."))


def access_event(
    event_id: int,
    user=None,
    *,
    permission: Permission | None = None,
    draft_format: str | None = None,
    for_update: bool = False,
    message: str | None = None,
    code: str | None = None,
) -> Event:
    """The event ``event_id`` (of ``draft_format``, if given), if ``user`` has ``permission``."""
    events = Event.objects.select_for_update() if for_update else Event.objects
    events = events.filter(pk=event_id)
    if draft_format is not None:
        events = events.filter(draft_format=draft_format)
    event = events.first()
    if event is None:
        if draft_format == DraftFormat.PAPER:
            raise NotFoundError(
                error_codes.UNKNOWN_EVENT, gettext("No paper draft event has id %(pk)s.") % {"pk": event_id}
            )
        raise NotFoundError(error_codes.UNKNOWN_EVENT, gettext("No event has id %(pk)s.") % {"pk": event_id})
    if permission is not None:
        require(user, event, permission, message, code)
    return event


def access_pod(pod_id: int, user=None, *, permission: Permission | None = None) -> Pod:
    """The pod ``pod_id`` with its event, if ``user`` has ``permission`` (ORGANISER, STAFF or
    POD_MEMBER)."""
    pod = Pod.objects.select_related("event").filter(pk=pod_id).first()
    if pod is None:
        raise NotFoundError(error_codes.UNKNOWN_POD, gettext("No pod has id %(pk)s.") % {"pk": pod_id})
    if permission is None or user is None:
        return pod
    if permission == Permission.POD_MEMBER:
        if not (permissions.seat_in_pod(user, pod.pk) or permissions.sees_everything(user, pod.event)):
            raise _denied(permission)
        return pod
    require(user, pod.event, permission)
    return pod


def access_seat(seat_id: int, user=None, *, permission: Permission | None = None) -> Seat:
    """The seat ``seat_id`` with its registration, pod and event, if ``user`` has
    ``permission`` (SEAT_OWNER, SEAT_READER or ORGANISER)."""
    seat = Seat.objects.select_related("registration", "pod__event").filter(pk=seat_id).first()
    if seat is None:
        raise NotFoundError(error_codes.UNKNOWN_SEAT, gettext("No seat has id %(pk)s.") % {"pk": seat_id})
    if permission is None or user is None:
        return seat
    if permission == Permission.SEAT_OWNER:
        allowed = permissions.owns_seat(user, seat)
    elif permission == Permission.SEAT_READER:
        allowed = permissions.owns_seat(user, seat) or permissions.sees_everything(user, seat.pod.event)
    else:
        require(user, seat.pod.event, permission)
        return seat
    if not allowed:
        raise _denied(permission)
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
    return permissions.sees_everything(user, event) or event.decklists_published
