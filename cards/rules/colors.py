"""Colors and color identity (R39)."""

from __future__ import annotations

import re
from collections.abc import Iterable

WUBRG = "WUBRG"
_SYMBOL = re.compile(r"\{([^}]+)\}")
_BASIC_LAND_COLORS = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}


def order_colors(letters: Iterable[str]) -> str:
    """Letters in WUBRG order, each once: ``{"G", "U"}`` -> ``"UG"``."""
    found = set(letters)
    return "".join(c for c in WUBRG if c in found)


def symbol_colors(text: str) -> str:
    """Colors of every mana symbol in a cost or rules text (hybrid and Phyrexian count)."""
    letters: set[str] = set()
    for symbol in _SYMBOL.findall(text or ""):
        letters.update(part for part in symbol.upper().split("/") if part in WUBRG)
    return order_colors(letters)


def color_identity(
    mana_costs: Iterable[str],
    rules_texts: Iterable[str],
    color_indicators: Iterable[str],
    subtypes: Iterable[str] = (),
) -> str:
    """R39: mana symbols in the costs and rules text of every face, plus color indicators
    and basic land types on any face. Reminder text is ignored (R40)."""
    letters: set[str] = set()
    for cost in mana_costs:
        letters.update(symbol_colors(cost))
    for text in rules_texts:
        letters.update(symbol_colors(_without_reminder_text(text or "")))
    for indicator in color_indicators:
        letters.update(c for c in (indicator or "") if c in WUBRG)
    for subtype in subtypes:
        if subtype in _BASIC_LAND_COLORS:
            letters.add(_BASIC_LAND_COLORS[subtype])
    return order_colors(letters)


def _without_reminder_text(text: str) -> str:
    return re.sub(r"\([^)]*\)", "", text)
