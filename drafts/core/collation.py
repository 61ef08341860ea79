"""Pack generation from a set's collation, reproducibly from a seed.

Three collations:
- ``SheetCollation``: one MTGJSON booster kind (``booster["default"]``, ``["play"]``,
  ``["arena"]``...): booster variants with weights, each a list of sheets to draw from; each
  sheet a weighted list of cards, foil or not (Innistrad: a DFC slot from its own sheet;
  Zendikar Rising: modal DFCs in ordinary slots); a sheet marked ``balanceColors`` (the commons
  of most draft boosters) gives a card of each color first (``Sheet._draw_balanced``).
- ``PublishedCollation``: the project's own data for a set MTGJSON gives no booster data for
  (``drafts/collations/*.yaml``: the slots and rates Wizards published, over catalogue
  rarities and types).
- ``RarityCollation``: one rare or mythic (mythic 1 in 8), 3 uncommons, 10 commons and a
  basic land, for sets with neither.
Cube packs deal a shuffled list without replacement (``deal_cube``).

Every card drawn names its slot (``Slot.slot``: a stable code from ``SLOT_CODES`` or, for an
MTGJSON sheet outside that vocabulary, the sheet's name in snake case) so a player can check
what their pack held.

Cards are opaque references here (MTGJSON uuids or catalogue ids); the service layer maps
them to catalogue printings. Pure Python: no Django.
"""

from __future__ import annotations

import random
import re
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

Ref = Hashable

# The slot codes a pack's cards are recorded with (drafts.services.packs labels them).
RARE_MYTHIC = "rare_mythic"
UNCOMMON = "uncommon"
COMMON = "common"
DFC = "dfc"
LAND = "land"
WILDCARD = "wildcard"
FOIL = "foil"
SPECIAL_GUEST = "special_guest"
THE_LIST = "the_list"
SLOT_CODES = (RARE_MYTHIC, UNCOMMON, COMMON, DFC, LAND, WILDCARD, FOIL, SPECIAL_GUEST, THE_LIST)


def mtgjson_slot(sheet_name: str, foil: bool = False) -> str:
    """The slot code of an MTGJSON sheet: ``sfcRareMythic`` and ``modaldfcRareMythic`` are the
    rare slot, ``basicOrGainland`` the land slot, Innistrad's ``dfc`` its DFC slot..."""
    words = re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", sheet_name)
    kept, skip = [], False
    for word in words:  # "nonBasictypeCommon", "nongainlandCommon": what the sheet is not
        if skip or word.lower().startswith("non"):
            skip = word.lower() == "non"
            continue
        kept.append(word.lower())
    name = "".join(kept)
    if foil:
        return FOIL
    if "basic" in name or "land" in name:
        return LAND
    if "rare" in name or "mythic" in name:
        return RARE_MYTHIC
    if name == "dfc" or "commonuncommon" in name:
        return DFC  # any rarity (Innistrad's DFC slot, Eldritch Moon's common-or-uncommon one)
    if "uncommon" in name:
        return UNCOMMON
    if "common" in name:
        return COMMON
    return re.sub(r"(?<!^)(?=[A-Z])", "_", sheet_name).lower()


@dataclass(frozen=True)
class Slot:
    """A card drawn into a pack, and whether it is draftable (a draft booster's basic land is
    not, MTR; a Play Booster's land slot is: all 14 cards are drafted)."""

    ref: Ref
    sheet: str
    foil: bool = False
    draftable: bool = True
    slot: str = ""


