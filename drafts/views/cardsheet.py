"""The card sheet of an event and the batch look-up of cards a sheet lacks (JSON).

The catalogue is public (the site has public card pages), so neither needs a sign-in: a
spectator with a link is anonymous. What a sheet holds is decided by ``drafts.cardsheet`` from
the event's sets or cube list only, never from its packs (R16).

- ``GET /events/<event id>/cards/<digest>.<language>.json``: the sheet, immutable (cached a
  year, ``ETag`` the digest, 304 on a matching ``If-None-Match``, gzip when accepted). A digest
  that is not the current one is a 302 to the current URL; an unknown event or a language the
  site does not serve is a 404.
- ``GET /events/cards/?ids=1,2,3&printings=4,5``: the same shape for these cards (catalogue
  ids; each with its default printing) and printings (with their cards), in the request's
  language; at most 500 ids in all; unknown ids are left out; cached privately 5 minutes.
"""

from __future__ import annotations

import re

import orjson
from django.http import HttpResponse, HttpResponseRedirect, JsonResponse
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_GET

from drafts import cardsheet, error_codes
from draftsite import whole_numbers
from draftsite.errors import DomainError, NotFoundError, answers_json
from events import access

IMMUTABLE = "public, max-age=31536000, immutable"
BATCH_CACHE = "private, max-age=300"
# Ids past this are not ids of anything (and would overflow the database's integers).
MAX_ID = 2**63 - 1
_GZIP = re.compile(r"(?:^|,)\s*(?:gzip|\*)\s*(?:;\s*q\s*=\s*([0-9.]+))?\s*(?=,|$)", re.IGNORECASE)


def _error(exc: DomainError) -> JsonResponse:
    """The project's one error shape (``draftsite.errors``) outside DRF."""
    response = JsonResponse({"detail": exc.message, "errors": [exc.as_error()]}, status=exc.status_code)
    response["Cache-Control"] = "no-store"
    return response


def accepts_gzip(request) -> bool:
    """Whether ``Accept-Encoding`` allows gzip (``gzip;q=0`` refuses it)."""
    for match in _GZIP.finditer(request.headers.get("Accept-Encoding", "")):
        try:
            if match.group(1) is None or float(match.group(1)) > 0:
                return True
        except ValueError:
            continue
    return False


def _etag_matches(request, digest: str) -> bool:
    header = request.headers.get("If-None-Match", "")
    for tag in header.split(","):
        tag = tag.strip()
        if tag == "*":
            return True
        tag = tag.removeprefix("W/").strip('"').removesuffix("-gzip")
        if tag == digest:
            return True
    return False


@answers_json
@require_GET
def card_sheet(request, event_id: int, digest: str, language: str):
    if event_id > MAX_ID:
        return _error(NotFoundError(error_codes.UNKNOWN_EVENT, gettext("No event has id %(pk)s.") % {"pk": event_id}))
    try:
        event = access.access_event(event_id)
    except NotFoundError as exc:
        return _error(exc)
    if language not in cardsheet.languages():
        return _error(
            NotFoundError(
                error_codes.UNSUPPORTED_LANGUAGE,
                gettext("Card sheets come in these languages: %(languages)s.")
                % {"languages": ", ".join(cardsheet.languages())},
            )
        )
    current = cardsheet.sheet_digest(event, language)
    if digest != current:
        response = HttpResponseRedirect(cardsheet.sheet_url(event, language))
        response["Cache-Control"] = "no-store"
        return response
    gzipped = accepts_gzip(request)
    etag = f'"{current}-gzip"' if gzipped else f'"{current}"'
    if _etag_matches(request, current):
        response = HttpResponse(status=304)
    else:
        sheet = cardsheet.sheet_bytes(event, language, current)
        response = HttpResponse(sheet.gzipped if gzipped else sheet.raw, content_type="application/json")
        if gzipped:
            response["Content-Encoding"] = "gzip"
        response["Content-Length"] = str(len(response.content))
    response["ETag"] = etag
    response["Cache-Control"] = IMMUTABLE
    response["Content-Language"] = language
    patch_vary_headers(response, ("Accept-Encoding",))
    return response


def _ids(request, name: str) -> list[int]:
    """The comma-separated ids of one query parameter (none when it is absent or empty)."""
    values = [part.strip() for value in request.GET.getlist(name) for part in value.split(",")]
    values = [v for v in values if v]
    if len(values) > cardsheet.MAX_BATCH:
        raise DomainError(
            error_codes.TOO_MANY_CARD_IDS,
            gettext("Ask for at most %(limit)s cards at a time.") % {"limit": cardsheet.MAX_BATCH},
            field=name,
        )
    ids = []
    for value in values:
        number = whole_numbers.parse(value, minimum=1, maximum=MAX_ID)
        if number is None:
            raise DomainError(
                error_codes.INVALID_CARD_IDS,
                gettext("Card ids are whole numbers separated by commas, like 12,34."),
                field=name,
            )
        ids.append(number)
    return ids


@answers_json
@require_GET
def card_batch(request):
    try:
        card_ids = _ids(request, "ids")
        printing_ids = _ids(request, "printings")
        if len(card_ids) + len(printing_ids) > cardsheet.MAX_BATCH:
            raise DomainError(
                error_codes.TOO_MANY_CARD_IDS,
                gettext("Ask for at most %(limit)s cards at a time.") % {"limit": cardsheet.MAX_BATCH},
            )
        if not card_ids and not printing_ids:
            raise DomainError(error_codes.NO_CARD_IDS, gettext("Name the cards to look up, like ?ids=12,34."))
    except DomainError as exc:
        return _error(exc)
    language = get_language() or "en"
    if language not in cardsheet.languages():
        language = "en"
    sheet = cardsheet.build_sheet(card_ids, language, printing_ids=printing_ids)
    response = HttpResponse(orjson.dumps(sheet), content_type="application/json")
    response["Cache-Control"] = BATCH_CACHE
    response["Content-Language"] = language
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response
