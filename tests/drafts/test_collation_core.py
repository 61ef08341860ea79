"""The pure collation core (no database): the published-rates data over a made-up catalogue,
its fallbacks and refusals, MTGJSON sheet options and slot codes."""

from __future__ import annotations

import math
import random
from collections import Counter
from pathlib import Path

import pytest
import yaml

from drafts.core.collation import (
    CatalogueCard,
    CollationDataError,
    PublishedCollation,
    Sheet,
    SheetCollation,
    mtgjson_slot,
)

DATA = Path(__file__).resolve().parents[2] / "drafts" / "collations"


def catalogue(set_code: str = "DSK") -> list[CatalogueCard]:
    cards = [CatalogueCard(f"c{i}", f"Common {i}", set_code, "common", frozenset({"Creature"})) for i in range(80)]
    cards += [CatalogueCard(f"l{i}", f"Dual {i}", set_code, "common", frozenset({"Land"})) for i in range(10)]
    cards.append(CatalogueCard("tx", "Terramorphic Expanse", set_code, "common", frozenset({"Land"})))
    basic = (frozenset({"Land"}), frozenset({"Basic"}))
    cards += [CatalogueCard(f"b{i}", f"Basic {i}", set_code, "common", *basic) for i in range(5)]
    cards += [CatalogueCard(f"u{i}", f"Uncommon {i}", set_code, "uncommon", frozenset({"Instant"})) for i in range(40)]
    cards += [CatalogueCard(f"r{i}", f"Rare {i}", set_code, "rare", frozenset({"Sorcery"})) for i in range(30)]
    cards += [CatalogueCard(f"rl{i}", f"Rare land {i}", set_code, "rare", frozenset({"Land"})) for i in range(10)]
    cards += [CatalogueCard(f"m{i}", f"Mythic {i}", set_code, "mythic", frozenset({"Creature"})) for i in range(10)]
    return cards


def load(name: str) -> dict:
    return yaml.safe_load((DATA / name).read_text(encoding="utf-8"))


def within(hits: int, trials: int, rate: float) -> bool:
    return abs(hits / trials - rate) <= 5 * math.sqrt(rate * (1 - rate) / trials)


def test_the_dsk_data_over_a_made_up_catalogue():
    """DSK rates, checked on the data alone: Special Guest 1 in 64 when the catalogue has SPG
    cards; foil land 1 in 5; rare:mythic 6:1."""
    guests = [CatalogueCard(f"g{i}", f"Guest {i}", "SPG", "mythic", frozenset({"Instant"})) for i in range(10)]
    collation = PublishedCollation.from_data(load("dsk-play.yaml"), "DSK", catalogue() + guests)
    assert collation.fallbacks == {}
    rng = random.Random(8)
    packs = [collation.open(rng) for _ in range(10_000)]
    slots = Counter(s.slot for p in packs for s in p)
    assert within(slots["special_guest"], 10_000, 1 / 64)
    assert within(sum(s.foil for p in packs for s in p if s.slot == "land"), 10_000, 1 / 5)
    rares = [s.ref for p in packs for s in p if s.slot == "rare_mythic"]
    assert within(sum(str(r).startswith("m") for r in rares), 10_000, 1 / 7)
    assert all(s.ref not in {"tx"} for p in packs for s in p if s.slot == "land")  # Terramorphic is a common


def test_a_missing_sheet_falls_back_as_the_data_says_and_is_recorded_as_a_common():
    collation = PublishedCollation.from_data(load("mkm-play.yaml"), "MKM", catalogue("MKM"))
    assert collation.fallbacks == {"list_reprint": "common", "special_guest": "common"}
    packs = [collation.open(random.Random(i)) for i in range(400)]
    assert all(Counter(s.slot for s in p)["common"] == 7 for p in packs)
    assert not any(s.slot in ("the_list", "special_guest") for p in packs for s in p)


def test_packs_are_reproducible_from_the_seed():
    collation = PublishedCollation.from_data(load("dsk-play.yaml"), "DSK", catalogue())
    assert collation.open(random.Random(5)) == collation.open(random.Random(5))
    assert collation.open(random.Random(5)) != collation.open(random.Random(6))


@pytest.mark.parametrize(
    "data, reason",
    [
        ({"pack": [{"slot": "common", "sheet": "nope"}], "sheets": {}}, "unknown or circular sheet"),
        ({"pack": [{"slot": "x", "sheet": "a"}], "sheets": {"a": {"any": [{"sheet": "a"}]}}}, "circular"),
        ({"pack": [{"slot": "x", "sheet": "a"}], "sheets": {"a": {"rarity": "special"}}}, "selects no card"),
        ({"pack": [{"slot": "x", "sheet": "a"}], "sheets": {"a": {"rarty": "common"}}}, "unknown keys"),
        ({"pack": [], "sheets": {}}, "no pack positions"),
    ],
)
def test_malformed_data_is_refused(data, reason):
    with pytest.raises(CollationDataError, match=reason):
        PublishedCollation.from_data(data, "DSK", catalogue())


def test_mtgjson_sheet_names_become_slot_codes():
    assert mtgjson_slot("sfcRareMythic") == mtgjson_slot("modaldfcRareMythic") == "rare_mythic"
    assert mtgjson_slot("basicOrGainland") == mtgjson_slot("basictype") == "land"
    assert mtgjson_slot("nonBasictypeCommon") == mtgjson_slot("nongainlandCommon") == "common"
    assert mtgjson_slot("dfc") == mtgjson_slot("dfcCommonUncommon") == "dfc"
    assert mtgjson_slot("foilRare", foil=True) == "foil"
    assert mtgjson_slot("sfcUncommon") == "uncommon"
    assert mtgjson_slot("showcaseFrame") == "showcase_frame"


def test_mtgjson_fixed_and_duplicate_sheets():
    """MTGJSON ``fixed`` sheets give every card as many times as its weight; ``allowDuplicates``
    sheets may repeat a card."""
    fixed = SheetCollation([({"f": 1}, 1)], {"f": Sheet("f", ["a", "b"], [2, 1], fixed=True)})
    assert [s.ref for s in fixed.open(random.Random(1))] == ["a", "a", "b"]
    refs = ["a", "b", "c"]
    dupes = SheetCollation([({"d": 2}, 1)], {"d": Sheet("d", refs, [1, 1, 1], allow_duplicates=True)})
    assert any(len({s.ref for s in dupes.open(random.Random(i))}) == 1 for i in range(50))
    distinct = SheetCollation([({"d": 2}, 1)], {"d": Sheet("d", refs, [1, 1, 1])})
    assert all(len({s.ref for s in distinct.open(random.Random(i))}) == 2 for i in range(50))
