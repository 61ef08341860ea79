"""Card catalogue pages: search with suggestions, and a card page showing every face."""

import threading

from django import db
from django.conf import settings
from django.core.paginator import Paginator
from django.db import transaction
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import get_language, gettext, gettext_lazy
from django.views.decorators.http import require_GET

from cards import images, languages, selectors, tasks
from cards.models import CardImage, Layout

PAGE_SIZE = 30


def card_search(request):
    query = request.GET.get("q", "")[: selectors.MAX_QUERY_LENGTH]
    layout = request.GET.get("layout", "")
    if layout not in Layout.values:
        layout = ""
    sets = selectors.set_choices()
    set_code = request.GET.get("set", "").strip().upper()
    if set_code not in {code for code, _label in sets}:
        set_code = ""
    results = selectors.search_cards(query, layout=layout or None, set_code=set_code or None)
    page = Paginator(results, PAGE_SIZE).get_page(request.GET.get("page"))
    checklists = selectors.search_checklists(query) if query else []
    suggestions = selectors.suggest_names(query) if query and not page.paginator.count and not checklists else []
    # Each result's name as printed in the reader's language, beside the English one.
    local = selectors.printed_names(page.object_list, get_language() or "")
    for card in page.object_list:
        card.local_name = " // ".join(local.get(card.pk, []))
    return render(
        request,
        "cards/search.html",
        {
            "title": gettext("Cards matching “%(query)s”") % {"query": query} if query else gettext("Card catalogue"),
            "query": query,
            "layout": layout,
            "layouts": Layout.choices,
            "set_code": set_code,
            "sets": sets,
            "page": page,
            "suggestions": suggestions,
            "checklists": checklists,
        },
    )


def card_detail(request, pk: int):
    card = selectors.card_by_id(pk)
    if card is None:
        raise Http404(gettext("No such card"))
    faces = list(card.faces.all())
    checklists = {entry.checklist for entry in card.checklist_entries.all()}
    printing = next((p for p in card.printings.all() if p.image_uris), None)
    return render(
        request,
        "cards/detail.html",
        {
            "title": card.name,
            "card": card,
            "faces": list(zip(faces, _face_labels(card.layout, len(faces)))),
            "printings": list(card.printings.all()),
            "checklists": sorted(checklists, key=lambda c: (c.set_code, c.collector_number)),
            "image_printing": printing,
            "printed_names": [
                (code, languages.name_of(code), names) for code, names in selectors.printed_names_of(card).items()
            ],
        },
    )


def _face_labels(layout: str, count: int) -> list[str]:
    """What to call each face on the page: front/back, upright/flipped half, and so on."""
    if layout == Layout.FLIP:
        names = [gettext_lazy("Upright half"), gettext_lazy("Flipped half (upside down on the card)")]
    elif layout == Layout.MELD:
        names = [gettext_lazy("Front"), gettext_lazy("Melds into")]
    elif layout in (Layout.TRANSFORM, Layout.MODAL_DFC):
        names = [gettext_lazy("Front face"), gettext_lazy("Back face")]
    elif layout == Layout.ADVENTURE:
        names = [gettext_lazy("Creature"), gettext_lazy("Adventure")]
    elif layout == Layout.SPLIT:
        names = [gettext_lazy("Left half"), gettext_lazy("Right half")]
    else:
        names = [gettext_lazy("Card")]
    return [names[i] if i < len(names) else gettext("Face %(number)s") % {"number": i + 1} for i in range(count)]


@require_GET
def card_image(request, printing_id: int, face: str, key: str):
    """The site's copy of a card image, cached by browsers for a year (the URL names the
    picture: a new one is a new URL). Without a copy yet: 404 at once, so the page shows the
    card as text, and the copy is fetched once in the background for the next view."""
    row, fetch = images.copy_for(printing_id, face, key, timezone.now())
    if fetch:
        transaction.on_commit(lambda: _fetch_later(printing_id))
    if row is None:
        response = HttpResponse(status=404, content_type="text/plain")
        response["Cache-Control"] = "no-store"
        return response
    etag = f'"{key}"'
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponse(status=304)
    else:
        try:
            stored = images.storage().open(row.stored_name, "rb")
        except (FileNotFoundError, OSError):
            # The file went (a storage emptied by hand): fetched again on the next view.
            CardImage.objects.filter(pk=row.pk).delete()
            response = HttpResponse(status=404, content_type="text/plain")
            response["Cache-Control"] = "no-store"
            return response
        response = FileResponse(stored, content_type=row.content_type)
        response["Content-Length"] = str(row.size)
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    response["ETag"] = etag
    return response


def _fetch_later(printing_id: int) -> None:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        # No worker (make demo without Redis): an eager task would hold this request on the
        # image host; a thread of its own instead.
        threading.Thread(target=_fetch_in_thread, args=(printing_id,), daemon=True).start()
    else:
        tasks.fetch_card_images.delay([printing_id])


def _fetch_in_thread(printing_id: int) -> None:
    try:
        tasks.fetch_card_images([printing_id])
    finally:
        db.connections.close_all()
