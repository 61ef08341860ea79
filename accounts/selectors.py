"""Reads of accounts: a person's profile, name and language, an event's join link and
waitlist."""

from __future__ import annotations

from django.conf import settings
from django.db.models import Count, Q

from accounts.models import JoinLink, Profile, WaitlistEntry

LANGUAGE_CODES = {code for code, _ in settings.LANGUAGES}


def profile_of(user) -> Profile:
    """The stored profile, or an unsaved blank one (accounts made before profiles existed)."""
    return Profile.objects.filter(user_id=user.pk).first() or Profile(user=user)


def language_of(user) -> str:
    """The language to write to ``user`` in: their choice, else the site's default."""
    language = Profile.objects.filter(user_id=user.pk).values_list("language", flat=True).first()
    return language if language in LANGUAGE_CODES else settings.LANGUAGE_CODE


def chosen_display_name(user) -> str:
    """The display name the account's owner chose ("" when none)."""
    return Profile.objects.filter(user_id=user.pk).values_list("display_name", flat=True).first() or ""


def display_name(user) -> str:
    name = Profile.objects.filter(user_id=user.pk).values_list("display_name", flat=True).first()
    return name or user.get_full_name() or user.get_username()


def join_link_of(event_id: int) -> JoinLink | None:
    return JoinLink.objects.filter(event_id=event_id).first()


def open_join_link(token: str) -> JoinLink | None:
    """The link for ``token`` if it exists (open or not); a NUL never reaches the database."""
    if not token or "\x00" in token or len(token) > 64:
        return None
    return JoinLink.objects.select_related("event").filter(token=token).first()


def joining_state(event_id: int, user) -> dict:
    """What the event page offers someone not registered: their place on the waitlist, or
    whether the event is full (and whether joining then means the waitlist)."""
    link = join_link_of(event_id)
    position = waitlist_position(event_id, user)
    taken, _ = places_taken(event_id, user)
    full = link is not None and link.capacity is not None and taken >= link.capacity
    return {"waitlist_position": position, "full": full, "waitlist": bool(link and link.waitlist)}


def places_taken(event_id: int, user) -> tuple[int, bool]:
    """How many are registered for the event, and whether ``user`` is one of them: one query
    for the join page."""
    from events.models import Registration

    registrations = Registration.objects.filter(event_id=event_id)
    if not user.is_authenticated:
        return registrations.count(), False
    counts = registrations.aggregate(taken=Count("pk"), mine=Count("pk", filter=Q(user_id=user.pk)))
    return counts["taken"], counts["mine"] > 0


def waitlist(event_id: int) -> list[WaitlistEntry]:
    return list(WaitlistEntry.objects.filter(event_id=event_id).select_related("user"))


def waitlist_position(event_id: int, user) -> int | None:
    """1 for the first in line; None when not on the waitlist."""
    entry = WaitlistEntry.objects.filter(event_id=event_id, user_id=user.pk).first()
    if entry is None:
        return None
    # The waitlist's own order (created_at, then pk): two joins in one instant keep their order.
    ahead = Q(created_at__lt=entry.created_at) | Q(created_at=entry.created_at, pk__lt=entry.pk)
    return WaitlistEntry.objects.filter(ahead, event_id=event_id).count() + 1


def check_in_of(event_id: int):
    from accounts.models import EventCheckIn

    return EventCheckIn.objects.filter(event_id=event_id).first()


def seatable_registration_ids(event_id: int) -> set[int]:
    """Who seating takes: every registration, or once check-in was opened for the event, the
    checked-in ones only."""
    from events.models import Registration

    registrations = Registration.objects.filter(event_id=event_id)
    if check_in_of(event_id) is not None:
        registrations = registrations.filter(check_in__isnull=False)
    return set(registrations.values_list("pk", flat=True))


def check_in_list(event_id: int) -> dict:
    """The staff's list: who is checked in, who is missing (by name)."""
    from events.models import Registration

    rows = list(Registration.objects.filter(event_id=event_id).select_related("check_in").order_by("name"))
    here = [r for r in rows if hasattr(r, "check_in")]
    missing = [r for r in rows if not hasattr(r, "check_in")]
    return {"here": here, "missing": missing, "total": len(rows)}


def check_in_state(event_id: int, registration) -> dict:
    """For the event page: is check-in open, and is this player checked in."""
    window = check_in_of(event_id)
    checked = registration is not None and window is not None and hasattr(registration, "check_in")
    return {"opened": window is not None, "open": bool(window and window.is_open), "done": checked}
