"""Registering a player for an event: an account (under the name the site shows for it) or a
guest by name. Joining by an open-registration link (capacity, waitlist) is accounts', which
registers through here."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from draftsite.errors import ConflictError, DomainError
from draftsite.names import has_visible_character
from events import error_codes, extensions
from events.access import SYSTEM, Permission, access_event, authorize
from events.models import Event, Registration

MAX_NAME = 100  # Registration.name: a longer name is refused, never cut


@transaction.atomic
def register_player(
    *, event_id: int, user=None, name: str | None = None, actor, share_pick_data: bool = False
) -> Registration:
    """Register an account (name defaults to the account's display name) or a guest by name.

    ``actor`` registers themself, or, as an organiser of the event (or ``SYSTEM``), anyone."""
    event = access_event(event_id)
    if actor is not SYSTEM and (actor is None or name is not None or user is None or user.pk != actor.pk):
        authorize(actor, event, Permission.ORGANISER)
    display = (name or "").strip()
    if user is None and not display:
        raise DomainError(error_codes.INVALID_NAME, gettext("A guest needs a name."), field="name")
    if display and not has_visible_character(display):
        raise DomainError(
            error_codes.INVALID_NAME,
            gettext("A name needs at least one visible letter, digit or symbol."),
            field="name",
        )
    if name is not None and len(display) > MAX_NAME:
        raise DomainError(
            error_codes.INVALID_NAME,
            gettext("A name has at most %(limit)s characters.") % {"limit": MAX_NAME},
            field="name",
        )
    if user is not None and Registration.objects.filter(event=event, user=user).exists():
        if actor is not SYSTEM and actor.pk != user.pk:  # an organiser registering someone else
            raise ConflictError(
                error_codes.ALREADY_REGISTERED,
                gettext("%(name)s is already registered for this event.") % {"name": user.get_username()},
            )
        raise ConflictError(error_codes.ALREADY_REGISTERED, gettext("You are already registered for this event."))
    if not display:
        return create_account_registration(event, user, share_pick_data=bool(share_pick_data))
    try:
        with transaction.atomic():
            return Registration.objects.create(
                event=event, user=user, name=display[:MAX_NAME], share_pick_data=bool(share_pick_data)
            )
    except IntegrityError:
        raise ConflictError(
            error_codes.ALREADY_REGISTERED,
            gettext("Someone called %(display)s is already registered.") % {"display": repr(display)},
        ) from None


def create_account_registration(
    event: Event, user, *, name: str | None = None, share_pick_data: bool = False
) -> Registration:
    """Register ``user`` (not registered yet) under the one name the site shows for a player: the
    account's display name, or, when someone in the event has it already, that name with the
    username. Pairings, standings, slips and exports all read ``Registration.name`` (issue 46:
    players added by username showed their username). The unique name constraint decides, so
    the common case is one insert. ``name``: the display name when the caller read it already."""
    name = (extensions.players().display_name(user) if name is None else name).strip()[:100] or user.get_username()
    fallback = f"{name[:60]} ({user.get_username()})"[:100]
    for candidate in (name, fallback):
        try:
            with transaction.atomic():
                return Registration.objects.create(
                    event=event, user=user, name=candidate, share_pick_data=share_pick_data
                )
        except IntegrityError:
            continue
    raise ConflictError(
        error_codes.ALREADY_REGISTERED,
        gettext("Someone called %(display)s is already registered.") % {"display": repr(fallback)},
    )
