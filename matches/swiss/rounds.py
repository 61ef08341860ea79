"""How many Swiss rounds an event plays for its player count."""

from __future__ import annotations

# MTR Appendix E, recommended number of Swiss rounds (upper bound of players -> rounds); we add
# 2 players -> 1 round and 3-4 -> 2 so that tiny test events still work. 410 or more: 10.
RECOMMENDED_SWISS_ROUNDS: tuple[tuple[int, int], ...] = (
    (2, 1),
    (4, 2),
    (8, 3),
    (16, 4),
    (32, 5),
    (64, 6),
    (128, 7),
    (226, 8),
    (409, 9),
)
MOST_SWISS_ROUNDS = 10


def recommended_rounds(players: int) -> int:
    if players < 2:
        return 0
    for most, rounds in RECOMMENDED_SWISS_ROUNDS:
        if players <= most:
            return rounds
    return MOST_SWISS_ROUNDS
