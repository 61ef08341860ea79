"""How the validation counts a list and words its problems: shared by the list rules
(:mod:`decks.validation.validate`) and the double-faced card rules (:mod:`decks.validation.dfcs`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from decks.validation.data import CardInfo, Line


def problem(code: str, message: str, cards: list[str], **extra: Any) -> dict:
    """One coded problem: ``{"code", "message", "cards", ...extra}``."""
    error = {"code": code, "message": message, "cards": cards}
    if extra:
        error.update(extra)
    return error


def plural(count: int, word: str, plural: str | None = None) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {plural or word + 's'}"


def copies(count: int) -> str:
    return plural(count, "copy", "copies")


class Tally:
    """Copies per card key, and the names each card was written as."""

    __slots__ = ("counts", "cards", "written")

    def __init__(self) -> None:
        self.counts: dict[Any, int] = {}
        self.cards: dict[Any, CardInfo] = {}
        self.written: dict[Any, list[str]] = {}

    def add(self, card: CardInfo, count: int, name: str) -> None:
        key = card.key
        if key in self.counts:
            self.counts[key] += count
            names = self.written[key]
            if name not in names:
                names.append(name)
        else:
            self.counts[key] = count
            self.cards[key] = card
            self.written[key] = [name]


def names(card: CardInfo, *tallies: Tally) -> list[str]:
    """The card's full name, then the other names the player wrote it as."""
    found = [card.name]
    for tally in tallies:
        for name in tally.written.get(card.key, ()):
            if name not in found:
                found.append(name)
    return found


def tally(lines: Sequence[Line], unknown: dict[str, None]) -> tuple[Tally, int]:
    """The lines' tally and total; names the catalogue does not know go to ``unknown``."""
    counted = Tally()
    total = 0
    for line in lines:
        total += line.count
        if line.card is None:
            unknown[line.name] = None
        else:
            counted.add(line.card, line.count, line.name)
    return counted, total
