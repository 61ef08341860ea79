"""Fetch an event and check the caller's permission on it, in one step (a pod's and a seat's
helpers, ``access_pod``, ``access_seat``..., are drafts.access', built on these).

Every look-up by id goes through these helpers (the API, the pages and the
services alike), so "no such thing" and "not yours" answer the same code and message wherever
they are asked. A helper raises ``NotFoundError`` or ``ForbiddenError``; the API renders them
as JSON, the pages turn them into their 404 and 403 pages (``draftsite.pages``).

This is the one access module of the project (issue 31): every app's event-role checks go
through ``authorize`` (or ``access_event``), and each refusal has one code wherever it is met
(``denied``): not the event's staff, organiser, head judge... A test
(``tests/test_access_layer.py``) fails when a permission helper is written anywhere else.

Who acts: a person (a user, perhaps anonymous) or ``SYSTEM``, the trusted caller (Celery
tasks, timers, the demo, management commands, simulations, benchmarks), passed explicitly.
``None`` never means the system: ``authorize`` and the ``access_*`` helpers refuse it like an
anonymous user wherever a permission is asked (a look-up without ``permission=`` is only a
look-up). Every service takes the acting user as a required keyword, ``actor`` (no default), as
Zulip's ``acting_user``: a test (``tests/test_access_layer.py``) fails on an ``actor`` with a
default.

Other apps call ``access_event`` for their events too, e.g.
``access_event(event_id)`` (look-up only), ``access_event(event_id, user, permission=Permission.STAFF)``
(``message=`` keeps an app's own wording; the code is the permission's),
``access_event(event_id, draft_format=DraftFormat.PAPER)`` (paper drafts: anything else is
"no paper draft event has id ...") and ``access_event(event_id, for_update=True)`` inside a
transaction (locks the event row).
"""

from __future__ import annotations

from enum import StrEnum

from django.utils.functional import Promise
from django.utils.translation import gettext

from draftsite.errors import ForbiddenError, NotFoundError
from events import error_codes, permissions
from events.models import DraftFormat, Event, StaffRole


class _System:
    """The trusted caller: a task, a timer, the demo data. Never a person."""

    is_authenticated = False
    pk = None

    def __repr__(self) -> str:
        return "SYSTEM"


SYSTEM = _System()


def recorded_user(actor):
    """The user a stored row names for ``actor``: none for ``SYSTEM``."""
    return None if actor is SYSTEM else actor


class Permission(StrEnum):
    """What the caller must be, for the object asked for."""

    MEMBER = "member"  # of an event: its staff, or a registered player
    STAFF = "staff"  # of an event: an organiser or judge (sees every card, read-only for judges)
    ORGANISER = "organiser"  # of the object's event
    POD_MEMBER = "pod_member"  # of a pod: a player seated in it, or the event's staff
    SEAT_OWNER = "seat_owner"  # of a seat: the player holding it
    SEAT_READER = "seat_reader"  # of a seat: its player, or the event's staff (read-only)
    HEAD_JUDGE = "head_judge"  # of an event: its head judge (penalty reviews, appeals)
    RULES_EDITOR = "rules_editor"  # of an event: an organiser or the head judge (how decks are checked)
    PENALTY_READER = "penalty_reader"  # of an event: its staff, or site staff (its penalties)


def denied(permission: Permission) -> ForbiddenError:
    """The refusal of ``permission``: one code and wording wherever it is met."""
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
    if permission == Permission.HEAD_JUDGE:
        return ForbiddenError(error_codes.NOT_HEAD_JUDGE, gettext("Only the event's head judge may decide that."))
    if permission == Permission.RULES_EDITOR:
        return ForbiddenError(
            error_codes.NOT_EVENT_STAFF,
            gettext("Only an organiser or the head judge may change how decks are checked."),
        )
    if permission == Permission.PENALTY_READER:
        return ForbiddenError(
            error_codes.NOT_EVENT_STAFF, gettext("Only the event's judges and organisers see its penalties.")
        )
    return ForbiddenError(error_codes.NOT_YOUR_SEAT, gettext("That is not your seat."))


def _event_allows(user, event: Event | int, permission: Permission) -> bool:
    if permission == Permission.ORGANISER:
        return permissions.is_organiser(user, event)
    if permission == Permission.STAFF:
        return permissions.sees_everything(user, event)
    if permission == Permission.HEAD_JUDGE:
        return StaffRole.HEAD_JUDGE in permissions.event_roles(user, event)
    if permission == Permission.RULES_EDITOR:
        return bool(permissions.event_roles(user, event) & {StaffRole.ORGANISER, StaffRole.HEAD_JUDGE})
    if permission == Permission.PENALTY_READER:
        site_staff = getattr(user, "is_authenticated", False) and (user.is_superuser or user.is_staff)
        return bool(site_staff) or permissions.sees_everything(user, event)
    if permission == Permission.MEMBER:
        if isinstance(event, int):
            event = access_event(event)
        return bool(permissions.event_roles(user, event)) or (
            getattr(user, "is_authenticated", False) and event.registrations.filter(user=user).exists()
        )
    raise ValueError(f"{permission} is not a permission on an event")


def authorize(actor, event: Event | int, permission: Permission, *, message: str | Promise | None = None) -> None:
    """Refuse ``actor`` unless they have ``permission`` on ``event`` (an event or its id).

    ``actor`` is a user (``None`` and anonymous users are refused) or ``SYSTEM`` (trusted).
    ``message`` replaces the standard wording; the code is always the permission's."""
    if actor is SYSTEM or (actor is not None and _event_allows(actor, event, permission)):
        return
    refusal = denied(permission)
    if message is not None:
        refusal = ForbiddenError(refusal.code, str(message))  # an app's wording, perhaps lazy
    raise refusal


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
    message: str | Promise | None = None,
) -> Event:
    """The event ``event_id`` (of ``draft_format``, if given), if ``user`` (a user or ``SYSTEM``;
    ``None`` is refused like an anonymous user) has ``permission``; without ``permission`` only a
    look-up."""
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
        authorize(user, event, permission, message=message)
    return event
