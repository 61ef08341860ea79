"""Downloads: a deck or a pool in a client's format, and the organiser's zip of an event.

Who may download what is who may see it: a deck as its page (its player and the staff; anyone
once decklists are published), a pool its player and the staff only, the zip the organisers.
A draft still running has no pool to export (409): picks stay hidden until it is over.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, JsonResponse
from django.utils.translation import gettext

from decks import error_codes, exporting, exports, pickdata, selectors
from decks.views.common import _event, event_for, visible_deck_page
from draftsite import whole_numbers
from draftsite.errors import DomainError, ForbiddenError, NotFoundError, answers_json
from events.access import Permission


def _refusal(exc: DomainError) -> HttpResponse:
    """A domain error as the API's error body (the page is a download, not a form)."""
    if isinstance(exc, ForbiddenError):
        raise PermissionDenied(exc.message)
    if isinstance(exc, NotFoundError) and exc.code != error_codes.NO_POOL:
        raise Http404(exc.message)
    response = JsonResponse({"detail": exc.message, "errors": [exc.as_error()]}, status=exc.status_code)
    response["X-Error-Code"] = exc.code
    return response


def _download(content: str | bytes, name: str, content_type: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Cache-Control"] = "private, no-store"
    return response


@answers_json
def export_deck(request, pk: int):
    deck = visible_deck_page(request, pk)
    try:
        fmt = exporting.export_format(request.GET.get("format"))
        text = exporting.render(fmt, exporting.deck_list(deck))
    except DomainError as exc:
        return _refusal(exc)
    stem = f"deck-{deck.registration.name}"
    return _download(text, exporting.file_name(stem, fmt), fmt.content_type)


@answers_json
@login_required
def export_pool(request, event_id: int):
    event = _event(event_id)
    try:
        registration_id = whole_numbers.from_request(request.GET, "registration")
        registration = selectors.access_registration(request.user, event, registration_id)
        fmt = exporting.export_format(request.GET.get("format"))
        text = exporting.render(fmt, exporting.require_pool_list(registration))
    except DomainError as exc:
        return _refusal(exc)
    return _download(text, exporting.file_name(f"pool-{registration.name}", fmt), fmt.content_type)


@answers_json
@login_required
def export_event(request, event_id: int):
    event = event_for(
        request,
        event_id,
        Permission.ORGANISER,
        gettext("Only the event's organisers may download every pool and deck."),
    )
    try:
        pod_id = whole_numbers.from_request(request.GET, "pod")
    except DomainError as exc:
        return _refusal(exc)
    if pod_id is not None and not event.pods.filter(pk=pod_id).exists():
        return _refusal(
            DomainError(error_codes.UNKNOWN_POD, gettext("This event has no pod %(pod)s.") % {"pod": pod_id})
        )
    name = f"{exports.safe_filename(event.name, 'event')}{f'-pod-{pod_id}' if pod_id else ''}-decks.zip"
    return _download(exporting.event_bundle(event, pod_id=pod_id), name, "application/zip")


@answers_json
@login_required
def export_pick_data(request, event_id: int):
    """The event's anonymised picks in 17lands' CSV layout (docs/pick-data.md)."""
    event = event_for(
        request, event_id, Permission.ORGANISER, gettext("Only the event's organisers may download the pick data.")
    )
    try:
        text = pickdata.event_pick_data(event)
    except DomainError as exc:
        return _refusal(exc)
    return _download(text, f"{exports.safe_filename(event.name, 'event')}-picks.csv", "text/csv; charset=utf-8")
