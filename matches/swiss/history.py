"""Reading a Swiss history sent as JSON (``POST /api/standings/compute``), checked strictly.

Every refusal names the offending match so a judge can find it: an unknown player, a player
twice in one round, a player in a round after their drop, an impossible score.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from matches.swiss.results import Result, score_problem


class InvalidHistory(ValueError):
    def __init__(self, message: str, match=None, index: int | None = None):
        super().__init__(message)
        self.message = message
        self.match = match
        self.index = index


@dataclass(frozen=True)
class History:
    players: list
    results: list
    dropped: dict  # player -> last round played


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_history(data) -> History:
    if not isinstance(data, dict):
        raise InvalidHistory("Send an object with players, matches and dropped.")
    players = _players(data.get("players"))
    known = set(players)
    dropped = _dropped(data.get("dropped") or {}, known)
    matches = data.get("matches", [])
    if not isinstance(matches, list):
        raise InvalidHistory("matches is a list.")
    seen: set[tuple[int, Hashable]] = set()
    results = []
    for index, match in enumerate(matches):
        result = _result(match, index, known)
        for name in (result.a,) if result.b is None else (result.a, result.b):
            if (result.round, name) in seen:
                raise InvalidHistory(f"{name} plays twice in round {result.round}.", match=match, index=index)
            seen.add((result.round, name))
            if name in dropped and result.round > dropped[name]:
                raise InvalidHistory(
                    f"{name} dropped after round {dropped[name]} but plays in round {result.round}.",
                    match=match,
                    index=index,
                )
        results.append(result)
    return History(players=list(players), results=results, dropped=dict(dropped))


def _players(players) -> list:
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise InvalidHistory("players is a list of player names.")
    if len(set(players)) != len(players):
        duplicate = next(p for p in players if players.count(p) > 1)
        raise InvalidHistory(f"{duplicate} is listed twice in players.")
    return players


def _dropped(dropped, known: set) -> dict:
    if not isinstance(dropped, dict):
        raise InvalidHistory("dropped maps a player to the last round they played.")
    for player, last_round in dropped.items():
        if player not in known:
            raise InvalidHistory(f"Dropped player {player} is not in players.")
        if not _is_int(last_round) or last_round < 0:
            raise InvalidHistory(f"The last round {player} played must be a whole number, 0 or more.")
    return dropped


def _result(match, index: int, known: set) -> Result:
    """One match of the history as a result, or a refusal naming it."""

    def refuse(message: str):
        raise InvalidHistory(message, match=match, index=index)

    if not isinstance(match, dict):
        refuse("Each match is an object.")
    number = match.get("round")
    if not _is_int(number) or number < 1:
        refuse("round is a whole number from 1.")
    a = match.get("a")
    bye = match.get("bye", False)
    if not isinstance(bye, bool):
        refuse("bye is true or false.")
    b = match.get("b")
    if not isinstance(a, str) or a not in known:  # a list or an object is no name (and unhashable)
        refuse(f"Unknown player {a!r}.")
    if bye:
        if b is not None:
            refuse("A bye has one player.")  # its score is always 2-0 (MTR 3.1): any given is ignored
        return Result(round=number, a=a)
    if not isinstance(b, str) or b not in known:
        refuse(f"Unknown player {b!r}." if b is not None else "A match needs two players (or bye: true).")
    if a == b:
        refuse(f"{a} cannot play against themselves.")
    a_wins, b_wins, draws = (match.get(k, 0) for k in ("a_wins", "b_wins", "draws"))
    problem = score_problem(a_wins, b_wins, draws)
    if problem:
        refuse(f"Impossible score {a_wins}-{b_wins}-{draws}: {problem}")
    return Result(round=number, a=a, b=b, a_wins=a_wins, b_wins=b_wins, draws=draws)
