"""The Swiss core: pairings, byes, playoffs and MTR tiebreakers in plain Python.

No Django here (an import-linter contract enforces it): plain values in, plain values out, so
the algorithms are tested in microseconds, benchmarked on their own (``bench/pairings``) and
used by the matches app and by ``POST /api/standings/compute`` alike.
"""

from matches.swiss.history import InvalidHistory, parse_history
from matches.swiss.pairing import Pairing, across_the_table, pair_round
from matches.swiss.playoff import playoff_first_round, playoff_next_round
from matches.swiss.results import Result
from matches.swiss.rounds import recommended_rounds
from matches.swiss.standings import Standing, compute_standings

__all__ = [
    "InvalidHistory",
    "Pairing",
    "Result",
    "Standing",
    "across_the_table",
    "compute_standings",
    "pair_round",
    "parse_history",
    "playoff_first_round",
    "playoff_next_round",
    "recommended_rounds",
]
