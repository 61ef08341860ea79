"""Tiebreakers by hand (MTR 3.1 and Appendix C): match points 3/1/0, a bye a 2-0 win left out
of the opponents' averages, every percentage at least 0.33, drops keep their place."""

from fractions import Fraction

import pytest

from matches.swiss import InvalidHistory, Result, compute_standings, parse_history, recommended_rounds
from matches.swiss.standings import round4


def table(players, results):
    return [row.as_contract() for row in compute_standings(players, results)]


def test_appendix_c_definitions_on_single_records():
    # Appendix C's own style of example: 5-2-1 is 16 match points of 24 possible -> 0.6667;
    # 1-3-0 is 3 of 12 = 0.25, raised to the 0.33 floor; 8 games with 5 won and 1 drawn is
    # 16 game points of 24 -> 0.6667; 2 games won of 9 is 6/27 -> 0.33 floor.
    history = []
    wins = iter(range(100))
    for outcome in "WWWWWLLD":
        n = next(wins)
        score = {"W": (2, 0, 0), "L": (0, 2, 0), "D": (1, 1, 0)}[outcome]
        history.append(Result(n + 1, "Hero", f"opp{n}", *score))
    rows = {r.player: r for r in compute_standings(["Hero"], history)}
    hero = rows["Hero"]
    assert hero.match_points == 16 and hero.record == "5-2-1"
    assert hero.mwp == Fraction(16, 24)
    losing = [
        Result(1, "Lo", "x1", 2, 0),
        Result(2, "Lo", "x2", 0, 2),
        Result(3, "Lo", "x3", 0, 2),
        Result(4, "Lo", "x4", 0, 2),
    ]
    lo = {r.player: r for r in compute_standings(["Lo"], losing)}["Lo"]
    assert lo.match_points == 3 and lo.mwp == Fraction(33, 100)  # 0.25 -> 0.33
    games = [Result(1, "G", "y1", 2, 1, 1), Result(2, "G", "y2", 2, 0), Result(3, "G", "y3", 1, 1)]
    g = {r.player: r for r in compute_standings(["G"], games)}["G"]
    assert (g.game_points, g.games_played) == (5 * 3 + 1, 8) and g.gwp == Fraction(16, 24)
    few = [Result(1, "F", "z1", 1, 2), Result(2, "F", "z2", 1, 2), Result(3, "F", "z3", 0, 2)]
    f = {r.player: r for r in compute_standings(["F"], few)}["F"]
    assert f.games_played == 8 and f.gwp == Fraction(33, 100)  # 6/24 = 0.25 -> 0.33


def test_hand_computed_four_players_two_rounds():
    results = [
        Result(1, "A", "B", 2, 0),
        Result(1, "C", "D", 2, 1),
        Result(2, "A", "C", 2, 1),
        Result(2, "B", "D", 1, 1),
    ]
    assert table(["A", "B", "C", "D"], results) == [
        {"rank": 1, "player": "A", "match_points": 6, "record": "2-0-0", "omw": 0.415, "gw": 0.8, "ogw": 0.415},
        {"rank": 2, "player": "C", "match_points": 3, "record": "1-1-0", "omw": 0.665, "gw": 0.5, "ogw": 0.6},
        {"rank": 3, "player": "B", "match_points": 1, "record": "0-1-1", "omw": 0.665, "gw": 0.33, "ogw": 0.6},
        {"rank": 4, "player": "D", "match_points": 1, "record": "0-1-1", "omw": 0.415, "gw": 0.4, "ogw": 0.415},
    ]


def test_hand_computed_bye_draws_and_a_drop():
    history = parse_history(
        {
            "players": ["P1", "P2", "P3", "P4", "P5"],
            "matches": [
                {"round": 1, "a": "P1", "b": "P2", "a_wins": 2, "b_wins": 0},
                {"round": 1, "a": "P3", "b": "P4", "a_wins": 2, "b_wins": 1},
                {"round": 1, "a": "P5", "bye": True},
                {"round": 2, "a": "P1", "b": "P5", "a_wins": 1, "b_wins": 2},
                {"round": 2, "a": "P3", "b": "P2", "a_wins": 1, "b_wins": 1, "draws": 1},
            ],
            "dropped": {"P4": 1},
        }
    )
    assert table(history.players, history.results) == [
        # The bye is a 2-0 win for P5's record and GW, but P5's only opponent is P1.
        {"rank": 1, "player": "P5", "match_points": 6, "record": "2-0-0", "omw": 0.5, "gw": 0.8, "ogw": 0.6},
        {
            "rank": 2,
            "player": "P3",
            "match_points": 4,
            "record": "1-0-1",
            "omw": 0.33,
            "gw": 0.5556,
            "ogw": 0.3317,
        },  # (1/3 + 0.33) / 2: P4's GW 1/3 is above the floor, P2's is raised to it
        {"rank": 3, "player": "P1", "match_points": 3, "record": "1-1-0", "omw": 0.665, "gw": 0.6, "ogw": 0.565},
        {"rank": 4, "player": "P2", "match_points": 1, "record": "0-1-1", "omw": 0.5833, "gw": 0.33, "ogw": 0.5778},
        # P4 dropped after round 1 and keeps their place; their match still counts for P3.
        {"rank": 5, "player": "P4", "match_points": 0, "record": "0-1-0", "omw": 0.6667, "gw": 0.3333, "ogw": 0.5556},
    ]


