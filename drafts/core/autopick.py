"""The automatic pick: simple and explainable, so judges can tell a player why.

Rarest card first (mythic, rare, uncommon, common); among equals, the card sharing most
colors with what the seat has already picked; then the first in the pack.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

RARITY_RANK = {"mythic": 0, "rare": 1, "special": 1, "bonus": 1, "uncommon": 2, "common": 3}
# Any other rarity (none recorded, an unknown one) ranks as a common.
OTHER_RARITY_RANK = RARITY_RANK["common"]


@dataclass(frozen=True)
class Candidate:
    key: int  # the DraftCard id
    rarity: str
    colors: str  # WUBRG letters of the card (color identity)


def choose(candidates: list[Candidate], picked_colors: list[str]) -> tuple[Candidate, str]:
    """The card to pick and a one-line explanation."""
    if not candidates:
        raise ValueError("an empty pack has nothing to pick")
    weight = Counter(c for colors in picked_colors for c in colors)

    def score(c: Candidate) -> tuple[int, int]:
        return (RARITY_RANK.get(c.rarity, OTHER_RARITY_RANK), -sum(weight[letter] for letter in c.colors))

    best = min(candidates, key=score)  # min() keeps the first of equals: pack order
    reason = f"rarest card ({best.rarity or 'common'})"
    if weight and best.colors and any(weight[c] for c in best.colors):
        reason += f", matching the colors picked so far ({''.join(sorted(set(best.colors)))})"
    return best, reason
