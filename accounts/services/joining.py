"""Joining an event by its link: capacity, deadline, waitlist, and dropping before seating.

Every join and every drop of an event locks the event's ``JoinLink`` row first, so the count
of registrations it reads is the count it writes against: two people racing for the last
seat get one registration and one waitlist place, and a freed seat moves exactly one
waitlisted person up (the entry is deleted in the same transaction that registers them).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import secrets

from django.conf import settings
from django.db import transaction
from django.db.models import Count, ProtectedError, Q, RestrictedError
from django.urls import reverse
from django.utils.translation import gettext

from accounts import error_codes, selectors
from accounts.models import JoinLink, WaitlistEntry
from accounts.services.mail import send_user_mail
from drafts.models import Seat
from draftsite.errors import ConflictError, DomainError, NotFoundError
from events.access import Permission, access_event, authorize
from events.models import DraftFormat, Event, Registration
from events.services.registrations import create_account_registration, register_player
from events.services.staff import log_event

REGISTERED = "registered"
WAITLISTED = "waitlisted"


@dataclasses.dataclass(frozen=True)
class JoinResult:
    status: str  # REGISTERED or WAITLISTED
    registration: Registration | None = None
    waitlist_entry: WaitlistEntry | None = None
    already: bool = False  # they had joined before: nothing changed
    event: Event | None = None  # the link's event (the join page redirects to it)


@transaction.atomic
def open_registration(
    *,
    event_id: int,
    actor,
    now: dt.datetime,
    capacity: int | None = None,
    deadline: dt.datetime | None = None,
    waitlist: bool = False,
) -> JoinLink:
    """Open (or re-configure) the event's registration; the link's token is kept."""
    event = access_event(event_id, for_update=True)
    authorize(actor, event, Permission.ORGANISER)
    if capacity is not None and capacity < 1:
        raise DomainError(
            error_codes.INVALID_CAPACITY, gettext("The capacity is at least one player."), field="capacity"
        )
    link = JoinLink.objects.select_for_update().filter(event=event).first()
    if link is None:
        link = JoinLink(event=event, token=secrets.token_urlsafe(24), created_by=actor, created_at=now)
    link.is_open, link.capacity, link.deadline, link.waitlist = True, capacity, deadline, waitlist
    link.save()
    log_event(
        event,
        now,
        "registration_opened",
        actor,
        capacity=capacity,
        deadline=deadline.isoformat() if deadline else None,
        waitlist=waitlist,
    )
    _move_up(link, event)  # a larger capacity frees seats for the waitlist
    if not waitlist:
        WaitlistEntry.objects.filter(event=event).delete()
    return link


@transaction.atomic
def close_registration(*, event_id: int, actor, now: dt.datetime) -> JoinLink:
    event = access_event(event_id, for_update=True)
    authorize(actor, event, Permission.ORGANISER)
    link = JoinLink.objects.select_for_update().filter(event=event).first()
    if link is None:
        raise NotFoundError(error_codes.UNKNOWN_JOIN_LINK, gettext("Registration was never opened for this event."))
    link.is_open = False
    link.save(update_fields=["is_open"])
    log_event(event, now, "registration_closed", actor)
    return link


def _locked_link(token: str) -> JoinLink:
    if not token or "\x00" in token or len(token) > 64:
        raise NotFoundError(error_codes.UNKNOWN_JOIN_LINK, gettext("This join link is not valid."))
    # Only the link's row: a plain FOR UPDATE over the join would lock the event's row too,
    # which open/close_registration lock before the link (a deadlock), and which every insert
    # referencing the event (its FK check) would queue behind.
    link = JoinLink.objects.select_for_update(of=("self",)).select_related("event").filter(token=token).first()
    if link is None:
        raise NotFoundError(error_codes.UNKNOWN_JOIN_LINK, gettext("This join link is not valid."))
    return link


def _has_room(link: JoinLink, event: Event) -> bool:
    return link.capacity is None or Registration.objects.filter(event=event).count() < link.capacity


@transaction.atomic
def join_event(*, token: str, user, now: dt.datetime) -> JoinResult:
    """Register ``user`` through the join link, or put them on the waitlist when full.

    Every joiner of the event queues on the link's row lock, so as little as possible happens
    while it is held: the name is read before it; the count (with whether they are registered,
    one statement) and their waitlist place after it, in statements begun after the wait (one
    begun before would count with a snapshot from before it)."""
    name = selectors.display_name(user)
    link = _locked_link(token)
    event = link.event
    counts = Registration.objects.filter(event=event).aggregate(
        taken=Count("pk"), mine=Count("pk", filter=Q(user=user))
    )
    if counts["mine"]:
        registration = Registration.objects.get(event=event, user=user)
        return JoinResult(REGISTERED, registration=registration, already=True, event=event)
    entry = WaitlistEntry.objects.filter(event=event, user=user).first()
    if entry is not None:
        return JoinResult(WAITLISTED, waitlist_entry=entry, already=True, event=event)
    if not link.is_open or (link.deadline is not None and now > link.deadline):
        raise ConflictError(error_codes.REGISTRATION_CLOSED, gettext("Registration for this event is closed."))
    if link.capacity is None or counts["taken"] < link.capacity:
        return JoinResult(REGISTERED, registration=create_account_registration(event, user, name=name), event=event)
    if not link.waitlist:
        raise ConflictError(error_codes.REGISTRATION_FULL, gettext("This event is full."))
    entry = WaitlistEntry.objects.create(event=event, user=user, created_at=now)
    return JoinResult(WAITLISTED, waitlist_entry=entry, event=event)


@transaction.atomic
def self_register(*, event_id: int, user, now: dt.datetime, share_pick_data: bool = False) -> JoinResult:
    """A player registers themself for an event (the API's empty-body registration, the event
    page's button). An event with a join link takes players only through it (capacity,
    deadline, waitlist); one without registers them as before. Twice is refused."""
    event = access_event(event_id)
    link = JoinLink.objects.filter(event=event).values_list("token", flat=True).first()
    if link is None:
        registration = register_player(event_id=event.pk, user=user, actor=user, share_pick_data=share_pick_data)
        return JoinResult(REGISTERED, registration=registration)
    result = join_event(token=link, user=user, now=now)
    if result.already and result.status == WAITLISTED:
        raise ConflictError(error_codes.ALREADY_WAITLISTED, gettext("You are on the waitlist of this event already."))
    if result.already:
        raise ConflictError(error_codes.ALREADY_REGISTERED, gettext("You are already registered for this event."))
    return result


@transaction.atomic
def drop_registration(*, event_id: int, user, now: dt.datetime) -> None:
    """A player leaves an event before seating (or leaves its waitlist); the first on the
    waitlist takes the freed place and is told by email."""
    event = access_event(event_id)
    link = JoinLink.objects.select_for_update().filter(event=event).first()
    registration = Registration.objects.select_for_update().filter(event=event, user=user).first()
    if registration is None:
        if not _leave_waitlist(event, user, now):
            raise NotFoundError(error_codes.NOT_REGISTERED, gettext("You are not registered for this event."))
        return
    if Seat.objects.filter(registration=registration).exists():
        raise ConflictError(
            error_codes.ALREADY_SEATED,
            gettext("You are seated already: ask the organiser, or drop from the matches."),
        )
    try:
        with transaction.atomic():
            registration.delete()
    except (ProtectedError, RestrictedError):
        raise ConflictError(
            error_codes.ALREADY_SEATED, gettext("Your registration has a deck or penalty on record: ask the organiser.")
        ) from None
    log_event(event, now, "player_dropped", user, name=registration.name)
    if link is not None:
        _move_up(link, event)


@transaction.atomic
def leave_waitlist(*, event_id: int, user, now: dt.datetime) -> None:
    """A person on an event's waitlist leaves it; everyone behind moves up one place."""
    event = access_event(event_id)
    if not _leave_waitlist(event, user, now):
        raise NotFoundError(error_codes.NOT_WAITLISTED, gettext("You are not on the waitlist of this event."))


