"""Who runs an event: organisers add, remove and re-role its staff (by username or with an
invitation link), and change its settings. Every change is logged in the event's log.

Each write locks the event row first (``_lock_event``), so two organisers acting at once are
serialised: the last organiser can never be removed by two concurrent removals, and an
invitation is accepted once.
"""

from __future__ import annotations

import datetime as dt
import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from draftsite.errors import ConflictError, DomainError, ForbiddenError, NotFoundError
from events import error_codes, extensions, live, selectors
from events.access import Permission, access_event, authorize, recorded_user
from events.models import EnforcementLevel, Event, EventLogEntry, EventStaff, StaffInvitation, StaffRole

INVITATION_DAYS = 7


def _lock_event(event_id: int) -> Event:
    return access_event(event_id, for_update=True)


def log_event(event: Event, at: dt.datetime, action: str, actor, **details: Any) -> EventLogEntry:
    """Log ``action`` in the event's log, by ``actor``: a user, or ``SYSTEM`` (the row names no user)."""
    return EventLogEntry.objects.create(event=event, at=at, actor=recorded_user(actor), action=action, details=details)


# The wording of the organiser refusal for staff and settings (the code is ``events.access``'s).
ORGANISERS_ONLY = gettext_lazy("Only an organiser of this event may change its staff or settings.")


def _organisers_event(event_id: int, actor) -> Event:
    """The event, locked, for one of its organisers (a write of the staff or the settings)."""
    event = _lock_event(event_id)
    authorize(actor, event, Permission.ORGANISER, message=ORGANISERS_ONLY)
    return event


def _role(role: str) -> str:
    if role not in StaffRole.values:
        raise DomainError(
            error_codes.INVALID_ROLE,
            _("The role must be one of: %(roles)s.") % {"roles": ", ".join(StaffRole.values)},
            field="role",
        )
    return role


def _username(user) -> str:
    return user.get_username() if user is not None else ""


# --- staff ---------------------------------------------------------------------------------


@transaction.atomic
def add_event_staff(*, event_id: int, user, role: str, actor, now: dt.datetime | None = None) -> EventStaff:
    """Give ``user`` a staff role in the event (idempotent: an existing role is kept).

    ``actor`` is checked to be an organiser of the event; internal callers (the demo) pass ``SYSTEM``.
    """
    now = now or timezone.now()
    event = _organisers_event(event_id, actor)
    _role(role)
    staff, created = EventStaff.objects.get_or_create(event=event, user=user, role=role)
    if created:
        log_event(event, now, "staff_added", actor, user=_username(user), role=role)
        live.notify_event_on_commit(event.pk)
    return staff


def add_event_staff_by_username(
    *, event_id: int, username: str, role: str, actor, now: dt.datetime | None = None
) -> EventStaff:
    # The role before anything about the body (a username probe must not reach outsiders).
    event = access_event(event_id)
    authorize(actor, event, Permission.ORGANISER, message=ORGANISERS_ONLY)
    username = (username or "").strip()
    user = get_user_model().objects.filter(username=username).first() if username else None
    if user is None:
        raise DomainError(
            error_codes.UNKNOWN_USER, _("No account is called “%(name)s”.") % {"name": username}, field="username"
        )
    if EventStaff.objects.filter(event=event, user=user, role=_role(role)).exists():
        raise ConflictError(
            error_codes.ALREADY_STAFF,
            _("%(name)s is already %(role)s of this event.")
            % {"name": username, "role": StaffRole(role).label.lower()},
        )
    return add_event_staff(event_id=event_id, user=user, role=role, actor=actor, now=now)


def _staff_row(event: Event, staff_id: int) -> EventStaff:
    staff = EventStaff.objects.select_related("user").filter(pk=staff_id, event=event).first()
    if staff is None:
        raise NotFoundError(
            error_codes.UNKNOWN_STAFF, _("No staff member of this event has id %(id)s.") % {"id": staff_id}
        )
    return staff


def _keep_an_organiser(event: Event, leaving: EventStaff) -> None:
    if (
        leaving.role == StaffRole.ORGANISER
        and not EventStaff.objects.filter(event=event, role=StaffRole.ORGANISER).exclude(pk=leaving.pk).exists()
    ):
        raise ConflictError(
            error_codes.LAST_ORGANISER, _("An event needs at least one organiser: add another before this one leaves.")
        )


@transaction.atomic
def remove_event_staff(*, event_id: int, staff_id: int, actor, now: dt.datetime | None = None) -> None:
    now = now or timezone.now()
    event = _organisers_event(event_id, actor)
    staff = _staff_row(event, staff_id)
    _keep_an_organiser(event, staff)
    staff.delete()
    log_event(event, now, "staff_removed", actor, user=_username(staff.user), role=staff.role)
    live.notify_event_on_commit(event.pk)
    live.notify_staff_changed_on_commit(event.pk, staff.user_id)  # their open pages close now


@transaction.atomic
def change_staff_role(*, event_id: int, staff_id: int, role: str, actor, now: dt.datetime | None = None) -> EventStaff:
    now = now or timezone.now()
    event = _organisers_event(event_id, actor)
    _role(role)
    staff = _staff_row(event, staff_id)
    if staff.role == role:
        return staff
    if EventStaff.objects.filter(event=event, user=staff.user, role=role).exists():
        raise ConflictError(
            error_codes.ALREADY_STAFF,
            _("%(name)s already has that role in this event.") % {"name": _username(staff.user)},
        )
    _keep_an_organiser(event, staff)
    previous = staff.role
    staff.role = role
    staff.save(update_fields=["role"])
    log_event(event, now, "staff_role_changed", actor, user=_username(staff.user), role=role, previous=previous)
    live.notify_event_on_commit(event.pk)
    live.notify_staff_changed_on_commit(event.pk, staff.user_id)
    return staff