@dataclass
class Sheet:
    name: str
    refs: list[Ref]
    weights: list[int]
    foil: bool = False
    allow_duplicates: bool = False  # MTGJSON ``allowDuplicates``
    fixed: bool = False  # MTGJSON ``fixed``: every card, as many times as its weight, in order
    balance_colors: bool = False  # MTGJSON ``balanceColors`` (see ``_draw_balanced``)
    # Each card's color group for ``balance_colors``: "W", "U", "B", "R", "G" for a card of one
    # color identity that is not a land, "" for every other card.
    colors: dict[Ref, str] = field(default_factory=dict)

    def draw(self, rng: random.Random, count: int, exclude: set[Ref]) -> list[Ref]:
        """Draw ``count`` distinct cards (no duplicates within one pack when avoidable)."""
        if self.fixed:
            return [ref for ref, weight in zip(self.refs, self.weights, strict=True) for _ in range(weight)]
        if self.allow_duplicates:
            return rng.choices(self.refs, weights=self.weights, k=count)
        if self.balance_colors:
            balanced = self._draw_balanced(rng, count, exclude)
            if balanced is not None:
                return balanced
        chosen: list[Ref] = []
        for _ in range(count):
            for _attempt in range(20):
                ref = rng.choices(self.refs, weights=self.weights, k=1)[0]
                if ref not in exclude or len(set(self.refs) - exclude) == 0:
                    break
            chosen.append(ref)
            exclude.add(ref)
        return chosen

    def _draw_balanced(self, rng: random.Random, count: int, exclude: set[Ref]) -> list[Ref] | None:
        """A color-balanced draw, as the booster generator MTGJSON's sheets come from does it
        (mtg.wtf's ColorBalancedCardSheet): one card of each color first, then ``count - 5``
        cards from a mix whose group weights (a color's ``weight * count - total``, the rest's
        ``weight * count``) keep every card's expected count in a pack what the plain draw
        gives (``count * weight / total``). None when the sheet cannot be balanced (five
        cards or fewer, a color with no card, or a color too rare for the mix): the plain draw
        stands in, as the generator refuses such sheets."""
        groups: dict[str, tuple[list[Ref], list[int]]] = {c: ([], []) for c in (*BALANCED_COLORS, "")}
        for ref, weight in zip(self.refs, self.weights, strict=True):
            color = self.colors.get(ref, "")
            refs, weights = groups[color if color in BALANCED_COLORS else ""]
            refs.append(ref)
            weights.append(weight)
        total = sum(self.weights)
        group_weights = {c: sum(w) for c, (_, w) in groups.items()}
        mix = [group_weights[c] * count - (total if c else 0) for c in groups]
        if count <= len(BALANCED_COLORS) or any(not groups[c][0] for c in BALANCED_COLORS) or min(mix) < 0:
            return None

        def one(refs: list[Ref], weights: list[int]) -> Ref:
            for _attempt in range(20):
                ref = rng.choices(refs, weights=weights, k=1)[0]
                if ref not in exclude:
                    break
            exclude.add(ref)
            return ref

        chosen = [one(*groups[c]) for c in BALANCED_COLORS]
        names = list(groups)
        for _ in range(count - len(BALANCED_COLORS)):
            for _attempt in range(20):  # a group that has no card left the pack lacks: draw again
                group = groups[rng.choices(names, weights=mix, k=1)[0]]
                if group[0] and set(group[0]) - exclude:
                    break
            chosen.append(one(*group))
        return chosen


BALANCED_COLORS = ("W", "U", "B", "R", "G")

# The collation versions an event pins (events.boosters.COLLATION_VERSION): drafts.services.packs
# passes what a version means (balance_colors) to the sheets above.


@dataclass
class SheetCollation:
    variants: list[tuple[dict[str, int], int]]  # (sheet name -> count, weight)
    sheets: dict[str, Sheet]
    non_draftable_sheets: set[str] = field(default_factory=lambda: {"basic"})

    @classmethod
    def from_mtgjson(
        cls,
        booster: dict[str, Any],
        usable: set[Ref] | None = None,
        colors: dict[Ref, str] | None = None,
        *,
        balance_colors: bool = True,
    ) -> SheetCollation:
        """Build from one MTGJSON booster kind (``booster["default"]``, ``booster["play"]``...);
        cards not in ``usable`` are dropped. ``colors``: each card's color group (``Sheet.colors``),
        for the sheets marked ``balanceColors``; ``balance_colors`` False ignores the mark
        (collation version 1)."""
        variants = [(dict(b["contents"]), int(b["weight"])) for b in booster["boosters"]]
        sheets = {}
        for name, sheet in booster["sheets"].items():
            items = [(ref, int(w)) for ref, w in sheet["cards"].items() if usable is None or ref in usable]
            sheets[name] = Sheet(
                name,
                [r for r, _ in items],
                [w for _, w in items],
                foil=bool(sheet.get("foil")),
                allow_duplicates=bool(sheet.get("allowDuplicates")),
                fixed=bool(sheet.get("fixed")),
                balance_colors=balance_colors and bool(sheet.get("balanceColors")),
                colors={r: (colors or {}).get(r, "") for r, _ in items}
                if balance_colors and sheet.get("balanceColors")
                else {},
            )
        return cls(variants, sheets)

    def open(self, rng: random.Random) -> list[Slot]:
        contents = rng.choices([v for v, _ in self.variants], weights=[w for _, w in self.variants], k=1)[0]
        slots: list[Slot] = []
        seen: set[Ref] = set()
        for sheet_name, count in contents.items():
            sheet = self.sheets.get(sheet_name)
            if sheet is None or not sheet.refs:
                continue
            code = mtgjson_slot(sheet_name, sheet.foil)
            for ref in sheet.draw(rng, count, seen):
                draftable = sheet_name not in self.non_draftable_sheets
                slots.append(Slot(ref, sheet_name, foil=sheet.foil, draftable=draftable, slot=code))
        return slots


