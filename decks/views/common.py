"""What every deck page shares: the page look-ups, their refusals turned into the 404 and 403
pages by ``draftsite.pages`` (the one place pages handle domain errors)."""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy

from decks import selectors
from decks.models import Deck
from draftsite.pages import on_page
from events.access import Permission, authorize
from events.models import Event

# The judges' pages refuse everyone but the event's staff with this (the 403 page).
STAFF_PAGE_ONLY = gettext_lazy("Only the event's judges and organisers may see this page.")


def _event(event_id: int) -> Event:
    return on_page(selectors.event_or_404, event_id, not_found=gettext("No such event"))


def event_for(request, event_id: int, permission: Permission, message) -> Event:
    """The event, for a caller with ``permission`` in it: else the 404 or 403 page (``message``)."""
    event = _event(event_id)
    on_page(authorize, request.user, event, permission, message=message)
    return event


def visible_deck_page(request, pk: int) -> Deck:
    """The deck, if the caller may see it; else the 404 or 403 page."""
    return on_page(selectors.visible_deck, request.user, pk, not_found=gettext("No such deck"))
