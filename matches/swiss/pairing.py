"""Swiss pairings (MTR 3.1 byes; no rematch when a pairing without one exists).

The active players are ordered by match points, highest first, and randomly inside each
point group from the stored seed (so the same seed and history give the same pairings). Each
point group pairs inside itself (a depth-first search that backtracks around rematches); an
odd group floats its lowest player who can be spared down to the next group. If that leaves
anyone unpaired at the bottom, a global depth-first search over the whole order decides (with
the blossom algorithm as the oracle when it runs long), so there is never a rematch when a
pairing without one exists. If the count is odd, the bye goes
to the lowest-ranked player (by standings) who has not had one and whose absence still lets
everybody else pair without a rematch.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field

from matches.swiss.matching import maximum_matching
from matches.swiss.results import Result
from matches.swiss.standings import compute_standings, opponents_by_player

SEARCH_BUDGET = 200_000  # steps of the depth-first search before the blossom oracle decides


@dataclass(frozen=True)
class Pairing:
    tables: list  # [(a, b), ...] in table order (table 1 first)
    bye: Hashable | None = None
    rematches: int = 0
    notes: list = field(default_factory=list)


def _rng(seed, round_number: int) -> random.Random:
    return random.Random(f"{seed}:{round_number}")


def across_the_table(seated: Sequence[Hashable], seed=0, round_number: int = 1) -> Pairing:
    """Round 1 of a pod: each player meets the one across the table (seat 1 v seat 5 of 8).

    With an odd count a randomly chosen player (from the seed) gets the bye and the rest pair
    across in seat order.
    """
    seated = list(seated)
    bye = None
    if len(seated) % 2:
        bye = _rng(seed, round_number).choice(seated)
        seated.remove(bye)
    half = len(seated) // 2
    return Pairing(tables=[(seated[i], seated[i + half]) for i in range(half)], bye=bye)


def _search(order: list, forbidden: list[set[int]], budget: int):
    """Pairs of positions in ``order`` with no rematch, None if none exist, or "budget"."""
    n = len(order)
    if n % 2:
        return None
    paired = [False] * n
    stack: list[tuple[int, int]] = []
    i, start, steps = 0, 1, 0
    while i < n:
        j = start
        while j < n and (paired[j] or j in forbidden[i]):
            j += 1
        if j < n:
            paired[i] = paired[j] = True
            stack.append((i, j))
            steps += 1
            if steps > budget:
                return "budget"
            i += 1
            while i < n and paired[i]:
                i += 1
            start = i + 1
        else:
            if not stack:
                return None
            i, last = stack.pop()
            paired[i] = paired[last] = False
            start = last + 1
    return stack


def _forbidden(order: list, played: dict) -> list[set[int]]:
    """For each position in ``order``, the positions of players already met (and itself)."""
    position = {player: index for index, player in enumerate(order)}
    return [
        {position[o] for o in played.get(player, ()) if o in position} | {index} for index, player in enumerate(order)
    ]


def _adjacency(forbidden: list[set[int]]) -> list[list[int]]:
    n = len(forbidden)
    return [[j for j in range(n) if j not in banned] for banned in forbidden]


GROUP_BUDGET = 20_000  # search steps per point group before it floats players greedily


def _pair_group(members: list, played: dict) -> tuple[list, list]:
    """Pairs inside one point group (players floated from above first), and who floats down.

    An even group pairs completely if it can; an odd one floats its lowest player whose
    absence lets the rest pair. If the search gives up, pair greedily and float the rest.
    """

    def attempt(sub):
        found = _search(sub, _forbidden(sub, played), GROUP_BUDGET)
        if found is None or found == "budget":
            return None
        return [(sub[i], sub[j]) for i, j in sorted(found)]

    if len(members) % 2 == 0:
        pairs = attempt(members)
        if pairs is not None:
            return pairs, []
    else:
        for candidate in reversed(members):
            pairs = attempt([m for m in members if m != candidate])
            if pairs is not None:
                return pairs, [candidate]
    pairs, left = [], list(members)
    while left:
        first = left.pop(0)
        partner = next((m for m in left if m not in played.get(first, ())), None)
        if partner is None:
            continue
        left.remove(partner)
        pairs.append((first, partner))
    paired = {p for pair in pairs for p in pair}
    return pairs, [m for m in members if m not in paired]


def _pair_by_groups(order: list, points: dict, played: dict):
    """Swiss the usual way: each point group pairs inside itself; odd ones float down.
    None if players are left at the bottom (the global search then decides)."""
    tables: list = []
    floaters: list = []
    groups: dict = {}
    for player in order:
        groups.setdefault(points[player], []).append(player)
    for value in sorted(groups, reverse=True):
        pairs, floaters = _pair_group(floaters + groups[value], played)
        tables += pairs
    return None if floaters else tables


def _pair_without_rematch(order: list, played: dict, budget: int, points: dict | None = None):
    if points is not None:
        grouped = _pair_by_groups(order, points, played)
        if grouped is not None:
            return grouped
    forbidden = _forbidden(order, played)
    found = _search(order, forbidden, budget)
    if found == "budget":
        # The search gave up: the blossom algorithm says for certain whether a perfect
        # matching without rematches exists (and gives one, less neatly Swiss-ordered).
        mate = maximum_matching(len(order), _adjacency(forbidden))
        if -1 in mate:
            return None
        found = sorted({(min(i, m), max(i, m)) for i, m in enumerate(mate)})
    if found is None:
        return None
    return [(order[i], order[j]) for i, j in sorted(found)]


def _pair_fewest_rematches(order: list, played: dict) -> tuple[list, int]:
    mate = maximum_matching(len(order), _adjacency(_forbidden(order, played)))
    pairs = {(min(i, m), max(i, m)) for i, m in enumerate(mate) if m != -1}
    left = [i for i, m in enumerate(mate) if m == -1]
    rematches = len(left) // 2
    pairs |= {(left[k], left[k + 1]) for k in range(0, len(left), 2)}
    return sorted((order[i], order[j]) for i, j in pairs), rematches


def _first_bye_without_rematch(
    order: list, candidates: list, played, budget: int, points: dict, notes: list[str]
) -> Pairing | None:
    """The pairing for the first bye candidate that leaves the others a pairing without a
    rematch, if any does."""
    for candidate in candidates:
        remaining = [p for p in order if p != candidate]
        tables = _pair_without_rematch(remaining, played, budget, points)
        if tables is not None:
            return Pairing(tables=tables, bye=candidate, notes=notes)
    return None


def pair_round(
    players: Iterable[Hashable],
    history: Sequence[Result],
    seed,
    round_number: int,
    *,
    everyone: Iterable[Hashable] = (),
    budget: int = SEARCH_BUDGET,
) -> Pairing:
    """Pair ``players`` (the active ones: dropped players are simply not passed in).

    ``history`` holds every earlier result of this Swiss (players who dropped included: they
    still count for tiebreakers); ``everyone`` lists players with no result yet.
    """
    active = list(dict.fromkeys(players))
    rng = _rng(seed, round_number)
    shuffled = active[:]
    rng.shuffle(shuffled)
    tiebreak = {player: index for index, player in enumerate(shuffled)}
    standings = {row.player: row for row in compute_standings(set(everyone) | set(active), history)}
    order = sorted(shuffled, key=lambda p: -standings[p].match_points)
    points = {p: standings[p].match_points for p in order}
    played = opponents_by_player(history)
    byes = {r.a for r in history if r.is_bye}
    notes: list[str] = []

    bye = None
    rest = order
    if len(order) % 2:
        # Lowest-ranked first: fewest match points, then tiebreakers, then the seeded order.
        ranked = sorted(order, key=lambda p: (standings[p].sort_key, -tiebreak[p]))
        candidates = [p for p in ranked if p not in byes] or ranked
        if not [p for p in ranked if p not in byes]:
            notes.append("Every player has had a bye; the lowest-ranked player gets another.")
        pairing = _first_bye_without_rematch(order, candidates, played, budget, points, notes)
        if pairing is not None:
            return pairing
        bye = candidates[0]
        rest = [p for p in order if p != bye]
    else:
        tables = _pair_without_rematch(order, played, budget, points)
        if tables is not None:
            return Pairing(tables=tables, notes=notes)
    tables, rematches = _pair_fewest_rematches(rest, played)
    notes.append(f"No pairing without rematches exists: {rematches} rematch(es).")
    position = {p: i for i, p in enumerate(rest)}
    tables.sort(key=lambda t: min(position[t[0]], position[t[1]]))
    return Pairing(tables=tables, bye=bye, rematches=rematches, notes=notes)
