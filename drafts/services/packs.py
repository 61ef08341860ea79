"""Opening packs for a pod from the catalogue: real collation, reproducible from the seed."""

from __future__ import annotations

import random
from dataclasses import dataclass

from django.utils.translation import gettext

from cards.models import DFC_LAYOUTS, CardSet, ChecklistCard, Printing
from drafts import error_codes
from drafts.core.collation import RarityCollation, SheetCollation, Slot, deal_cube
from drafts.models import DraftFormat, Event
from draftsite.errors import DomainError


@dataclass(frozen=True)
class OpenedCard:
    card_id: int
    printing_id: int | None
    is_dfc: bool
    rarity: str
    foil: bool


@dataclass
class OpenedPack:
    cards: list[OpenedCard]
    removed: list[dict]  # basic land / checklist card taken out (not drafted, MTR; R17)


@dataclass
class _PrintingInfo:
    printing_id: int
    card_id: int
    name: str
    is_dfc: bool
    rarity: str
    is_basic: bool


def _printings(set_code: str) -> dict[str, _PrintingInfo]:
    """Printings of a set keyed by MTGJSON uuid (or by printing id when it has none)."""
    rows = Printing.objects.filter(card_set__code=set_code, in_boosters=True).values_list(
        "pk",
        "mtgjson_uuid",
        "card_id",
        "card__name",
        "card__layout",
        "rarity",
        "card__faces__supertypes",
        "card__faces__position",
    )
    found: dict[str, _PrintingInfo] = {}
    for pk, mtgjson_uuid, card_id, name, layout, rarity, supertypes, position in rows:
        if position not in (0, None):
            continue
        key = str(mtgjson_uuid) if mtgjson_uuid else f"printing:{pk}"
        found[key] = _PrintingInfo(pk, card_id, name, layout in DFC_LAYOUTS, rarity, "Basic" in (supertypes or []))
    return found


def _checklist_for(set_code: str) -> ChecklistCard | None:
    """The checklist card printed for a set, which takes the basic land slot (Innistrad)."""
    return ChecklistCard.objects.filter(parent_set_code=set_code, kind="checklist").order_by("collector_number").first()


class SetPacks:
    """Opens packs of one set: MTGJSON sheets where known, plain rarity collation otherwise."""

    def __init__(self, set_code: str):
        card_set = CardSet.objects.filter(code=set_code).first()
        if card_set is None:
            raise DomainError(
                error_codes.UNKNOWN_SET,
                gettext("No set with code %(set_code)s is in the catalogue.") % {"set_code": set_code},
            )
        self.set_code = set_code
        self.printings = _printings(set_code)
        self.checklist = _checklist_for(set_code)
        booster = (card_set.booster or {}).get("default") if card_set.booster else None
        self.collation: SheetCollation | RarityCollation
        if booster and any(k in self.printings for sheet in booster["sheets"].values() for k in sheet["cards"]):
            self.collation = SheetCollation.from_mtgjson(booster, usable=set(self.printings))
        else:
            by_rarity: dict[str, list[str]] = {}
            basics = []
            for key, info in self.printings.items():
                if info.is_basic:
                    basics.append(key)
                else:
                    by_rarity.setdefault(info.rarity, []).append(key)
            for refs in by_rarity.values():
                refs.sort()
            self.collation = RarityCollation(by_rarity, sorted(basics))
        if not self.printings:
            raise DomainError(
                error_codes.NOT_ENOUGH_CARDS,
                gettext("The catalogue has no cards of %(set_code)s.") % {"set_code": set_code},
            )

    def open(self, rng: random.Random) -> OpenedPack:
        cards, removed = [], []
        for slot in self.collation.open(rng):
            info = self.printings[str(slot.ref)]
            # The basic land slot is not drafted (MTR); a foil that happens to be a basic is.
            if not slot.draftable:
                removed.append(self._removed(slot, info))
                continue
            cards.append(OpenedCard(info.card_id, info.printing_id, info.is_dfc, info.rarity, slot.foil))
        return OpenedPack(cards, removed)

    def _removed(self, slot: Slot, info: _PrintingInfo) -> dict:
        # In Innistrad boosters the checklist card took the basic land slot.
        if self.checklist is not None and slot.sheet == "basic":
            return {"kind": "checklist", "checklist_id": self.checklist.pk, "name": self.checklist.name}
        return {"kind": "basic_land", "card_id": info.card_id, "name": info.name}


def open_packs(event: Event, seed: int, seats: int) -> dict[int, list[OpenedPack]]:
    """All packs of a pod, by round: round -> one pack per seat, in seat order."""
    rng = random.Random(seed)
    packs: dict[int, list[OpenedPack]] = {}
    if event.draft_format == DraftFormat.CUBE:
        from cards.models import Card

        info = {
            pk: (layout in DFC_LAYOUTS)
            for pk, layout in Card.objects.filter(pk__in=set(event.cube_card_ids)).values_list("pk", "layout")
        }
        try:
            dealt = deal_cube(list(event.cube_card_ids), 3 * seats, event.pack_size, rng)
        except ValueError as exc:
            raise DomainError(error_codes.NOT_ENOUGH_CARDS, str(exc)) from None
        for round_number in (1, 2, 3):
            chunk = dealt[(round_number - 1) * seats : round_number * seats]
            packs[round_number] = [
                OpenedPack([OpenedCard(cid, None, info.get(cid, False), "", False) for cid in pack], [])
                for pack in chunk
            ]
        return packs
    openers = {code: SetPacks(code) for code in set(event.set_codes)}
    for round_number, code in enumerate(event.set_codes, start=1):
        packs[round_number] = [openers[code].open(rng) for _ in range(seats)]
    return packs
