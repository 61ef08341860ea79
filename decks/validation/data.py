"""The deck validation's plain data: formats, policies, limits, and the resolved input."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "LIMITED",
    "CONSTRUCTED",
    "COMMANDER",
    "FORMATS",
    "POLICY_DECK",
    "POLICY_PER_NAME",
    "POLICIES",
    "CHECKLIST",
    "SUBSTITUTE",
    "MIN_MAIN",
    "MAX_SIDEBOARD",
    "COPY_LIMIT",
    "ANY_NUMBER",
    "ZONE_MAIN",
    "ZONE_SIDEBOARD",
    "ZONE_COMMANDER",
    "ZONE_CHECKLIST",
    "ZONES",
    "CardInfo",
    "Line",
    "Mark",
    "Checklist",
    "ChecklistUse",
    "DeckData",
    "Report",
]

LIMITED = "limited"
CONSTRUCTED = "constructed"
COMMANDER = "commander"
FORMATS = (LIMITED, CONSTRUCTED, COMMANDER)

POLICY_DECK = "deck"  # Innistrad: a checklist card for one DFC means checklist cards for all (R12)
POLICY_PER_NAME = "per_name"  # MTR 3.5 today: all copies of the same DFC alike
POLICIES = (POLICY_DECK, POLICY_PER_NAME)

CHECKLIST = "checklist"
SUBSTITUTE = "substitute"

MIN_MAIN = {LIMITED: 40, CONSTRUCTED: 60, COMMANDER: 100}
MAX_SIDEBOARD = {CONSTRUCTED: 15}
COPY_LIMIT = {CONSTRUCTED: 4, COMMANDER: 1}
ANY_NUMBER = -1  # CardInfo.copy_limit for "a deck can have any number of cards named ..."

# Where a problem is (each problem's ``zones``): a player fixes a list zone by zone.
ZONE_MAIN = "main"
ZONE_SIDEBOARD = "sideboard"
ZONE_COMMANDER = "commander"
ZONE_CHECKLIST = "checklist_cards"  # a checklist card whose DFC is in no zone of the deck
ZONES = (ZONE_MAIN, ZONE_SIDEBOARD, ZONE_COMMANDER, ZONE_CHECKLIST)


@dataclass(frozen=True, slots=True)
class CardInfo:
    """What the check needs to know about one catalogue card."""

    key: Any  # hashable identity: the catalogue id, or "basic:Plains" for a basic not in it
    name: str  # full name, "Gatstaf Shepherd // Gatstaf Howler"
    is_dfc: bool = False  # transform, modal DFC, meld (not flip, split, adventure)
    is_basic: bool = False
    color_identity: str = ""  # WUBRG letters across every face (R39)
    copy_limit: int | None = None  # None: the format's limit; ANY_NUMBER: no limit


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a list: the name as written, how many, and the card it names."""

    name: str
    count: int
    card: CardInfo | None


@dataclass(frozen=True, slots=True)
class Mark:
    """One name marked on a checklist card, and the card it names (None if unknown)."""

    name: str
    card: CardInfo | None


@dataclass(frozen=True, slots=True)
class Checklist:
    """An official checklist or substitute card (R11) and the cards it lists."""

    key: Any
    name: str
    label: str  # "Innistrad Checklist (TISD 13)"
    kind: str  # CHECKLIST or SUBSTITUTE
    lists: frozenset  # card keys of the DFCs printed on it / it may stand for


@dataclass(frozen=True, slots=True)
class ChecklistUse:
    """One physical checklist card in the deck.

    ``candidates`` are the official cards the given name may mean (several equivalent cards
    share a name, e.g. the nine SZNR substitute cards); empty when none is official.
    """

    given: str
    candidates: tuple[Checklist, ...]
    marked: tuple[Mark, ...]


@dataclass(slots=True)
class DeckData:
    format: str
    main: Sequence[Line]
    sideboard: Sequence[Line] = ()
    commander: Sequence[Line] = ()
    pool: Sequence[Line] | None = None  # limited: the cards the deck must come from
    opaque_sleeves: bool = False
    checklist_policy: str = POLICY_DECK
    checklist_cards: Sequence[ChecklistUse] = ()
    suggestions: Mapping[str, Sequence[str]] = field(default_factory=dict)  # unknown name -> names
    # printed name shared by several cards -> their English names (nothing is guessed)
    ambiguous: Mapping[str, Sequence[str]] = field(default_factory=dict)


@dataclass(slots=True)
class Report:
    errors: list[dict]
    warnings: list[dict]
    summary: dict[str, int]

    @property
    def valid(self) -> bool:
        return not self.errors

    @property
    def codes(self) -> list[str]:
        return [error["code"] for error in self.errors]

    def as_dict(self) -> dict:
        return {"valid": not self.errors, "errors": self.errors, "warnings": self.warnings, "summary": self.summary}
