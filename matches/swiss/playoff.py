"""Single-elimination playoff for the top 8 (or 4), seeded by Swiss standings."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

# Seeds meeting in the first round, in table order: the winners of tables 1 and 2 meet next,
# so seeds 1 and 2 can only meet in the final.
BRACKETS = {
    8: ((1, 8), (4, 5), (2, 7), (3, 6)),
    4: ((1, 4), (2, 3)),
    2: ((1, 2),),
}


def playoff_first_round(seeded: Sequence[Hashable], size: int) -> list[tuple]:
    """``seeded`` is the standings order (first = seed 1); returns the first round's tables."""
    if size not in BRACKETS:
        raise ValueError(f"A playoff has 2, 4 or 8 players, not {size}.")
    if len(seeded) < size:
        raise ValueError(f"A top {size} needs {size} players; there are {len(seeded)}.")
    return [(seeded[high - 1], seeded[low - 1]) for high, low in BRACKETS[size]]


def playoff_next_round(winners: Sequence[Hashable]) -> list[tuple]:
    """Winners of the previous round in table order: table 1's winner meets table 2's."""
    if len(winners) < 2 or len(winners) % 2:
        raise ValueError("The next playoff round needs an even number of winners.")
    return [(winners[i], winners[i + 1]) for i in range(0, len(winners), 2)]