# --- invitations ---------------------------------------------------------------------------


@transaction.atomic
def invite_staff(
    *, event_id: int, role: str, actor, now: dt.datetime | None = None, days: int = INVITATION_DAYS
) -> StaffInvitation:
    """A one-use link that makes whoever accepts it staff of the event in ``role``."""
    now = now or timezone.now()
    event = _organisers_event(event_id, actor)
    invitation = StaffInvitation.objects.create(
        event=event,
        role=_role(role),
        token=secrets.token_urlsafe(24),
        created_by=actor,
        created_at=now,
        expires_at=now + dt.timedelta(days=days),
    )
    log_event(event, now, "staff_invited", actor, role=role, invitation=invitation.pk)
    return invitation


@transaction.atomic
def revoke_staff_invitation(
    *, event_id: int, invitation_id: int, actor, now: dt.datetime | None = None
) -> StaffInvitation:
    now = now or timezone.now()
    event = _organisers_event(event_id, actor)
    invitation = StaffInvitation.objects.filter(pk=invitation_id, event=event).first()
    if invitation is None:
        raise NotFoundError(error_codes.INVALID_INVITATION, _("No such invitation for this event."))
    if invitation.accepted_at is not None:
        raise ConflictError(error_codes.INVITATION_USED, _("This invitation has already been accepted."))
    if invitation.revoked_at is None:
        invitation.revoked_at = now
        invitation.save(update_fields=["revoked_at"])
        log_event(event, now, "staff_invitation_revoked", actor, role=invitation.role, invitation=invitation.pk)
    return invitation


@transaction.atomic
def accept_staff_invitation(*, token: str, user, now: dt.datetime | None = None) -> EventStaff:
    """The signed-in ``user`` takes the invitation's role; the link is then used up."""
    now = now or timezone.now()
    if not getattr(user, "is_authenticated", False):
        raise ForbiddenError(error_codes.NOT_AUTHENTICATED, _("Sign in to accept an invitation."))
    found = StaffInvitation.objects.filter(token=token).only("event_id").first() if token else None
    if found is None:
        raise NotFoundError(error_codes.INVALID_INVITATION, _("This invitation link is not valid."))
    event = _lock_event(found.event_id)
    invitation = StaffInvitation.objects.select_for_update().get(pk=found.pk)
    state = selectors.invitation_state(invitation, now)
    if state == "accepted":
        raise ConflictError(error_codes.INVITATION_USED, _("This invitation has already been used."))
    if state in ("revoked", "expired"):
        raise ConflictError(
            error_codes.INVITATION_EXPIRED,
            _("This invitation has expired or was withdrawn; ask the organiser for a new one."),
        )
    staff, created = EventStaff.objects.get_or_create(event=event, user=user, role=invitation.role)
    invitation.accepted_by, invitation.accepted_at = user, now
    invitation.save(update_fields=["accepted_by", "accepted_at"])
    log_event(
        event,
        now,
        "staff_invitation_accepted",
        user,
        user=_username(user),
        role=invitation.role,
        invitation=invitation.pk,
    )
    live.notify_event_on_commit(event.pk)
    return staff


# --- event settings ------------------------------------------------------------------------

EDITABLE_FIELDS = (
    "name",
    "date",
    "enforcement_level",
    "pick_timer",
    "deck_building_minutes",
    "decklist_deadline",
    "decklists_published",
)


def _json_value(value):
    return value.isoformat() if hasattr(value, "isoformat") else value


def _check_settings(changes: dict[str, Any]) -> None:
    """Refuse a setting that cannot change or a value it cannot take (the name is trimmed)."""
    unknown = sorted(set(changes) - set(EDITABLE_FIELDS))
    if unknown:
        raise DomainError(
            error_codes.INVALID_FIELD,
            _("These settings cannot be changed: %(fields)s.") % {"fields": ", ".join(unknown)},
            field=unknown[0],
        )
    if "name" in changes:
        changes["name"] = str(changes["name"]).strip()
        if not changes["name"]:
            raise DomainError(error_codes.INVALID_NAME, _("The event needs a name."), field="name")
    if "enforcement_level" in changes and changes["enforcement_level"] not in EnforcementLevel.values:
        raise DomainError(error_codes.INVALID_CHOICE, _("Unknown enforcement level."), field="enforcement_level")
    minutes = changes.get("deck_building_minutes")
    if minutes is not None and not 1 <= int(minutes) <= 180:
        raise DomainError(
            error_codes.INVALID_MINUTES, _("Deck building lasts 1 to 180 minutes."), field="deck_building_minutes"
        )


@transaction.atomic
def update_event(*, event_id: int, actor, changes: dict[str, Any], now: dt.datetime | None = None) -> Event:
    """Change an event's settings (organisers): validated, logged field by field, and told to
    every live page of the event (publishing decklists changes what players may see)."""
    now = now or timezone.now()
    event = _organisers_event(event_id, actor)
    _check_settings(changes)
    diff = {}
    for field, value in changes.items():
        old = getattr(event, field)
        if old != value:
            diff[field] = [_json_value(old), _json_value(value)]
            setattr(event, field, value)
    if not diff:
        return event
    event.save(update_fields=list(diff))
    log_event(event, now, "event_updated", actor, changes=diff)
    # Whatever follows the settings moves with them (the draft engine's pod versions, so every
    # live page of its pods refreshes), and the dashboards re-read.
    for listener in extensions.settings_listeners():
        listener(event)
    live.notify_event_on_commit(event.pk)
    return event
