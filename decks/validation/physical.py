"""What a judge should find in the deck box at a deck check (R13)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from decks.validation.data import DeckData, Line


def physical_deck(deck: DeckData) -> dict:
    """What a judge should find at a deck check (R13).

    A DFC copy represented by a checklist card is set aside; the checklist card takes its
    place in the deck (library and hand use the checklist card). Other cards stay as listed.
    Returns ``{"main": [(name, count)], "sideboard": [...], "checklist_cards": [(label, mark)],
    "set_aside": [(name, count)]}``.
    """
    remaining: dict[Any, int] = {}
    labels: list[tuple[str, str]] = []
    for use in deck.checklist_cards:
        if use.candidates and len(use.marked) == 1 and use.marked[0].card is not None:
            card = use.marked[0].card
            checklist = next((c for c in use.candidates if card.key in c.lists), use.candidates[0])
            remaining[card.key] = remaining.get(card.key, 0) + 1
            labels.append((checklist.label, use.marked[0].name))
        else:
            labels.append(
                (use.candidates[0].label if use.candidates else use.given, " / ".join(m.name for m in use.marked))
            )
    set_aside: dict[str, int] = {}

    def section(lines: Sequence[Line]) -> list[tuple[str, int]]:
        out: dict[str, int] = {}
        for line in lines:
            card = line.card
            count = line.count
            name = card.name if card is not None else line.name
            if card is not None and card.is_dfc and remaining.get(card.key):
                moved = min(count, remaining[card.key])
                remaining[card.key] -= moved
                set_aside[name] = set_aside.get(name, 0) + moved
                count -= moved
            if count:
                out[name] = out.get(name, 0) + count
        return list(out.items())

    return {
        "main": section(deck.main),
        "sideboard": section(deck.sideboard),
        "checklist_cards": labels,
        "set_aside": list(set_aside.items()),
    }
