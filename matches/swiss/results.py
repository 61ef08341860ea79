"""One match of a Swiss history, and what it is worth (MTR 3.1)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

MATCH_WIN, MATCH_DRAW, MATCH_LOSS = 3, 1, 0  # MTR 3.1 match points
GAME_WIN, GAME_DRAW = 3, 1  # MTR Appendix C game points
BYE_GAME_WINS = 2  # MTR 3.1: a bye is a match win 2-0


@dataclass(frozen=True)
class Result:
    """A match (``b`` is None for a bye). Games won by each side and games drawn.

    ``double_loss`` records a match both players lost (a Match Loss penalty to each): no match
    points for anyone, and the games as reported.
    """

    round: int
    a: Hashable
    b: Hashable | None = None
    a_wins: int = 0
    b_wins: int = 0
    draws: int = 0
    double_loss: bool = False

    @property
    def is_bye(self) -> bool:
        return self.b is None

    def players(self) -> tuple:
        return (self.a,) if self.b is None else (self.a, self.b)

    def outcome_for(self, player) -> str:
        """ "win", "loss" or "draw" for one of the two players."""
        if self.is_bye:
            return "win"
        if self.double_loss:
            return "loss"
        mine, theirs = (self.a_wins, self.b_wins) if player == self.a else (self.b_wins, self.a_wins)
        if mine > theirs:
            return "win"
        if mine < theirs:
            return "loss"
        return "draw"

    def games_for(self, player) -> tuple[int, int, int]:
        """(won, lost, drawn) games for one of the two players; a bye is 2-0-0."""
        if self.is_bye:
            return BYE_GAME_WINS, 0, 0
        if player == self.a:
            return self.a_wins, self.b_wins, self.draws
        return self.b_wins, self.a_wins, self.draws

    def opponent_of(self, player):
        if self.is_bye:
            return None
        return self.b if player == self.a else self.a


def score_problem(a_wins, b_wins, draws, *, playoff: bool = False) -> str | None:
    """Why a best-of-three score is impossible, or None if it can happen.

    Each side wins at most two games (the match ends there) and not both; drawn games don't
    count towards the two, but three is already more than a 50-minute round holds. A playoff
    match must have a winner.
    """
    for value in (a_wins, b_wins, draws):
        if not isinstance(value, int) or isinstance(value, bool):
            return "Games won, lost and drawn are whole numbers."
        if value < 0:
            return "A score cannot be negative."
    if a_wins > 2 or b_wins > 2:
        return "A best-of-three match ends when a player wins two games."
    if a_wins == 2 and b_wins == 2:
        return "Both players cannot win two games in a best-of-three match."
    if draws > 3:
        return "At most three drawn games fit in one match."
    if playoff and a_wins == b_wins:
        return "A playoff match must have a winner."
    return None
