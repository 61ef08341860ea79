"""Standings by the MTR tiebreakers (MTR 3.1, Appendix C), computed with exact fractions.

Order: match points, opponents' match-win percentage (OMW), game-win percentage (GW),
opponents' game-win percentage (OGW). Players equal on all four share a rank.

- Match points: 3 a win, 1 a draw, 0 a loss; a bye is a win (2-0 in games).
- Match-win percentage: match points / (3 x rounds played, byes included), at least 0.33.
- Game-win percentage: game points (3 a game won, 1 a game drawn) / (3 x games played, the
  bye's two games included), at least 0.33.
- OMW and OGW: the average of each opponent's match-win and game-win percentage (each already
  at least 0.33). Byes are not opponents, so they are left out of these averages; a player
  whose only matches were byes has OMW and OGW 0.
- A dropped player keeps their place: their matches count for them and for their opponents.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from matches.swiss.results import GAME_DRAW, GAME_WIN, MATCH_DRAW, MATCH_WIN, Result

FLOOR = Fraction(33, 100)  # MTR Appendix C: percentages below 0.33 count as 0.33
ZERO = Fraction(0)


def round4(value: Fraction) -> float:
    """Round half up to four decimals (the contract's precision)."""
    scaled = value * 10000
    return float(Fraction(int(scaled + Fraction(1, 2)), 10000))


@dataclass
class Standing:
    player: Hashable
    rank: int = 0
    match_points: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    byes: int = 0
    rounds_played: int = 0
    game_points: int = 0
    games_played: int = 0
    opponents: list = field(default_factory=list)
    mwp: Fraction = FLOOR
    gwp: Fraction = FLOOR
    omw: Fraction = ZERO
    ogw: Fraction = ZERO

    @property
    def record(self) -> str:
        """Wins-losses-draws, as venues print it (a bye counts as a win)."""
        return f"{self.wins}-{self.losses}-{self.draws}"

    @property
    def sort_key(self) -> tuple:
        return (self.match_points, self.omw, self.gwp, self.ogw)

    def as_contract(self) -> dict:
        return {
            "rank": self.rank,
            "player": self.player,
            "match_points": self.match_points,
            "record": self.record,
            "omw": round4(self.omw),
            "gw": round4(self.gwp),
            "ogw": round4(self.ogw),
        }


def _floored(numerator: int, denominator: int) -> Fraction:
    if denominator <= 0:
        return FLOOR
    return max(FLOOR, Fraction(numerator, denominator))


def _average(values: Sequence[Fraction]) -> Fraction:
    return sum(values, ZERO) / len(values) if values else ZERO


def compute_standings(players: Iterable[Hashable], results: Iterable[Result], name_of=None) -> list[Standing]:
    """Standings of ``players`` (every one listed, played or not) from ``results``.

    Ties on all four tiebreakers share a rank; inside a tie players are listed by
    ``name_of(player)`` (default: the player itself), so the table is deterministic.
    """
    table: dict = {player: Standing(player=player) for player in players}
    for result in results:
        for player in result.players():
            row = table.get(player)
            if row is None:
                row = table[player] = Standing(player=player)
            _count(row, result, player)
    for row in table.values():
        row.mwp = _floored(row.match_points, 3 * row.rounds_played)
        row.gwp = _floored(row.game_points, 3 * row.games_played)
    for row in table.values():
        row.omw = _average([table[o].mwp for o in row.opponents])
        row.ogw = _average([table[o].gwp for o in row.opponents])
    return _ranked(table.values(), name_of or (lambda player: player))


def _count(row: Standing, result: Result, player: Hashable) -> None:
    """One result in the player's row: match and game points, opponents and byes."""
    outcome = result.outcome_for(player)
    row.rounds_played += 1
    if outcome == "win":
        row.wins += 1
        row.match_points += MATCH_WIN
    elif outcome == "draw":
        row.draws += 1
        row.match_points += MATCH_DRAW
    else:
        row.losses += 1
    won, lost, drawn = result.games_for(player)
    row.game_points += GAME_WIN * won + GAME_DRAW * drawn
    row.games_played += won + lost + drawn
    if result.is_bye:
        row.byes += 1
    else:
        row.opponents.append(result.opponent_of(player))


def _ranked(rows: Iterable[Standing], name_of) -> list[Standing]:
    """By the tiebreakers, then by name; rows equal on all four share a rank."""
    ordered = sorted(rows, key=lambda r: (_neg(r.sort_key), str(name_of(r.player))))
    previous = None
    for position, row in enumerate(ordered, start=1):
        row.rank = previous.rank if previous is not None and previous.sort_key == row.sort_key else position
        previous = row
    return ordered


def _neg(key: tuple) -> tuple:
    return tuple(-value for value in key)


def opponents_by_player(results: Iterable[Result]) -> dict:
    """Who has played whom (byes left out)."""
    played: dict = defaultdict(set)
    for result in results:
        if not result.is_bye:
            played[result.a].add(result.b)
            played[result.b].add(result.a)
    return played
