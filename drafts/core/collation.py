"""Pack generation from a set's collation, reproducibly from a seed.

Two collations:
- ``SheetCollation``: MTGJSON booster data: booster variants with weights, each a list of
  sheets to draw from; each sheet a weighted list of cards (Innistrad: a DFC slot from its own
  sheet; Zendikar Rising: modal DFCs in ordinary slots).
- ``RarityCollation``: one rare or mythic (mythic 1 in 8), 3 uncommons, 10 commons and a
  basic land, for sets without booster data.
Cube packs deal a shuffled list without replacement (``deal_cube``).

Cards are opaque references here (MTGJSON uuids or catalogue ids); the service layer maps
them to catalogue printings. Pure Python: no Django.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

Ref = Hashable


@dataclass(frozen=True)
class Slot:
    """A card drawn into a pack, and whether it is draftable (basic lands are not, MTR)."""

    ref: Ref
    sheet: str
    foil: bool = False
    draftable: bool = True


@dataclass
class Sheet:
    name: str
    refs: list[Ref]
    weights: list[int]
    foil: bool = False

    def draw(self, rng: random.Random, count: int, exclude: set[Ref]) -> list[Ref]:
        """Draw ``count`` distinct cards (no duplicates within one pack when avoidable)."""
        chosen: list[Ref] = []
        for _ in range(count):
            for _attempt in range(20):
                ref = rng.choices(self.refs, weights=self.weights, k=1)[0]
                if ref not in exclude or len(set(self.refs) - exclude) == 0:
                    break
            chosen.append(ref)
            exclude.add(ref)
        return chosen


@dataclass
class SheetCollation:
    variants: list[tuple[dict[str, int], int]]  # (sheet name -> count, weight)
    sheets: dict[str, Sheet]
    non_draftable_sheets: set[str] = field(default_factory=lambda: {"basic"})

    @classmethod
    def from_mtgjson(cls, booster: dict[str, Any], usable: set[Ref] | None = None) -> SheetCollation:
        """Build from MTGJSON ``booster["default"]``; cards not in ``usable`` are dropped."""
        variants = [(dict(b["contents"]), int(b["weight"])) for b in booster["boosters"]]
        sheets = {}
        for name, sheet in booster["sheets"].items():
            items = [(ref, int(w)) for ref, w in sheet["cards"].items() if usable is None or ref in usable]
            sheets[name] = Sheet(name, [r for r, _ in items], [w for _, w in items], foil=bool(sheet.get("foil")))
        return cls(variants, sheets)

    def open(self, rng: random.Random) -> list[Slot]:
        contents = rng.choices([v for v, _ in self.variants], weights=[w for _, w in self.variants], k=1)[0]
        slots: list[Slot] = []
        seen: set[Ref] = set()
        for sheet_name, count in contents.items():
            sheet = self.sheets.get(sheet_name)
            if sheet is None or not sheet.refs:
                continue
            for ref in sheet.draw(rng, count, seen):
                slots.append(
                    Slot(ref, sheet_name, foil=sheet.foil, draftable=sheet_name not in self.non_draftable_sheets)
                )
        return slots


@dataclass
class RarityCollation:
    """Plain collation by rarity for sets the catalogue has no booster data for."""

    by_rarity: dict[str, list[Ref]]
    basics: list[Ref]

    def open(self, rng: random.Random) -> list[Slot]:
        slots: list[Slot] = []
        seen: set[Ref] = set()

        def take(rarity: str, count: int) -> None:
            pool = [r for r in self.by_rarity.get(rarity, []) if r not in seen] or self.by_rarity.get(rarity, [])
            for ref in rng.sample(pool, min(count, len(pool))):
                seen.add(ref)
                slots.append(Slot(ref, rarity))

        mythics = self.by_rarity.get("mythic", [])
        take("mythic" if mythics and rng.random() < 1 / 8 else "rare", 1)
        take("uncommon", 3)
        take("common", 10)
        if self.basics:
            slots.append(Slot(rng.choice(self.basics), "basic", draftable=False))
        return slots


def deal_cube(card_refs: list[Ref], packs: int, pack_size: int, rng: random.Random) -> list[list[Ref]]:
    """Shuffle a cube list and deal ``packs`` packs without replacement."""
    needed = packs * pack_size
    if len(card_refs) < needed:
        raise ValueError(f"The cube has {len(card_refs)} cards; {needed} are needed.")
    deck = list(card_refs)
    rng.shuffle(deck)
    return [deck[i * pack_size : (i + 1) * pack_size] for i in range(packs)]
