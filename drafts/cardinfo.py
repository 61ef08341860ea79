"""What a page shows of a card in a draft: catalogue faces plus the opened copy's details.

Catalogue cards and printings do not change during an event, so their rendered parts are kept
per process for a few minutes (and dropped when this process imports cards): a pick or a page then costs no catalogue queries once the pod
is warm. Everything here reads; who may see which card is decided by the callers
(``drafts.selectors`` and the pick answer).

A *card row* is the opened copy as the engine stores it, in the order the fast path returns
it: ``(draft card id, catalogue card id, printing id, rarity, foil, is_dfc)``.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence

from django.db.models import Prefetch

CardRow = Sequence  # (id, card_id, printing_id, rarity, foil, is_dfc)

_TTL = 300.0
_MAX_ENTRIES = 50_000
_card_cache: dict[int, tuple[float, dict]] = {}
_image_cache: dict[int, tuple[float, dict]] = {}


def clear() -> None:
    """Forget everything (tests, and after a catalogue import)."""
    _card_cache.clear()
    _image_cache.clear()


def on_catalogue_imported(**kwargs) -> None:
    """``cards.signals.catalogue_imported``: the catalogue changed under this process's cache
    (other processes forget within the cache's time to live)."""
    clear()


def _cached(cache: dict, keys: set[int], now: float) -> tuple[dict, set[int]]:
    found = {}
    for key in keys:
        hit = cache.get(key)
        if hit is not None and now - hit[0] < _TTL:
            found[key] = hit[1]
    return found, keys - set(found)


def _store(cache: dict, key: int, value, now: float) -> None:
    if len(cache) > _MAX_ENTRIES:
        cache.clear()
    cache[key] = (now, value)


def card_info(card_ids: set[int]) -> dict[int, dict]:
    """Every face of each catalogue card, as pages render it."""
    from django.conf import settings

    from cards.models import Card, CardFace, LocalizedName
    from cards.selectors import printed_names_of

    now = time.monotonic()
    info, missing = _cached(_card_cache, card_ids, now)
    if not missing:
        return info
    cards = Card.objects.filter(pk__in=missing).prefetch_related(
        Prefetch("faces", queryset=CardFace.objects.order_by("position")),
        # The face names printed in the site's languages, so pages show the player's printed
        # name beside the English one.
        Prefetch(
            "localized_names",
            queryset=LocalizedName.objects.filter(language__in=[code for code, _ in settings.LANGUAGES]).order_by(
                "position", "pk"
            ),
        ),
    )
    for card in cards:
        info[card.pk] = {
            "card_id": card.pk,
            "name": card.name,
            "layout": card.layout,
            "is_dfc": card.is_dfc,
            "color_identity": list(card.color_identity),
            "faces": [
                {
                    "name": f.name,
                    "mana_cost": f.mana_cost,
                    "type_line": f.type_line,
                    "oracle_text": f.oracle_text,
                    "power": f.power or None,
                    "toughness": f.toughness or None,
                    "loyalty": f.loyalty or None,
                    "colors": list(f.colors),
                }
                for f in card.faces.all()
            ],
            "printed_names": printed_names_of(card),
        }
        _store(_card_cache, card.pk, info[card.pk], now)
    return info


def images(printing_ids: set[int]) -> dict[int, dict]:
    from cards.images import site_uris
    from cards.models import Printing

    now = time.monotonic()
    found, missing = _cached(_image_cache, printing_ids, now)
    if missing:
        for pk, uris in Printing.objects.filter(pk__in=missing).values_list("pk", "image_uris"):
            found[pk] = site_uris(pk, uris)  # the site's own copies (cards/images.py)
            _store(_image_cache, pk, found[pk], now)
    return found


def missing(rows: Iterable[CardRow]) -> bool:
    """Whether building these rows' payloads would read the catalogue (a cache miss)."""
    now = time.monotonic()
    for row in rows:
        hit = _card_cache.get(row[1])
        if hit is None or now - hit[0] >= _TTL:
            return True
        if row[2]:
            hit = _image_cache.get(row[2])
            if hit is None or now - hit[0] >= _TTL:
                return True
    return False


def payloads(rows: Iterable[CardRow]) -> dict[int, dict]:
    """The page payload of each opened card, by draft card id."""
    rows = list(rows)
    info = card_info({row[1] for row in rows})
    uris = images({row[2] for row in rows if row[2]})
    return {
        row[0]: {"id": row[0], **info[row[1]], "rarity": row[3], "foil": row[4], "image_uris": uris.get(row[2]) or {}}
        for row in rows
    }


def rows_of(draft_cards) -> list[tuple]:
    """Card rows of DraftCard instances (the ORM paths)."""
    return [(dc.pk, dc.card_id, dc.printing_id, dc.rarity, dc.foil, dc.is_dfc) for dc in draft_cards]
