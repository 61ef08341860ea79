"""Check-in before seating: the player from their phone, or staff ticking a list."""

from __future__ import annotations

import datetime as dt

from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from accounts import error_codes
from accounts.models import CheckIn, EventCheckIn
from draftsite.errors import ConflictError, NotFoundError
from events import live
from events.access import Permission, access_event, authorize
from events.models import Registration
from events.services.staff import log_event


@transaction.atomic
def set_check_in_open(*, event_id: int, actor, now: dt.datetime, is_open: bool) -> EventCheckIn:
    event = access_event(event_id, for_update=True)
    authorize(actor, event, Permission.ORGANISER)
    window, _ = EventCheckIn.objects.select_for_update().get_or_create(event=event, defaults={"opened_at": now})
    window.is_open = is_open
    window.save(update_fields=["is_open"])
    log_event(event, now, "check_in_opened" if is_open else "check_in_closed", actor)
    live.notify_event_on_commit(event.pk)
    return window


def _create(registration: Registration, now: dt.datetime, by) -> CheckIn:
    try:
        with transaction.atomic():
            return CheckIn.objects.create(registration=registration, at=now, by=by)
    except IntegrityError:  # a double tap, or staff ticking at the same moment: one check-in
        return CheckIn.objects.get(registration=registration)


@transaction.atomic
def check_in(*, event_id: int, user, now: dt.datetime) -> CheckIn:
    """The player checks themself in (while check-in is open)."""
    event = access_event(event_id)
    registration = Registration.objects.filter(event=event, user=user).first()
    if registration is None:
        raise NotFoundError(error_codes.NOT_REGISTERED, gettext("You are not registered for this event."))
    window = EventCheckIn.objects.filter(event=event).first()
    if window is None or not window.is_open:
        raise ConflictError(error_codes.CHECK_IN_CLOSED, gettext("Check-in is not open."))
    done = _create(registration, now, user)
    live.notify_event_on_commit(event.pk)
    return done


@transaction.atomic
def staff_check_in(*, event_id: int, registration_id: int, actor, now: dt.datetime, checked: bool) -> None:
    """Staff tick (or untick) a player on the list, open or not."""
    event = access_event(event_id)
    authorize(actor, event, Permission.STAFF)
    registration = Registration.objects.filter(event=event, pk=registration_id).first()
    if registration is None:
        raise NotFoundError(error_codes.UNKNOWN_REGISTRATION, gettext("No such player in this event."))
    if checked:
        _create(registration, now, actor)
    else:
        CheckIn.objects.filter(registration=registration).delete()
    live.notify_event_on_commit(event.pk)
