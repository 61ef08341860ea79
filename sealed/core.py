"""Sealed's plain-Python core: the MTR 7.5 swap and what N boosters can hold. No Django."""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

# The rarity groups a registered pool is counted in (rare and mythic share the rare slot).
RARE_OR_MYTHIC = "rare_mythic"
UNCOMMON = "uncommon"
COMMON = "common"
OTHER = "other"
GROUPS = (RARE_OR_MYTHIC, UNCOMMON, COMMON, OTHER)


def rarity_group(rarity: str) -> str:
    if rarity in ("rare", "mythic"):
        return RARE_OR_MYTHIC
    if rarity in (UNCOMMON, COMMON):
        return rarity
    return OTHER


K = TypeVar("K", bound=Hashable)


def derangement(items: Sequence[K], rng: random.Random) -> dict[K, K]:
    """Who receives whose: ``{giver: receiver}``, nobody their own (MTR 7.5), reproducible from
    ``rng``. Sattolo's shuffle makes one cycle through everybody, so no fixed point exists;
    it needs at least two items."""
    if len(items) < 2:
        raise ValueError("A swap needs at least two pools.")
    order = list(items)
    for i in range(len(order) - 1, 0, -1):
        j = rng.randrange(i)  # j < i: never in place (Sattolo)
        order[i], order[j] = order[j], order[i]
    # order is a cycle: each item hands its pool to the next one in it.
    return {order[i]: order[(i + 1) % len(order)] for i in range(len(order))}


@dataclass(frozen=True)
class BoosterLimits:
    """The most one booster of a collation can hold: cards played (basic-land slots are not
    counted) and cards per rarity group."""

    cards: int
    per_group: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Problem:
    code: str
    group: str
    found: int
    allowed: int


def pool_problems(counts: dict[str, int], boosters: Sequence[BoosterLimits]) -> list[Problem]:
    """Why a pool cannot come out of these boosters: too many cards, or too many of a rarity
    group (``counts`` per group). Empty when it can."""
    problems = []
    total = sum(counts.values())
    most = sum(b.cards for b in boosters)
    if total > most:
        problems.append(Problem("too_many_cards", "", total, most))
    for group in GROUPS:
        if group == OTHER:
            continue
        allowed = sum(b.per_group.get(group, 0) for b in boosters)
        if counts.get(group, 0) > allowed:
            problems.append(Problem("too_many_of_rarity", group, counts[group], allowed))
    return problems
