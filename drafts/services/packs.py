"""Opening packs for a pod from the catalogue: real collation, reproducible from the seed.

A set offers booster kinds (``booster_kinds``): every kind of its MTGJSON booster data
(``default``, ``play``, ``arena``, ``collector``... honoured exactly: variants, sheets, weights,
foil sheets), then the kinds of the project's published-rates data (``drafts/collations``:
Play Boosters of the 2024 sets the catalogue has from Cockatrice files), and otherwise one
``draft`` kind with the plain rarity collation. The default kind is the newest one a set has
(a 2024+ set opens Play Boosters).
"""

from __future__ import annotations

import functools
import random
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from django.db.models import Q
from django.utils.translation import gettext

from cards.models import DFC_LAYOUTS, CardSet, ChecklistCard, Printing
from cards.selectors import booster_sets
from drafts import error_codes
from drafts.boosters import COLLATION_LABELS
from drafts.core.collation import (
    CatalogueCard,
    CollationDataError,
    PublishedCollation,
    RarityCollation,
    SheetCollation,
    Slot,
    deal_cube,
)
from draftsite.errors import DomainError
from events.boosters import COLLATION_VERSION, COLLATION_VERSION_UNBALANCED, KIND_LABELS
from events.models import DraftFormat, Event

COLLATIONS_DIR = Path(__file__).resolve().parent.parent / "collations"

# Which collation a set and kind use.
MTGJSON = "mtgjson"  # the set's MTGJSON booster sheets
PUBLISHED = "published"  # the project's published-rates data (drafts/collations)
RARITY = "rarity"  # plain rarity collation: no booster data for the set

# The kind a set opens unless the event says otherwise: the newest it has. MTGJSON called draft
# boosters "default" before it named them "draft"; collector, arena, jumpstart... boosters are
# never the default while a set has one of these.
DEFAULT_KIND_ORDER = ("play", "draft", "default", "set")
PLAIN_KIND = "draft"
# MTGJSON's draft booster: opened from the set's booster printings only, as before booster kinds.
LEGACY_KINDS = ("default", "draft")
_ALIASES = {"draft": "default", "default": "draft"}


@dataclass(frozen=True)
class OpenedCard:
    card_id: int
    printing_id: int | None
    is_dfc: bool
    rarity: str
    foil: bool
    slot: str = ""  # the pack slot it came from (core.SLOT_CODES; "" for a cube)


@dataclass
class OpenedPack:
    cards: list[OpenedCard]
    removed: list[dict]  # basic land / checklist card taken out (not drafted, MTR; R17)


@dataclass(frozen=True)
class BoosterKind:
    name: str  # as MTGJSON names it ("default", "play", "arena"...)
    collation: str  # MTGJSON, PUBLISHED or RARITY
    source: str = ""  # the published article, for PUBLISHED

    @property
    def label(self) -> str:
        label = KIND_LABELS.get(self.name)
        return str(label) if label is not None else self.name

    @property
    def collation_label(self) -> str:
        return str(COLLATION_LABELS[self.collation])

    def as_dict(self) -> dict[str, str]:
        return {
            "name": self.name,
            "label": self.label,
            "collation": self.collation,
            "collation_label": self.collation_label,
            "source": self.source,
        }


@dataclass(frozen=True)
class SetBoosterKinds:
    set_code: str
    kinds: tuple[BoosterKind, ...]
    default: str

    def get(self, name: str | None) -> BoosterKind:
        """The kind named (``draft`` and ``default`` name the same one), the default for None."""
        wanted = (name or "").strip().lower() or self.default
        by_name = {k.name: k for k in self.kinds}
        found = by_name.get(wanted) or by_name.get(_ALIASES.get(wanted, ""))
        if found is None:
            raise DomainError(
                error_codes.UNKNOWN_BOOSTER_KIND,
                gettext("%(set_code)s has no %(kind)s boosters; it has: %(kinds)s.")
                % {"set_code": self.set_code, "kind": wanted, "kinds": ", ".join(by_name)},
                field="booster_kinds",
                set_code=self.set_code,
                kinds=list(by_name),
            )
        return found

    def as_dict(self) -> dict[str, Any]:
        return {"set_code": self.set_code, "default": self.default, "kinds": [k.as_dict() for k in self.kinds]}


