"""How the validation counts a list and words its problems: shared by the list rules
(:mod:`decks.validation.validate`) and the double-faced card rules (:mod:`decks.validation.dfcs`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cards.rules.text import Msg, gettext
from decks.validation.data import ZONE_CHECKLIST, ZONE_COMMANDER, ZONE_MAIN, ZONE_SIDEBOARD, ZONES, CardInfo, Line

_ZONE_LABELS = {
    (ZONE_MAIN,): gettext("Main deck"),
    (ZONE_SIDEBOARD,): gettext("Sideboard"),
    (ZONE_COMMANDER,): gettext("Commander"),
    (ZONE_CHECKLIST,): gettext("Checklist cards"),
    (ZONE_MAIN, ZONE_SIDEBOARD): gettext("Main deck and sideboard"),
    (ZONE_MAIN, ZONE_COMMANDER): gettext("Main deck and commander"),
}


def zone_label(zones: Sequence[str]) -> Msg:
    """The zones' name as a player reads it ("Main deck and sideboard")."""
    ordered = tuple(z for z in ZONES if z in zones)
    label = _ZONE_LABELS.get(ordered)
    if label is None:  # three zones at once: each named
        label = gettext("%(first)s and %(rest)s") % {
            "first": _ZONE_LABELS[ordered[:1]],
            "rest": zone_label(ordered[1:]),
        }
    return label


def problem(code: str, message: str, cards: list[str], zones: Sequence[str] = (), **extra: Any) -> dict:
    """One coded problem: ``{"code", "message", "cards", "zones", ...extra}``. The message starts
    with the zones it is in ("Sideboard: ..."), so the player knows where to look."""
    zones = [z for z in ZONES if z in zones]
    if zones:
        message = gettext("%(zone)s: %(message)s") % {"zone": zone_label(zones), "message": message}
    error = {"code": code, "message": message, "cards": cards, "zones": zones}
    if extra:
        error.update(extra)
    return error


def plural(count: int, word: str, plural: str | None = None) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {plural or word + 's'}"


def copies(count: int) -> str:
    return plural(count, "copy", "copies")


class Tally:
    """Copies per card key, and the names each card was written as, in one zone."""

    __slots__ = ("counts", "cards", "written", "zone")

    def __init__(self, zone: str = "") -> None:
        self.zone = zone
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


def zones_of(key: Any, *tallies: Tally) -> list[str]:
    """The zones whose tally holds the card ``key``."""
    return [t.zone for t in tallies if key in t.counts]


def tally(lines: Sequence[Line], unknown: dict[str, list[str]], zone: str = "") -> tuple[Tally, int]:
    """The lines' tally and total; names the catalogue does not know go to ``unknown`` (with
    the zones they are written in)."""
    counted = Tally(zone)
    total = 0
    for line in lines:
        total += line.count
        if line.card is None:
            where = unknown.setdefault(line.name, [])
            if zone and zone not in where:
                where.append(zone)
        else:
            counted.add(line.card, line.count, line.name)
    return counted, total
