"""An event's picks as CSV in the column layout of 17lands' public draft data (plain Python).

One row per pick: ``expansion, event_type, draft_id, draft_time, rank, event_match_wins,
event_match_losses, pack_number, pick_number, pick, pick_maindeck_rate,
pick_sideboard_in_rate``, then ``pack_card_<name>`` (copies in the pack at that pick, the
pick among them) and ``pool_<name>`` (copies already drafted) for every card of the set, and
last ``user_n_games_bucket, user_game_win_rate_bucket`` (17lands appended these two; readers
of current files such as spells-mtg require them). Pack and pick numbers count from 0, as in
17lands' files. Columns we have no data for (rank, match record, play rates, the player's
buckets) are empty. docs/pick-data.md is the user's guide.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

FIXED = [
    "expansion",
    "event_type",
    "draft_id",
    "draft_time",
    "rank",
    "event_match_wins",
    "event_match_losses",
    "pack_number",
    "pick_number",
    "pick",
    "pick_maindeck_rate",
    "pick_sideboard_in_rate",
]
# After the card columns, as in 17lands' current files; we have no games to bucket players by.
TRAILING = ["user_n_games_bucket", "user_game_win_rate_bucket"]


@dataclass(frozen=True)
class SeenPick:
    round: int  # 1-based, as stored
    pick: int  # 1-based within the round
    taken: str
    pack: tuple[str, ...]  # the pack's cards at this pick, the taken one among them


@dataclass(frozen=True)
class Draft:
    draft_id: str  # random: never a user, registration or seat id
    draft_time: str
    picks: Sequence[SeenPick]


def columns(card_names: Iterable[str]) -> list[str]:
    names = sorted(set(card_names))
    return FIXED + [f"pack_card_{n}" for n in names] + [f"pool_{n}" for n in names] + TRAILING


def card_names(set_cards: Iterable[str], drafts: Iterable[Draft]) -> list[str]:
    """The set's cards, plus any card a pack held that the set list lacks (nothing is dropped)."""
    names = set(set_cards)
    for draft in drafts:
        for p in draft.picks:
            names.add(p.taken)
            names.update(p.pack)
    return sorted(names)


def rows(*, expansion: str, event_type: str, drafts: Sequence[Draft], names: Sequence[str]) -> list[list]:
    out = []
    for draft in sorted(drafts, key=lambda d: d.draft_id):
        pool: Counter = Counter()
        for p in sorted(draft.picks, key=lambda p: (p.round, p.pick)):
            pack = Counter(p.pack)
            out.append(
                [expansion, event_type, draft.draft_id, draft.draft_time, "", "", "", p.round - 1, p.pick - 1, p.taken]
                + ["", ""]
                + [pack[n] for n in names]
                + [pool[n] for n in names]
                + ["" for _ in TRAILING]
            )
            pool[p.taken] += 1
    return out


def write_csv(*, expansion: str, event_type: str, drafts: Sequence[Draft], set_cards: Iterable[str]) -> str:
    names = card_names(set_cards, drafts)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(columns(names))
    writer.writerows(rows(expansion=expansion, event_type=event_type, drafts=drafts, names=names))
    return buffer.getvalue()