@functools.cache
def published_collations() -> dict[tuple[str, str], dict[str, Any]]:
    """The project's published-rates data, by (set code, kind): read once from the repository."""
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for path in sorted(COLLATIONS_DIR.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        found[(str(data["set"]).upper(), str(data["kind"]))] = data
    return found


def booster_kinds(set_code: str) -> SetBoosterKinds:
    """The booster kinds a set offers, its default kind and the collation each one uses."""
    code = (set_code or "").strip().upper()
    card_set = CardSet.objects.filter(code=code).only("pk", "code", "booster").first()
    if card_set is None:
        raise DomainError(
            error_codes.UNKNOWN_SET,
            gettext("No set with code %(set_code)s is in the catalogue.") % {"set_code": code},
        )
    return _kinds_of(card_set)


def catalogue_booster_kinds() -> list[tuple[str, SetBoosterKinds]]:
    """Every set a booster draft can open, by name, with its kinds (what the event form lists)."""
    sets = booster_sets()
    full = {s.pk: s for s in CardSet.objects.filter(pk__in=[s.pk for s in sets]).only("pk", "code", "booster")}
    return [(card_set.name, _kinds_of(full[card_set.pk])) for card_set in sets]


def _kinds_of(card_set: CardSet) -> SetBoosterKinds:
    kinds: dict[str, BoosterKind] = {}
    mtgjson = card_set.booster if isinstance(card_set.booster, dict) else {}
    if mtgjson:
        # As the packs read them (SetPacks): the draft booster the set's booster printings,
        # another kind any printing its sheets name.
        known = {
            str(u)
            for u in Printing.objects.filter(
                card_set=card_set, in_boosters=True, mtgjson_uuid__isnull=False
            ).values_list("mtgjson_uuid", flat=True)
        }
        named: set[str] = set()
        for name, data in mtgjson.items():
            if name not in LEGACY_KINDS and isinstance(data, dict):
                named |= _sheet_uuids(data)
        anywhere = {
            str(u) for u in Printing.objects.filter(mtgjson_uuid__in=named).values_list("mtgjson_uuid", flat=True)
        }
        for name, data in mtgjson.items():
            if _usable_mtgjson(data, known if name in LEGACY_KINDS else known | anywhere):
                kinds[name] = BoosterKind(name, MTGJSON)
    for (code, name), data in published_collations().items():
        if code == card_set.code and name not in kinds:
            kinds[name] = BoosterKind(name, PUBLISHED, str(data.get("source") or ""))
    if not kinds:
        kinds[PLAIN_KIND] = BoosterKind(PLAIN_KIND, RARITY)
    default = next((k for k in DEFAULT_KIND_ORDER if k in kinds), next(iter(kinds)))
    ordered = (kinds[default], *(k for name, k in kinds.items() if name != default))
    return SetBoosterKinds(card_set.code, ordered, default)


def _usable_mtgjson(data: Any, known: set[str]) -> bool:
    """A kind whose sheets name none of the catalogue's printings of the set cannot be opened
    (the plain rarity collation stands in, as before booster kinds)."""
    try:
        return any(ref in known for sheet in data["sheets"].values() for ref in sheet["cards"])
    except (KeyError, TypeError, AttributeError):
        return False


@dataclass
class _PrintingInfo:
    printing_id: int
    card_id: int
    name: str
    is_dfc: bool
    rarity: str
    is_basic: bool
    set_code: str = ""
    card_types: tuple[str, ...] = ()
    supertypes: tuple[str, ...] = ()
    color_identity: str = ""

    @property
    def color_group(self) -> str:
        """What a ``balanceColors`` sheet balances by: one color identity, lands apart."""
        return self.color_identity if len(self.color_identity) == 1 and "Land" not in self.card_types else ""


def _printings(set_codes: list[str], uuids: set[str] | None = None) -> dict[str, _PrintingInfo]:
    """Booster printings of sets keyed by MTGJSON uuid (or by printing id when it has none), and
    the printings of any set the ``uuids`` name (an MTGJSON kind's sheets may hold promos and
    other sets' cards: a collector booster's extras, The List)."""
    where = Q(card_set__code__in=set_codes, in_boosters=True)
    if uuids:
        where |= Q(mtgjson_uuid__in=uuids)
    rows = Printing.objects.filter(where).values_list(
        "pk",
        "mtgjson_uuid",
        "card_id",
        "card__name",
        "card__layout",
        "rarity",
        "card__faces__supertypes",
        "card__faces__position",
        "card_set__code",
        "card__faces__card_types",
        "card__color_identity",
    )
    found: dict[str, _PrintingInfo] = {}
    for pk, mtgjson_uuid, card_id, name, layout, rarity, supertypes, position, code, card_types, identity in rows:
        if position not in (0, None):
            continue
        key = str(mtgjson_uuid) if mtgjson_uuid else f"printing:{pk}"
        found[key] = _PrintingInfo(
            pk,
            card_id,
            name,
            layout in DFC_LAYOUTS,
            rarity,
            "Basic" in (supertypes or []),
            code,
            tuple(card_types or ()),
            tuple(supertypes or ()),
            (identity or "").upper(),
        )
    return found


def _checklist_for(set_code: str) -> ChecklistCard | None:
    """The checklist card printed for a set, which takes the basic land slot (Innistrad)."""
    return ChecklistCard.objects.filter(parent_set_code=set_code, kind="checklist").order_by("collector_number").first()


class SetPacks:
    """Opens packs of one set and booster kind (None: the set's default kind) with a collation
    version (an event's ``collation_version``; the current one by default)."""

    def __init__(self, set_code: str, kind: str | None = None, collation_version: int = COLLATION_VERSION):
        card_set = CardSet.objects.filter(code=set_code).first()
        if card_set is None:
            raise DomainError(
                error_codes.UNKNOWN_SET,
                gettext("No set with code %(set_code)s is in the catalogue.") % {"set_code": set_code},
            )
        self.set_code = set_code
        self.kind = _kinds_of(card_set).get(kind)
        self.checklist = _checklist_for(set_code)
        self.collation: SheetCollation | PublishedCollation | RarityCollation
        if self.kind.collation == MTGJSON:
            booster = card_set.booster[self.kind.name]
            # The draft booster reads the set's booster printings only, as it always has (the
            # same seed opens the same packs); any other kind every card its sheets name.
            legacy = self.kind.name in LEGACY_KINDS
            self.printings = _printings([set_code], None if legacy else _sheet_uuids(booster))
            colors = {key: info.color_group for key, info in self.printings.items()}
            self.collation = SheetCollation.from_mtgjson(
                booster,
                usable=set(self.printings),
                colors=colors,
                balance_colors=collation_version > COLLATION_VERSION_UNBALANCED,
            )
        elif self.kind.collation == PUBLISHED:
            data = published_collations()[(card_set.code, self.kind.name)]
            self.printings = _printings([set_code, *_other_sets(data)])
            self.collation = self._published(data)
        else:
            self.printings = _printings([set_code])
            self.collation = self._plain()
        if not self.printings:
            raise DomainError(
                error_codes.NOT_ENOUGH_CARDS,
                gettext("The catalogue has no cards of %(set_code)s.") % {"set_code": set_code},
            )

    def _plain(self) -> RarityCollation:
        by_rarity: dict[str, list[str]] = {}
        basics = []
        for key, info in self.printings.items():
            if info.set_code and info.set_code != self.set_code:
                continue
            if info.is_basic:
                basics.append(key)
            else:
                by_rarity.setdefault(info.rarity, []).append(key)
        for refs in by_rarity.values():
            refs.sort()
        return RarityCollation(by_rarity, sorted(basics))

    def _published(self, data: dict[str, Any]) -> PublishedCollation:
        # One printing per card: a showcase or borderless printing is the same card for a draft.
        first: dict[int, str] = {}
        for key, info in sorted(self.printings.items(), key=lambda item: item[1].printing_id):
            first.setdefault(info.card_id, key)
        cards = [
            CatalogueCard(
                key,
                info.name,
                info.set_code,
                info.rarity,
                frozenset(info.card_types),
                frozenset(info.supertypes),
            )
            for key in first.values()
            for info in (self.printings[key],)
        ]
        try:
            return PublishedCollation.from_data(data, self.set_code, cards)
        except CollationDataError as exc:
            raise DomainError(
                error_codes.NOT_ENOUGH_CARDS,
                gettext("The catalogue cannot fill the %(set_code)s boosters: %(reason)s.")
                % {"set_code": self.set_code, "reason": exc},
            ) from None

    def open(self, rng: random.Random) -> OpenedPack:
        cards, removed = [], []
        for slot in self.collation.open(rng):
            info = self.printings[str(slot.ref)]
            # A draft booster's basic land slot is not drafted (MTR); a foil that happens to be a
            # basic is, and so is every card of a Play Booster.
            if not slot.draftable:
                removed.append(self._removed(slot, info))
                continue
            cards.append(OpenedCard(info.card_id, info.printing_id, info.is_dfc, info.rarity, slot.foil, slot.slot))
        return OpenedPack(cards, removed)

    def _removed(self, slot: Slot, info: _PrintingInfo) -> dict:
        # In Innistrad boosters the checklist card took the basic land slot.
        if self.checklist is not None and slot.sheet == "basic":
            return {"kind": "checklist", "checklist_id": self.checklist.pk, "name": self.checklist.name}
        return {"kind": "basic_land", "card_id": info.card_id, "name": info.name}


def _sheet_uuids(booster: dict[str, Any]) -> set[str]:
    uuids = set()
    sheets = booster.get("sheets") if isinstance(booster, dict) else None
    for sheet in (sheets or {}).values():
        for ref in (sheet.get("cards") if isinstance(sheet, dict) else None) or {}:
            try:
                uuids.add(str(uuid.UUID(ref)))
            except (ValueError, TypeError, AttributeError):
                continue  # not a uuid: no printing can match it
    return uuids


def _other_sets(data: dict[str, Any]) -> list[str]:
    """Sets other than its own that a published collation draws from (The List, Special Guests)."""
    return sorted(
        {str(s["set"]).upper() for s in (data.get("sheets") or {}).values() if isinstance(s, dict) and s.get("set")}
    )


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
    rounds = event.round_boosters()
    openers = {pair: SetPacks(*pair, collation_version=event.collation_version) for pair in set(rounds)}
    for round_number, pair in enumerate(rounds, start=1):
        packs[round_number] = [openers[pair].open(rng) for _ in range(seats)]
    return packs