@dataclass
class RarityCollation:
    """Plain collation by rarity for sets the catalogue has no booster data for."""

    by_rarity: dict[str, list[Ref]]
    basics: list[Ref]

    def open(self, rng: random.Random) -> list[Slot]:
        slots: list[Slot] = []
        seen: set[Ref] = set()

        def take(rarity: str, count: int, code: str) -> None:
            pool = [r for r in self.by_rarity.get(rarity, []) if r not in seen] or self.by_rarity.get(rarity, [])
            for ref in rng.sample(pool, min(count, len(pool))):
                seen.add(ref)
                slots.append(Slot(ref, rarity, slot=code))

        mythics = self.by_rarity.get("mythic", [])
        take("mythic" if mythics and rng.random() < 1 / 8 else "rare", 1, RARE_MYTHIC)
        take("uncommon", 3, UNCOMMON)
        take("common", 10, COMMON)
        if self.basics:
            slots.append(Slot(rng.choice(self.basics), "basic", draftable=False, slot=LAND))
        return slots


@dataclass(frozen=True)
class CatalogueCard:
    """What the published-rates data selects cards by: one card of the catalogue (showcase and
    borderless printings of it are the same card for a draft: the service passes one)."""

    ref: Ref
    name: str
    set_code: str
    rarity: str
    types: frozenset[str] = frozenset()
    supertypes: frozenset[str] = frozenset()


class CollationDataError(ValueError):
    """The published-rates data is malformed, or a sheet selects no card and has no fallback."""


@dataclass
class _Leaf:
    name: str
    refs: list[Ref]
    foil: bool = False
    slot: str = ""  # set when this leaf stands in for a sheet the catalogue lacks (its fallback)


@dataclass
class _Mix:
    name: str
    options: list[tuple[_Leaf | _Mix, int, bool, str]]  # (node, chance, foil, slot)
    foil: bool = False


@dataclass
class _Position:
    slot: str
    count: int
    node: _Leaf | _Mix
    foil: bool
    independent: bool  # wildcard and foil slots may repeat a card the pack already holds
    draftable: bool


_FILTER_KEYS = {
    "rarity",
    "types",
    "not_types",
    "supertypes",
    "not_supertypes",
    "names",
    "not_names",
    "also_names",
    "set",
}