def _leave_waitlist(event: Event, user, now: dt.datetime) -> bool:
    deleted, _ = WaitlistEntry.objects.filter(event=event, user=user).delete()
    if deleted:
        log_event(event, now, "waitlist_left", user, name=user.get_username())
    return bool(deleted)


def _move_up(link: JoinLink, event: Event) -> list[Registration]:
    """Fill free places from the waitlist, first come first served (the link row is locked)."""
    moved = []
    while _has_room(link, event):
        entry = WaitlistEntry.objects.filter(event=event).select_related("user").order_by("created_at", "pk").first()
        if entry is None:
            break
        registration = create_account_registration(event, entry.user)
        entry.delete()
        moved.append(registration)
        send_user_mail(
            entry.user,
            "moved_up",
            {"event": event, "url": settings.SITE_URL + reverse("drafts:event-detail", args=[event.pk])},
        )
    return moved


def may_hold_online_seat(registration: Registration, event: Event) -> bool:
    """Guests (no account) draft on paper or as automatic drafters only: an online seat needs
    an account to sign in with. Seating and seat hand-over ask this."""
    return registration.user_id is not None or event.draft_format == DraftFormat.PAPER


def require_online_seat(registration: Registration, event: Event) -> None:
    if not may_hold_online_seat(registration, event):
        raise DomainError(
            error_codes.GUEST_ONLINE_SEAT,
            gettext("%(name)s is a guest: a guest drafts on paper or as an automatic drafter, not online.")
            % {"name": registration.name},
        )
