"""MTGJSON ``balanceColors`` (drafts.core.collation.Sheet._draw_balanced), over the real
sheets of the bundled ISD and ZNR files and 10,000 seeded packs each; pure core, no database.

Rates checked (the sheet's own weights; ``p`` a color group's share of the sheet's weight):
- every pack holds a common of each color (the balance): 100% of packs;
- a color group's expected commons per pack stay ``count * p`` (the balancing moves no weight
  between colors), within 4 standard errors of the sample mean;
- a single card's rate stays ``count * weight / total`` (within 4 standard errors).
Without the flag the same sheets miss a color in a good share of packs (the check can fail)."""

from __future__ import annotations

import gzip
import json
import math
import random
from collections import Counter
from collections.abc import Hashable
from functools import cache

import pytest

from cards.services import BUNDLED_DATA_DIR
from drafts.core.collation import BALANCED_COLORS, Sheet, SheetCollation

PACKS = 10_000


@cache
def mtgjson(code: str) -> dict:
    with gzip.open(BUNDLED_DATA_DIR / "mtgjson" / f"{code}.json.gz", "rt", encoding="utf-8") as f:
        return json.load(f)["data"]


def colors(code: str) -> dict[Hashable, str]:
    """Each printing's color group, as the service computes it: one color identity, not a land."""
    out: dict[Hashable, str] = {}
    for card in mtgjson(code)["cards"]:
        identity = "".join(card.get("colorIdentity") or [])
        out[card["uuid"]] = identity if len(identity) == 1 and "Land" not in card.get("types", []) else ""
    return out


def common_sheet(code: str, kind: str, name: str) -> tuple[SheetCollation, Sheet]:
    collation = SheetCollation.from_mtgjson(mtgjson(code)["booster"][kind], colors=colors(code))
    return collation, collation.sheets[name]


CASES = [("ISD", "default", "sfcCommon", 9), ("ZNR", "default", "common", 10), ("ZNR", "arena", "common", 10)]


@pytest.mark.parametrize(("code", "kind", "name", "count"), CASES)
def test_a_balanced_sheet_gives_every_color_and_keeps_each_rate(code, kind, name, count):
    _, sheet = common_sheet(code, kind, name)
    assert sheet.balance_colors and set(sheet.colors.values()) == {*BALANCED_COLORS, ""}
    total = sum(sheet.weights)
    share = Counter[str]()
    for ref, weight in zip(sheet.refs, sheet.weights, strict=True):
        share[sheet.colors[ref]] += weight / total
    rng = random.Random(47)
    per_color = {c: [] for c in share}
    picked = Counter()
    for _ in range(PACKS):
        drawn = sheet.draw(rng, count, set())
        assert len(drawn) == count and len(set(drawn)) == count  # no card twice in a pack
        groups = Counter(sheet.colors[ref] for ref in drawn)
        assert all(groups[c] >= 1 for c in BALANCED_COLORS), groups  # the balance: every color
        for c in share:
            per_color[c].append(groups[c])
        picked.update(drawn)
    for c, values in per_color.items():
        mean = sum(values) / PACKS
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (PACKS - 1))
        expected = count * share[c]  # the rate: a group's weight share of each pack's commons
        assert abs(mean - expected) < 4 * sd / math.sqrt(PACKS) + 0.01, (c, mean, expected)
    weight = dict(zip(sheet.refs, sheet.weights, strict=True))
    for ref in sorted(weight, key=str)[:20]:
        rate = count * weight[ref] / total  # one card's rate per pack
        assert abs(picked[ref] / PACKS - rate) < 4 * math.sqrt(rate * (1 - rate / count) / PACKS) + 0.003, ref


@pytest.mark.parametrize(("code", "kind", "name", "count"), CASES)
def test_the_same_sheet_without_the_flag_misses_a_color_in_many_packs(code, kind, name, count):
    _, sheet = common_sheet(code, kind, name)
    sheet.balance_colors = False
    rng = random.Random(47)
    missing = sum(
        1
        for _ in range(2_000)
        if len({sheet.colors[r] for r in sheet.draw(rng, count, set())} & set(BALANCED_COLORS)) < 5
    )
    assert missing > 2_000 * 0.2  # roughly half the packs: what balancing is for


def test_the_balance_is_seeded_and_a_sheet_that_cannot_be_balanced_draws_plainly():
    _, sheet = common_sheet("ISD", "default", "sfcCommon")
    one = [sheet.draw(random.Random(seed), 9, set()) for seed in range(50)]
    assert one == [sheet.draw(random.Random(seed), 9, set()) for seed in range(50)]
    # Five cards or fewer: no room for the balance; the plain draw (same stream as unflagged).
    plain = Sheet(sheet.name, sheet.refs, sheet.weights)
    assert sheet.draw(random.Random(3), 5, set()) == plain.draw(random.Random(3), 5, set())
    # A color with no card in the sheet (the catalogue lacks them): the plain draw too.
    no_green = {r: ("" if c == "G" else c) for r, c in sheet.colors.items()}
    lacking = Sheet(sheet.name, sheet.refs, sheet.weights, balance_colors=True, colors=no_green)
    assert lacking.draw(random.Random(3), 9, set()) == plain.draw(random.Random(3), 9, set())


def test_a_whole_isd_pack_keeps_its_other_slots():
    collation, _ = common_sheet("ISD", "default", "sfcCommon")
    rng = random.Random(5)
    for _ in range(500):
        slots = collation.open(rng)
        sheets = Counter(s.sheet for s in slots)
        assert sheets["sfcRareMythic"] == 1 and sheets["sfcUncommon"] == 3 and sheets["dfc"] == 1
        assert sheets["sfcCommon"] + sheets["foil"] == 9 and sheets["basic"] == 1
