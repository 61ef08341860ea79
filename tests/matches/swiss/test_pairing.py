"""Pairing properties over random histories (hypothesis): nobody twice in a round, no rematch
when a pairing without one exists, byes only to players without one, dropped players absent,
the same seed gives the same pairings."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from matches.swiss import Result, across_the_table, compute_standings, pair_round
from matches.swiss.matching import maximum_matching
from matches.swiss.playoff import playoff_first_round, playoff_next_round


def rematch_free_exists(players, played, byes) -> bool:
    """Brute force: can ``players`` be paired (one bye, to a player without one, if odd)
    with no rematch?"""
    players = list(players)

    def pair(rest):
        if not rest:
            return True
        first, others = rest[0], rest[1:]
        return any(
            pair(others[:i] + others[i + 1 :]) for i, o in enumerate(others) if o not in played.get(first, set())
        )

    if len(players) % 2 == 0:
        return pair(players)
    candidates = [p for p in players if p not in byes] or players
    return any(pair([p for p in players if p != c]) for c in candidates)


def random_history(rng, players, rounds):
    """Arbitrary (not Swiss) rounds with random results and drops: adversarial histories."""
    history, active, dropped = [], list(players), set()
    for number in range(1, rounds + 1):
        order = active[:]
        rng.shuffle(order)
        if len(order) % 2:
            history.append(Result(number, order.pop()))
        for i in range(0, len(order), 2):
            a_wins, b_wins = rng.choice([(2, 0), (0, 2), (2, 1), (1, 2), (1, 1)])
            history.append(Result(number, order[i], order[i + 1], a_wins, b_wins, rng.choice([0, 0, 1])))
        if len(active) > 3 and rng.random() < 0.4:
            leaver = rng.choice(active)
            active.remove(leaver)
            dropped.add(leaver)
    return history, active, dropped


@settings(max_examples=150, deadline=None)
@given(count=st.integers(2, 11), rounds=st.integers(0, 6), seed=st.integers(0, 10**9))
def test_pairing_properties_over_random_histories(count, rounds, seed):
    rng = random.Random(seed)
    players = [f"p{i}" for i in range(count)]
    history, active, dropped = random_history(rng, players, rounds)
    pairing = pair_round(active, history, seed, rounds + 1, everyone=players)

    seated = [p for table in pairing.tables for p in table] + ([pairing.bye] if pairing.bye else [])
    assert sorted(seated) == sorted(active)  # everyone active exactly once, nobody twice
    assert not dropped & set(seated)  # dropped players are never paired
    assert (pairing.bye is not None) == (len(active) % 2 == 1)
    byes = {r.a for r in history if r.is_bye}
    if pairing.bye is not None and set(active) - byes:
        assert pairing.bye not in byes  # a second bye only when everyone has had one
    played = {}
    for r in history:
        if not r.is_bye:
            played.setdefault(r.a, set()).add(r.b)
            played.setdefault(r.b, set()).add(r.a)
    rematches = sum(b in played.get(a, set()) for a, b in pairing.tables)
    assert rematches == pairing.rematches
    if rematches:
        assert not rematch_free_exists(active, played, byes)
    # Reproducible: the same seed and history give the same pairings.
    assert pair_round(active, history, seed, rounds + 1, everyone=players) == pairing


@settings(max_examples=60, deadline=None)
@given(count=st.integers(3, 11), seed=st.integers(0, 10**9))
def test_bye_goes_to_the_lowest_ranked_player_without_one(count, seed):
    rng = random.Random(seed)
    players = [f"p{i}" for i in range(count)]
    history, active, _ = random_history(rng, players, 3)
    if len(active) % 2 == 0:
        active = active[:-1]
    pairing = pair_round(active, history, seed, 4, everyone=players)
    rows = {r.player: r for r in compute_standings(players, history)}
    byes = {r.a for r in history if r.is_bye}
    eligible = [p for p in active if p not in byes]
    if eligible and not pairing.rematches:
        # Nobody eligible ranked below the bye could have taken it without forcing a rematch.
        below = [p for p in eligible if rows[p].sort_key < rows[pairing.bye].sort_key]
        played = {}
        for r in history:
            if not r.is_bye:
                played.setdefault(r.a, set()).add(r.b)
                played.setdefault(r.b, set()).add(r.a)
        for p in below:
            assert not rematch_free_exists([q for q in active if q != p], played, set(players))


def test_points_groups_pair_inside_themselves_first():
    history = [
        Result(1, "a", "b", 2, 0),
        Result(1, "c", "d", 2, 0),
        Result(1, "e", "f", 2, 0),
        Result(1, "g", "h", 2, 0),
    ]
    pairing = pair_round(list("abcdefgh"), history, seed=7, round_number=2)
    winners = set("aceg")
    for a, b in pairing.tables:
        assert (a in winners) == (b in winners)
    assert all(a in winners for a, _ in pairing.tables[:2])  # the winners play at the top tables


def test_round_one_in_a_pod_pairs_across_the_table():
    pairing = across_the_table([f"seat{i}" for i in range(1, 9)])
    assert pairing.tables == [("seat1", "seat5"), ("seat2", "seat6"), ("seat3", "seat7"), ("seat4", "seat8")]
    odd = across_the_table([f"seat{i}" for i in range(1, 8)], seed=3)
    assert odd.bye is not None and len(odd.tables) == 3
    assert across_the_table([f"seat{i}" for i in range(1, 8)], seed=3) == odd


def test_rematches_are_minimised_when_unavoidable():
    # Four players who have all met: every pairing is a rematch, and it says so.
    history = [
        Result(1, "a", "b", 2, 0),
        Result(1, "c", "d", 2, 0),
        Result(2, "a", "c", 2, 0),
        Result(2, "b", "d", 2, 0),
        Result(3, "a", "d", 2, 0),
        Result(3, "b", "c", 2, 0),
    ]
    pairing = pair_round(list("abcd"), history, seed=1, round_number=4)
    assert pairing.rematches == 2 and pairing.notes


def test_search_budget_falls_back_to_the_blossom_oracle():
    history = [Result(1, "a", "b", 2, 0), Result(1, "c", "d", 2, 0)]
    tight = pair_round(list("abcdef"), history, seed=5, round_number=2, budget=0)
    assert tight.rematches == 0 and len(tight.tables) == 3


def test_maximum_matching_on_an_odd_cycle_with_a_tail():
    # A 5-cycle 0-1-2-3-4 plus 5 hanging on 4: a blossom must be shrunk to match everyone.
    edges = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0), (4, 5)]
    adjacency = [[] for _ in range(6)]
    for u, v in edges:
        adjacency[u].append(v)
        adjacency[v].append(u)
    mate = maximum_matching(6, adjacency)
    assert -1 not in mate and all(mate[mate[v]] == v for v in range(6))


def test_playoff_top_8_is_seeded_by_standings():
    seeded = [f"s{i}" for i in range(1, 9)]
    assert playoff_first_round(seeded, 8) == [("s1", "s8"), ("s4", "s5"), ("s2", "s7"), ("s3", "s6")]
    assert playoff_next_round(["s1", "s4", "s2", "s3"]) == [("s1", "s4"), ("s2", "s3")]
    assert playoff_first_round(seeded, 4) == [("s1", "s4"), ("s2", "s3")]
