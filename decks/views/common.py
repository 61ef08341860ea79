"""What every deck page shares: running a service for a form, and the page look-ups that turn
domain errors into 404 and 403 pages."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext

from decks import selectors
from decks.models import Deck
from drafts.models import Event
from draftsite.errors import DomainError, ForbiddenError, NotFoundError


def run_service(fn):
    """Run a service; domain errors become a message for the form (and a 4xx status).

    Returns ``(result, None, 200)`` or ``(None, error, status)``."""
    try:
        return fn(), None, 200
    except DomainError as exc:
        return None, exc, exc.status_code


def require_staff_page(user, event) -> None:
    if not selectors.is_staff(user, event):
        raise PermissionDenied(gettext("Only the event's judges and organisers may see this page."))


def _event(event_id: int) -> Event:
    try:
        return selectors.event_or_404(event_id)
    except NotFoundError:
        raise Http404(gettext("No such event")) from None


def visible_deck_page(request, pk: int) -> Deck:
    """The deck, if the caller may see it; else the 404 or 403 page."""
    try:
        return selectors.visible_deck(request.user, pk)
    except NotFoundError:
        raise Http404(gettext("No such deck")) from None
    except ForbiddenError:
        raise PermissionDenied(gettext("Decks are private to their player until decklists are published.")) from None
