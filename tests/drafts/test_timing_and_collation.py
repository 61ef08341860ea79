"""Clock tables (MTR), pass directions, automatic pick choice, plain collation."""

import random

import pytest

from drafts.core.autopick import Candidate, choose
from drafts.core.collation import RarityCollation, Sheet, SheetCollation, deal_cube
from drafts.core.timing import pass_direction, pick_seconds, review_seconds
from drafts.services.events import split_into_pods


@pytest.mark.parametrize(
    "cards_left, expected",
    [
        (15, 40),
        (14, 40),
        (13, 35),
        (12, 30),
        (11, 25),
        (10, 25),
        (9, 20),
        (8, 20),
        (7, 15),
        (6, 10),
        (5, 10),
        (4, 5),
        (3, 5),
        (2, 5),
        (1, None),
    ],
)
def test_mtr_pick_timer_table(cards_left, expected):
    assert pick_seconds(cards_left) == expected


def test_review_time_between_rounds():
    assert [review_seconds(r) for r in (1, 2, 3)] == [60, 90, 0]


def test_packs_pass_left_right_left():
    assert [pass_direction(r) for r in (1, 2, 3)] == [1, -1, 1]


@pytest.mark.parametrize("players, sizes", [(8, [8]), (9, [5, 4]), (16, [8, 8]), (17, [6, 6, 5]), (3, [3])])
def test_pods_are_as_even_as_possible(players, sizes):
    assert split_into_pods(players) == sizes


def test_automatic_pick_takes_the_rarest_then_the_colors_picked():
    pack = [Candidate(1, "common", "G"), Candidate(2, "rare", "U"), Candidate(3, "rare", "G")]
    best, reason = choose(pack, ["G", "G", "UG"])
    assert best.key == 3 and "rare" in reason and "G" in reason
    best, _ = choose(pack, [])
    assert best.key == 2  # equal rarity, no colors yet: first in the pack


def test_rarity_collation_shape_and_reproducibility():
    collation = RarityCollation(
        {
            "common": [f"c{i}" for i in range(80)],
            "uncommon": [f"u{i}" for i in range(40)],
            "rare": [f"r{i}" for i in range(20)],
            "mythic": [f"m{i}" for i in range(5)],
        },
        basics=["plains", "island"],
    )
    pack = collation.open(random.Random(3))
    sheets = [slot.sheet for slot in pack]
    assert sheets.count("common") == 10 and sheets.count("uncommon") == 3
    assert sheets.count("rare") + sheets.count("mythic") == 1
    assert [s for s in pack if not s.draftable][0].sheet == "basic"
    assert pack == collation.open(random.Random(3))
    mythics = sum(any(s.sheet == "mythic" for s in collation.open(random.Random(i))) for i in range(4000))
    assert 0.10 < mythics / 4000 < 0.15  # 1 in 8


def test_sheet_draws_follow_weights():
    sheet_collation = SheetCollation([({"s": 1}, 1)], {"s": Sheet("s", ["a", "b"], [3, 1])})
    rng = random.Random(1)
    draws = [sheet_collation.open(rng)[0].ref for _ in range(8000)]
    assert 0.72 < draws.count("a") / 8000 < 0.78


def test_cube_deals_without_replacement():
    packs = deal_cube(list(range(45)), 3, 15, random.Random(1))
    assert sorted(x for p in packs for x in p) == list(range(45))
    with pytest.raises(ValueError):
        deal_cube(list(range(10)), 3, 15, random.Random(1))
