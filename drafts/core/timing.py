"""Draft clocks from the Magic Tournament Rules: pick timer by cards left, review time.

The stored functions are rendered with these values (``drafts.sql``): a change here is a
new migration (``python -m drafts.sql migration``), and a test fails until it exists.
"""

from __future__ import annotations

# Seconds to pick from a pack holding N cards (MTR table for 15-card packs). A pack with
# fewer cards starts lower in the same table; the last card is passed without a timer.
PICK_SECONDS = {
    15: 40,
    14: 40,
    13: 35,
    12: 30,
    11: 25,
    10: 25,
    9: 20,
    8: 20,
    7: 15,
    6: 10,
    5: 10,
    4: 5,
    3: 5,
    2: 5,
}

# The largest pack the table covers: a larger pack gets its time.
LARGEST_PACK = max(PICK_SECONDS)

# Review time after round N (seconds): 60 after the first pack, 90 after the second.
REVIEW_SECONDS = {1: 60, 2: 90}

ROUNDS = 3


def pick_seconds(cards_left: int) -> int | None:
    """Seconds allowed to pick from a pack with ``cards_left`` cards; None for the last card."""
    if cards_left <= 1:
        return None
    return PICK_SECONDS.get(min(cards_left, LARGEST_PACK), PICK_SECONDS[LARGEST_PACK])


def review_seconds(finished_round: int) -> int:
    """Seconds of review after a round; 0 after the last one (deck building starts)."""
    return REVIEW_SECONDS.get(finished_round, 0)


def pass_direction(round_number: int) -> int:
    """+1 passes left (to the next seat), -1 passes right: left, right, left."""
    return 1 if round_number % 2 == 1 else -1