def test_players_equal_on_all_four_share_a_rank():
    rows = table(["A", "B", "C", "D"], [Result(1, "A", "B", 2, 0), Result(1, "C", "D", 2, 0)])
    assert [(r["rank"], r["player"]) for r in rows] == [(1, "A"), (1, "C"), (3, "B"), (3, "D")]


def test_contract_example_floor_applies_to_the_loser():
    history = parse_history(
        {
            "players": ["Ana", "Bo", "Cy", "Di"],
            "matches": [
                {"round": 1, "a": "Ana", "b": "Bo", "a_wins": 2, "b_wins": 1, "draws": 0},
                {"round": 1, "a": "Cy", "bye": True},
            ],
            "dropped": {"Di": 1},
        }
    )
    rows = table(history.players, history.results)
    assert rows[0] == {
        "rank": 1,
        "player": "Ana",
        "match_points": 3,
        "record": "1-0-0",
        "omw": 0.33,
        "gw": 0.6667,
        "ogw": 0.3333,
    }
    # Cy's bye is a win with two game wins and no opponent.
    assert rows[1] == {
        "rank": 2,
        "player": "Cy",
        "match_points": 3,
        "record": "1-0-0",
        "omw": 0.0,
        "gw": 1.0,
        "ogw": 0.0,
    }
    assert [r["player"] for r in rows] == ["Ana", "Cy", "Bo", "Di"]


def test_rounding_is_half_up_to_four_decimals():
    assert round4(Fraction(1, 3)) == 0.3333
    assert round4(Fraction(2, 3)) == 0.6667
    assert round4(Fraction(12345, 100000)) == 0.1235


@pytest.mark.parametrize(
    "players,rounds",
    [
        (2, 1),
        (3, 2),
        (4, 2),
        (5, 3),
        (8, 3),
        (9, 4),
        (16, 4),
        (17, 5),
        (32, 5),
        (33, 6),
        (64, 6),
        (65, 7),
        (128, 7),
        (129, 8),
        (226, 8),
        (227, 9),
        (409, 9),
        (410, 10),
        (2048, 10),
    ],
)
def test_recommended_rounds_follow_the_mtr_table(players, rounds):
    assert recommended_rounds(players) == rounds


@pytest.mark.parametrize(
    "match,fragment",
    [
        ({"round": 1, "a": "Ana", "b": "Zed", "a_wins": 2, "b_wins": 0}, "Unknown player"),
        ({"round": 1, "a": "Ana", "b": "Bo", "a_wins": 3, "b_wins": 0}, "Impossible score"),
        ({"round": 1, "a": "Ana", "b": "Bo", "a_wins": -1, "b_wins": 2}, "Impossible score"),
        ({"round": 1, "a": "Ana", "b": "Bo", "a_wins": 2, "b_wins": 2}, "Impossible score"),
        ({"round": 1, "a": "Ana", "b": "Ana", "a_wins": 2, "b_wins": 0}, "themselves"),
        ({"round": 0, "a": "Ana", "b": "Bo", "a_wins": 2, "b_wins": 0}, "round"),
        ({"round": 1, "a": "Ana", "b": "Bo", "a_wins": 1.5, "b_wins": 0}, "Impossible score"),
    ],
)
def test_invalid_history_names_the_match(match, fragment):
    with pytest.raises(InvalidHistory) as caught:
        parse_history({"players": ["Ana", "Bo"], "matches": [match]})
    assert fragment in caught.value.message and caught.value.match == match and caught.value.index == 0


def test_a_player_twice_in_a_round_or_after_their_drop_is_invalid():
    twice = {
        "players": ["A", "B", "C"],
        "matches": [{"round": 1, "a": "A", "b": "B", "a_wins": 2}, {"round": 1, "a": "A", "bye": True}],
    }
    with pytest.raises(InvalidHistory) as caught:
        parse_history(twice)
    assert caught.value.index == 1 and "twice" in caught.value.message
    late = {
        "players": ["A", "B"],
        "dropped": {"B": 1},
        "matches": [{"round": 1, "a": "A", "b": "B", "a_wins": 2}, {"round": 2, "a": "B", "bye": True}],
    }
    with pytest.raises(InvalidHistory) as caught:
        parse_history(late)
    assert caught.value.index == 1 and "dropped" in caught.value.message
