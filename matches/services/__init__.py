"""Every write of the matches app: keyword arguments in, one transaction each, logged."""

from matches.services.common import ORGANISERS_ONLY, STAFF_ONLY
from matches.services.results import (
    apply_penalty,
    confirm_result,
    drop_player,
    enter_result,
    report_result,
    require_match_player,
)
from matches.services.rounds import (
    configure_matches,
    finish_round,
    grant_extension,
    pair_next_round,
    repair_pairings,
    start_round,
)

__all__ = [
    "apply_penalty",
    "configure_matches",
    "confirm_result",
    "drop_player",
    "enter_result",
    "finish_round",
    "grant_extension",
    "pair_next_round",
    "repair_pairings",
    "report_result",
    "start_round",
    # Access checks: the services call them, and the API and pages call them before reading a body.
    "require_match_player",
    "ORGANISERS_ONLY",
    "STAFF_ONLY",
]
