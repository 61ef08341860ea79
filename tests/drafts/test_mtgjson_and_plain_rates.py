"""The two collations the Play Booster tests (test_play_boosters.py) do not cover, over 10,000
seeded packs each, pure core: an MTGJSON draft booster honoured exactly (ISD's ``default``
kind: its variants' weights, its sheets' weights, its foil sheet) and the plain rarity
collation of a set with no booster data. Each assertion names the rate it checks; a rate is
met within 5 standard errors of a binomial sample."""

from __future__ import annotations

import math
import random
from collections import Counter

from drafts.core.collation import RarityCollation, SheetCollation
from tests.drafts.test_balance_colors import colors, mtgjson

PACKS = 10_000


def assert_rate(hits: int, trials: int, rate: float, what: str) -> None:
    error = 5 * math.sqrt(rate * (1 - rate) / trials) if 0 < rate < 1 else 0
    assert abs(hits / trials - rate) <= error, f"{what}: {hits}/{trials} = {hits / trials:.4f}, expected {rate:.4f}"


def test_isd_draft_booster_follows_its_mtgjson_weights():
    data = mtgjson("ISD")
    booster = data["booster"]["default"]
    rarity = {card["uuid"]: card["rarity"] for card in data["cards"]}
    collation = SheetCollation.from_mtgjson(booster, colors=colors("ISD"))
    rng = random.Random(2011)
    packs = [collation.open(rng) for _ in range(PACKS)]
    variants = {tuple(sorted(v["contents"].items())): v["weight"] for v in booster["boosters"]}
    total = sum(variants.values())
    foil_weight = sum(w for contents, w in variants.items() if dict(contents).get("foil"))
    with_foil = sum(any(s.sheet == "foil" for s in pack) for pack in packs)
    assert_rate(with_foil, PACKS, foil_weight / total, f"ISD packs with a foil {foil_weight}/{total}")
    for name in ("sfcRareMythic", "dfc"):
        sheet = booster["sheets"][name]["cards"]
        mythic = sum(w for uuid, w in sheet.items() if rarity.get(uuid) == "mythic") / sum(sheet.values())
        drawn = [s for pack in packs for s in pack if s.sheet == name]
        assert len(drawn) == PACKS  # one per pack, every variant
        hits = sum(rarity[str(s.ref)] == "mythic" for s in drawn)
        assert_rate(hits, PACKS, mythic, f"ISD {name} mythic share of the sheet's weight {mythic:.4f}")
    foils = [s for pack in packs for s in pack if s.sheet == "foil"]
    assert all(s.foil and s.slot == "foil" and s.draftable for s in foils)
    sheet = booster["sheets"]["foil"]["cards"]
    rare_or_mythic = sum(w for u, w in sheet.items() if rarity.get(u) in ("rare", "mythic")) / sum(sheet.values())
    hits = sum(rarity[str(s.ref)] in ("rare", "mythic") for s in foils)
    assert_rate(hits, len(foils), rare_or_mythic, f"ISD foil rare or mythic {rare_or_mythic:.4f}")
    basics = [s for pack in packs for s in pack if s.sheet == "basic"]
    assert len(basics) == PACKS and not any(s.draftable for s in basics)  # the land slot is not drafted (MTR)


def test_the_plain_rarity_collation():
    by_rarity = {
        "common": [f"c{i}" for i in range(101)],
        "uncommon": [f"u{i}" for i in range(60)],
        "rare": [f"r{i}" for i in range(53)],
        "mythic": [f"m{i}" for i in range(15)],
    }
    collation = RarityCollation(by_rarity, [f"b{i}" for i in range(5)])
    rng = random.Random(1)
    packs = [collation.open(rng) for _ in range(PACKS)]
    slots = Counter(s.slot for pack in packs for s in pack)
    assert slots == {"rare_mythic": PACKS, "uncommon": 3 * PACKS, "common": 10 * PACKS, "land": PACKS}
    mythics = sum(str(s.ref).startswith("m") for pack in packs for s in pack if s.slot == "rare_mythic")
    assert_rate(mythics, PACKS, 1 / 8, "plain collation: mythic 1 in 8 rare slots")
    assert all(len({s.ref for s in pack}) == len(pack) for pack in packs)  # no card twice in a pack
    assert not any(s.draftable for pack in packs for s in pack if s.slot == "land")
    one = Counter(s.ref for pack in packs for s in pack if s.slot == "common")
    assert_rate(one["c0"], PACKS, 10 / 101, "plain collation: a given common 10/101 per pack")
