"""What the browser deck builder (static/js/deckbuilder.js) gets of a pool: every card with
its front face's characteristics (R2, R36: outside the battlefield only the front counts),
the name in the reader's language beside the English one, and an image when the catalogue
has one. Reads only."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import get_language

from cards.images import site_uris
from cards.models import CardFace, Printing
from decks.adapter import BASIC_LANDS
from drafts import cardinfo

BASIC_COLORS = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}
MIN_MAIN = 40  # MTR 7.1: limited decks have at least 40 cards


def _images(card_ids: set[int], prefer_sets: list[str]) -> dict[int, dict]:
    order = {code.upper(): i for i, code in enumerate(prefer_sets)}
    best: dict[int, tuple[int, dict]] = {}
    rows = Printing.objects.filter(card_id__in=card_ids).exclude(image_uris={})
    for pk, card_id, code, uris in rows.values_list("pk", "card_id", "card_set__code", "image_uris"):
        rank = order.get(code.upper(), len(order))
        if uris and (card_id not in best or rank < best[card_id][0]):
            best[card_id] = (rank, site_uris(pk, uris))  # the site's own copies (cards/images.py)
    return {card_id: uris for card_id, (_rank, uris) in best.items()}


def builder_data(event, pool_rows: list[dict], basic_counts: dict[str, int]) -> dict:
    ids = {row["card_id"] for row in pool_rows}
    infos = cardinfo.card_info(ids)
    mana_values = dict(CardFace.objects.filter(card_id__in=ids, position=0).values_list("card_id", "mana_value"))
    images = _images(ids, event.set_codes or [])
    language = (get_language() or "en").lower()
    cards = []
    for row in pool_rows:
        info = infos.get(row["card_id"]) or {}
        faces = info.get("faces") or [{}]
        front = faces[0]
        local = (info.get("printed_names") or {}).get(language) or []
        uris = images.get(row["card_id"], {})
        cards.append(
            {
                "id": row["card_id"],
                "name": row["name"],
                "local": " // ".join(local) if language != "en" else "",
                "count": row["count"],
                "main": row.get("main", 0),
                "cost": front.get("mana_cost", ""),
                "mv": mana_values.get(row["card_id"], 0),
                "colors": "".join(front.get("colors") or []),
                "type": front.get("type_line", ""),
                "land": "Land" in (front.get("type_line") or "") and not (front.get("mana_cost") or ""),
                "identity": "".join(info.get("color_identity") or []),
                "dfc": bool(row.get("is_dfc")),
                "back": faces[1].get("name", "") if row.get("is_dfc") and len(faces) > 1 else "",
                "image": uris.get("front", ""),
            }
        )
    return {
        "cards": cards,
        "basics": [{"name": b, "color": BASIC_COLORS[b], "count": basic_counts.get(b, 0)} for b in BASIC_LANDS],
        "min": MIN_MAIN,
        "format": event.deck_format,
        "validate": reverse("decks-validate"),
    }