class PublishedCollation:
    """A pack built from the project's published-rates data (``drafts/collations/*.yaml``).

    ``pack`` lists the positions in pack order: a ``slot`` code, a ``count``, and a ``sheet``
    name or ``any`` (options with a ``chance`` each, optionally ``foil`` and their own
    ``slot``). ``sheets`` are either filters over the catalogue (``rarity``, ``types``,
    ``not_types``, ``supertypes``, ``not_supertypes``, ``names``, ``not_names``, ``also_names``
    (kept in spite of the type filters), ``set``; a
    ``fallback`` sheet when the catalogue has none of its cards) or an ``any`` of other sheets
    by ``chance``. Cards of a filter sheet are equally likely: the data records the card drawn,
    not its frame (see the data files for why the published per-frame weights collapse so).
    """

    def __init__(self, positions: list[_Position], fallbacks: dict[str, str]):
        self.positions = positions
        self.fallbacks = fallbacks  # sheet -> the sheet it fell back to (the catalogue lacks it)

    @classmethod
    def from_data(cls, data: dict[str, Any], set_code: str, cards: list[CatalogueCard]) -> PublishedCollation:
        sheets_data = dict(data.get("sheets") or {})
        built: dict[str, _Leaf | _Mix] = {}
        fallbacks: dict[str, str] = {}

        def node(name: str, trail: tuple[str, ...] = ()) -> _Leaf | _Mix:
            if name in built:
                return built[name]
            if name not in sheets_data or name in trail:
                raise CollationDataError(f"unknown or circular sheet {name!r}")
            spec = sheets_data[name] or {}
            result: _Leaf | _Mix
            if "any" in spec:
                options = [_option(option, trail + (name,)) for option in spec["any"]]
                result = _Mix(name, options, foil=bool(spec.get("foil")))
            else:
                unknown = set(spec) - _FILTER_KEYS - {"fallback", "fallback_slot", "foil"}
                if unknown:
                    raise CollationDataError(f"sheet {name!r}: unknown keys {sorted(unknown)}")
                refs = [card.ref for card in cards if _matches(card, spec, set_code)]
                result = _Leaf(name, refs, foil=bool(spec.get("foil")))
                if not refs:
                    if not spec.get("fallback"):
                        raise CollationDataError(f"sheet {name!r} selects no card of the catalogue")
                    fallback = node(spec["fallback"], trail + (name,))
                    fallbacks[name] = spec["fallback"]
                    slot = spec.get("fallback_slot", spec["fallback"])
                    result = _Mix(name, [(fallback, 1, bool(spec.get("foil")), slot)])
            built[name] = result
            return result

        def _option(option: dict[str, Any], trail: tuple[str, ...]) -> tuple[_Leaf | _Mix, int, bool, str]:
            if "any" in option:
                inner = f"{trail[-1] if trail else 'pack'}/{len(sheets_data)}"
                sheets_data[inner] = {"any": option["any"]}
                target = node(inner, trail)
            else:
                target = node(option["sheet"], trail)
            return target, int(option.get("chance", 1)), bool(option.get("foil")), str(option.get("slot", ""))

        positions = []
        for entry in data.get("pack") or []:
            target = (
                node(entry["sheet"])
                if "sheet" in entry
                else _Mix(entry["slot"], [_option(o, ()) for o in entry["any"]])
            )
            positions.append(
                _Position(
                    slot=str(entry["slot"]),
                    count=int(entry.get("count", 1)),
                    node=target,
                    foil=bool(entry.get("foil")),
                    independent=bool(entry.get("independent")),
                    draftable=bool(entry.get("draftable", True)),
                )
            )
        if not positions:
            raise CollationDataError("the data lists no pack positions")
        return cls(positions, fallbacks)

    def open(self, rng: random.Random) -> list[Slot]:
        slots: list[Slot] = []
        seen: set[Ref] = set()
        for position in self.positions:
            for _ in range(position.count):
                node: _Leaf | _Mix = position.node
                foil, slot = position.foil or node.foil, position.slot
                while isinstance(node, _Mix):
                    chosen = rng.choices(node.options, weights=[o[1] for o in node.options], k=1)[0]
                    node, foil, slot = chosen[0], foil or chosen[2] or chosen[0].foil, chosen[3] or slot
                pool = node.refs if position.independent else [r for r in node.refs if r not in seen] or node.refs
                ref = pool[rng.randrange(len(pool))]
                if not position.independent:
                    seen.add(ref)
                slots.append(Slot(ref, node.name, foil=foil, draftable=position.draftable, slot=slot))
        return slots


def _as_set(value: Any) -> set[str]:
    if value is None:
        return set()
    return {str(v) for v in (value if isinstance(value, list) else [value])}


def _matches(card: CatalogueCard, spec: dict[str, Any], set_code: str) -> bool:
    if card.set_code.upper() != str(spec.get("set") or set_code).upper():
        return False
    if "rarity" in spec and card.rarity not in _as_set(spec["rarity"]):
        return False
    if card.name in _as_set(spec.get("also_names")):
        return True  # named in spite of the type filters ("commons but lands, Terramorphic Expanse too")
    if not _as_set(spec.get("types")) <= card.types or _as_set(spec.get("not_types")) & card.types:
        return False
    if not _as_set(spec.get("supertypes")) <= card.supertypes or _as_set(spec.get("not_supertypes")) & card.supertypes:
        return False
    if "names" in spec and card.name not in _as_set(spec["names"]):
        return False
    return card.name not in _as_set(spec.get("not_names"))


def deal_cube(card_refs: list[Ref], packs: int, pack_size: int, rng: random.Random) -> list[list[Ref]]:
    """Shuffle a cube list and deal ``packs`` packs without replacement."""
    needed = packs * pack_size
    if len(card_refs) < needed:
        raise ValueError(f"The cube has {len(card_refs)} cards; {needed} are needed.")
    deck = list(card_refs)
    rng.shuffle(deck)
    return [deck[i * pack_size : (i + 1) * pack_size] for i in range(packs)]
