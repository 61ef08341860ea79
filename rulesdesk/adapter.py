"""The rules desk's adapter to the pure rules core: turns catalogue rows (``cards.models.Card``
with its faces) into the core's plain :class:`cards.rules.CardData`. The only place where the
catalogue and the rules core meet.

Blank strings in the catalogue mean "none" (no mana cost, no power, no disguise cost ...).
Prefetch ``faces`` (``cards.selectors.card_queryset`` does) to avoid one query per card.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from cards.models import Card, CardFace
from cards.rules import CardData, FaceData
from cards.rules.colors import order_colors


def _blank_to_none(value: str | None) -> str | None:
    return value or None


def _strings(value) -> tuple[str, ...]:
    if not value:
        return ()
    if isinstance(value, str):
        return tuple(value.split())
    return tuple(str(item) for item in value)


def face_data(face: CardFace) -> FaceData:
    """One catalogue face as a :class:`FaceData`."""
    value = face.mana_value or 0
    return FaceData(
        name=face.name,
        mana_cost=face.mana_cost or "",
        mana_value=int(value) if float(value).is_integer() else value,
        colors=order_colors(face.colors or ""),
        color_indicator=order_colors(face.color_indicator or ""),
        supertypes=_strings(face.supertypes),
        card_types=_strings(face.card_types),
        subtypes=_strings(face.subtypes),
        oracle_text=face.oracle_text or "",
        power=_blank_to_none(face.power),
        toughness=_blank_to_none(face.toughness),
        loyalty=_blank_to_none(face.loyalty),
        defense=_blank_to_none(face.defense),
        disguise_cost=_blank_to_none(face.disguise_cost),
        morph_cost=_blank_to_none(face.morph_cost),
        megamorph_cost=_blank_to_none(face.megamorph_cost),
    )


def card_data(card: Card) -> CardData:
    """A catalogue card (faces in printed order, 0 = front) as a :class:`CardData`.

    A card imported without faces gets one bare face with its name, so that the core never
    sees an empty card.
    """
    faces = sorted(card.faces.all(), key=lambda f: f.position)
    data = tuple(face_data(face) for face in faces)
    if not data:
        data = (FaceData(name=card.name),)
    return CardData(name=card.name, layout=card.layout or "normal", faces=data)


def iter_card_data(cards: Iterable[Card]) -> Iterator[CardData]:
    """:func:`card_data` over many cards (pass a queryset with ``faces`` prefetched)."""
    for card in cards:
        yield card_data(card)
