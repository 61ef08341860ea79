"""Decklist formats (detected from the content) and malformed lists: the parser alone and
through POST /api/decks/parse (paste and upload)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from decks import parsers
from decks.models import Deck
from tests.decks.conftest import FIXTURES, read_fixture

DELVER_MAIN = {
    "Delver of Secrets": 4,
    "Snapcaster Mage": 4,
    "Stitched Drake": 4,
    "Moon Heron": 2,
    "Think Twice": 4,
    "Forbidden Alchemy": 4,
    "Dissipate": 3,
    "Claustrophobia": 2,
    "Invisible Stalker": 4,
    "Silent Departure": 4,
    "Sensory Deprivation": 1,
    "Island": 24,
}
DELVER_SIDE = {"Negate": 3, "Grasp of Phantoms": 2, "Naturalize": 2}
WOLF_MAIN = {
    "Gatstaf Shepherd": 4,
    "Mayor of Avabruck": 4,
    "Villagers of Estwald": 4,
    "Daybreak Ranger": 2,
    "Darkthicket Wolf": 4,
    "Ambush Viper": 4,
    "Avacyn's Pilgrim": 4,
    "Travel Preparations": 4,
    "Boneyard Wurm": 3,
    "Spider Spawning": 3,
    "Forest": 20,
    "Plains": 4,
}
WOLF_SIDE = {"Naturalize": 3, "Dead Weight": 2}


@pytest.mark.parametrize(
    "fixture,fmt,main,side",
    [
        ("delver_isd.txt", "text", DELVER_MAIN, DELVER_SIDE),
        ("delver_isd_sb_prefix.txt", "text", DELVER_MAIN, DELVER_SIDE),
        ("delver_isd_mtgo.txt", "text", DELVER_MAIN, DELVER_SIDE),
        ("delver_isd_arena.txt", "arena", DELVER_MAIN, DELVER_SIDE),
        ("werewolves_isd.dek", "mtgo_dek", WOLF_MAIN, WOLF_SIDE),
        ("werewolves_isd.csv", "csv", WOLF_MAIN, WOLF_SIDE),
    ],
    ids=["plain with Sideboard header", "SB: prefixes", "blank line sideboard", "Arena", "MTGO .dek", "CSV"],
)
def test_formats(fixture, fmt, main, side):
    parsed = parsers.parse_decklist(read_fixture(fixture))
    assert parsed.format == fmt
    assert dict(parsed.main) == main
    assert dict(parsed.sideboard) == side
    assert sum(main.values()) == 60


def test_format_comes_from_the_content_not_the_name():
    assert parsers.detect_format(read_fixture("werewolves_isd.dek")) == "mtgo_dek"
    assert parsers.detect_format(read_fixture("werewolves_isd.csv")) == "csv"
    assert parsers.detect_format(read_fixture("delver_isd_arena.txt")) == "arena"
    assert parsers.detect_format(read_fixture("delver_isd.txt")) == "text"


def test_arena_commander_section():
    parsed = parsers.parse_decklist(read_fixture("alandra_commander_arena.txt"))
    assert parsed.format == "arena"
    assert parsed.commander == [("Alandra, Sky Dreamer", 1)]
    assert sum(c for _, c in parsed.main) == 99


def test_csv_with_quantity_and_board_columns():
    parsed = parsers.parse_decklist(read_fixture("moxfield_style.csv"))
    assert parsed.commander == [("Alandra, Sky Dreamer", 1)]
    assert dict(parsed.main) == {"Delver of Secrets": 1, "Island": 98}
    assert parsed.sideboard == []  # the maybeboard is not part of the deck


def test_text_variants():
    parsed = parsers.parse_decklist("4x Delver of Secrets\r\n2 Gatstaf Howler\n1 Forest *F*\n\nSideboard:\n1 Negate\n")
    assert parsed.main == [("Delver of Secrets", 4), ("Gatstaf Howler", 2), ("Forest", 1)]
    assert parsed.sideboard == [("Negate", 1)]
    # equal names add up
    assert parsers.parse_decklist("2 Island\n3 island\n").main == [("Island", 5)]


def test_decode_accepts_bom_and_utf16():
    text = "4 Lim-Dûl's Vault\n"
    assert parsers.decode(b"\xef\xbb\xbf" + text.encode()) == text
    assert parsers.decode(text.encode("utf-16")) == text


def test_checklist_lines_round_trip():
    cards = parsers.parse_checklist_lines(
        "2 Innistrad Checklist: Delver of Secrets\n"
        "Double-Faced Substitute Card (SZNR 1): Emeria's Call\n"
        "Innistrad Checklist:\nInnistrad Checklist: Delver of Secrets; Gatstaf Shepherd\n"
    )
    assert cards[0] == cards[1] == {"checklist": "Innistrad Checklist", "marked": ["Delver of Secrets"]}
    assert cards[2] == {"checklist": "Double-Faced Substitute Card (SZNR 1)", "marked": ["Emeria's Call"]}
    assert cards[3]["marked"] == [] and len(cards[4]["marked"]) == 2
    assert parsers.parse_checklist_lines(parsers.format_checklist_lines(cards)) == cards


def test_format_decklist_reads_back():
    main = [{"name": "Delver of Secrets // Insectile Aberration", "count": 4}, {"name": "Island", "count": 56}]
    side = [{"name": "Negate", "count": 2}]
    parsed = parsers.parse_decklist(parsers.format_decklist(main, side, [{"name": "Alandra, Sky Dreamer", "count": 1}]))
    assert parsed.main == [("Delver of Secrets // Insectile Aberration", 4), ("Island", 56)]
    assert parsed.sideboard == [("Negate", 2)] and parsed.commander == [("Alandra, Sky Dreamer", 1)]


MALFORMED = [
    ("empty.txt", "empty_decklist"),
    ("whitespace.txt", "empty_decklist"),
    ("bad_negative.txt", "invalid_count"),
    ("bad_zero.txt", "invalid_count"),
    ("bad_fraction.txt", "invalid_count"),
    ("bad_words.txt", "invalid_decklist"),
    ("bad_root.dek", "invalid_decklist"),
    ("bad_malformed.dek", "invalid_decklist"),
    ("bad_quantity.dek", "invalid_count"),
    ("bad_entity.dek", "invalid_decklist"),
    ("bad_count.csv", "invalid_count"),
]


@pytest.mark.parametrize(
    "text, lines",
    [
        ("4 Island\n-1 Forest\n3 Plains\n0 Swamp\n1.5 Mountain\n100000 Wastes\n", [2, 4, 5, 6]),
        ("Count,Name\n4,Island\n-1,Forest\nx,Swamp\n2,Plains\n", [3, 4]),
    ],
)
def test_every_bad_quantity_is_reported_not_only_the_first(text, lines):
    with pytest.raises(parsers.ParseError) as raised:
        parsers.parse_decklist(text)
    assert raised.value.code == "invalid_count"
    assert raised.value.extra["lines"] == lines
    for number in lines:
        assert f"Line {number}:" in raised.value.message or f"Row {number}:" in raised.value.message


@pytest.mark.parametrize("fixture,code", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_lists(fixture, code):
    with pytest.raises(parsers.ParseError) as raised:
        parsers.parse_bytes((FIXTURES / fixture).read_bytes())
    assert raised.value.code == code
    assert raised.value.message


@pytest.mark.parametrize(
    "data,code",
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "unreadable_file"),
        (b"4 Island\n\xff\xfe\xfa broken", "unreadable_file"),
        (b"4 Island\n\x00\x00", "unreadable_file"),
        (b"4 Island\n\x07bell", "unreadable_file"),
        (b"1 Island\n" * 40000, "file_too_large"),
    ],
)
def test_binary_and_huge(data, code):
    with pytest.raises(parsers.ParseError) as raised:
        parsers.parse_bytes(data)
    assert raised.value.code == code


def test_too_many_lines():
    text = "".join(f"1 Card {i}\n" for i in range(1001))
    with pytest.raises(parsers.ParseError) as raised:
        parsers.parse_decklist(text)
    assert raised.value.code == "too_many_entries"


# --- through the API -------------------------------------------------------------------------

PARSE = "/api/decks/parse"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "fixture,fmt",
    [
        ("delver_isd.txt", "text"),
        ("delver_isd_arena.txt", "arena"),
        ("werewolves_isd.dek", "mtgo_dek"),
        ("werewolves_isd.csv", "csv"),
    ],
)
def test_parse_endpoint_upload_and_paste(api_client, fixture, fmt):
    raw = (FIXTURES / fixture).read_bytes()
    # The upload's name says .txt whatever it holds: the content decides.
    upload = api_client.post(PARSE, {"file": SimpleUploadedFile("list.txt", raw)}, format="multipart")
    assert upload.status_code == 200, upload.content
    assert upload.json()["format"] == fmt
    pasted = api_client.post(PARSE + "/", {"text": raw.decode()}, format="json")
    assert pasted.status_code == 200
    assert pasted.json()["main"] == upload.json()["main"]
    assert pasted.json()["summary"]["main"] == 60


@pytest.mark.django_db
@pytest.mark.parametrize(
    "payload,code",
    [
        ({"file": SimpleUploadedFile("deck.txt", b"\x89PNG\r\n\x1a\n\x00\x00binary")}, "unreadable_file"),
        ({"file": SimpleUploadedFile("deck.txt", b"1 Island\n" * 40000)}, "file_too_large"),
        ({"file": SimpleUploadedFile("deck.txt", b"")}, "empty"),
        ({"text": ""}, "empty_decklist"),
        ({"text": "4 Island\n-1 Forest"}, "invalid_count"),
        ({"text": "<Deck><Cards"}, "invalid_decklist"),
        ({}, "empty_decklist"),
    ],
    ids=["binary", "too large", "empty file", "empty text", "negative", "bad xml", "nothing"],
)
def test_parse_endpoint_rejects(api_client, payload, code):
    response = api_client.post(PARSE, payload, format="multipart")
    assert response.status_code == 400, response.content
    assert response.json()["errors"][0]["code"] == code
    assert Deck.objects.count() == 0
