"""The 17lands-layout pick data writer (plain Python): columns, one row per pick, counts."""

from __future__ import annotations

import csv
import io

from decks.exports.pickdata import FIXED, TRAILING, Draft, SeenPick, columns, write_csv

SET = ["Delver of Secrets", "Moon Heron", "Think Twice", "Island"]
DRAFT = Draft(
    draft_id="b" * 32,
    draft_time="2026-11-29 15:00:00",
    picks=[
        SeenPick(1, 1, "Delver of Secrets", ("Delver of Secrets", "Moon Heron", "Think Twice", "Think Twice")),
        SeenPick(1, 2, "Think Twice", ("Think Twice", "Island")),
        SeenPick(2, 1, "Moon Heron", ("Moon Heron",)),
    ],
)
OTHER = Draft(draft_id="a" * 32, draft_time="", picks=[SeenPick(1, 1, "Island", ("Island", "Gatstaf Shepherd"))])


def read(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


def test_columns_are_the_fixed_ones_then_pack_and_pool_per_card():
    assert columns(["b", "a"]) == FIXED + ["pack_card_a", "pack_card_b", "pool_a", "pool_b"] + TRAILING
    assert TRAILING == ["user_n_games_bucket", "user_game_win_rate_bucket"]
    assert FIXED[:3] == ["expansion", "event_type", "draft_id"] and FIXED[7:10] == [
        "pack_number",
        "pick_number",
        "pick",
    ]


def test_one_row_per_pick_with_pack_contents_and_the_pool_before_the_pick():
    rows = read(write_csv(expansion="ISD", event_type="TournamentDraft", drafts=[DRAFT], set_cards=SET))
    assert len(rows) == 3
    first, second, third = rows
    assert (first["expansion"], first["event_type"], first["draft_id"]) == ("ISD", "TournamentDraft", "b" * 32)
    assert (first["pack_number"], first["pick_number"], first["pick"]) == ("0", "0", "Delver of Secrets")
    assert first["pack_card_Think Twice"] == "2" and first["pack_card_Island"] == "0"
    assert first["pool_Delver of Secrets"] == "0"  # the pool before this pick
    assert (second["pick_number"], second["pool_Delver of Secrets"], second["pack_card_Island"]) == ("1", "1", "1")
    assert (third["pack_number"], third["pick_number"], third["pool_Think Twice"]) == ("1", "0", "1")
    assert first["rank"] == first["event_match_wins"] == ""
    assert first["user_n_games_bucket"] == first["user_game_win_rate_bucket"] == ""  # no games to bucket by


def test_a_card_outside_the_set_list_gets_columns_too_and_rows_sort_by_random_id():
    text = write_csv(expansion="ISD", event_type="TournamentDraft", drafts=[DRAFT, OTHER], set_cards=SET)
    header = text.splitlines()[0].split(",")
    assert "pack_card_Gatstaf Shepherd" in header and "pool_Gatstaf Shepherd" in header
    assert [r["draft_id"] for r in read(text)] == ["a" * 32] + ["b" * 32] * 3
