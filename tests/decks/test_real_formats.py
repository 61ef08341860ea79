"""Our MTGO files against files MTGO itself wrote (tests/decks/fixtures/real/README.md says where
each came from): the same lines, element order, attributes, declaration and spacing."""

from __future__ import annotations

import datetime as dt
import re
import xml.etree.ElementTree as ET

from decks import exports
from decks.exports import Decklist, Entry
from decks.exports.draftlog import LoggedPick, mtgo_draft_log, mtgo_time
from tests.decks.conftest import FIXTURES

REAL = FIXTURES / "real"


def real(name: str) -> str:
    return (REAL / name).read_text(encoding="utf-8")


def lines(text: str) -> list[str]:
    """The file's lines whatever its line ends (the samples reached us without their CR)."""
    return text.replace("\r\n", "\n").split("\n")


# --- .dek ------------------------------------------------------------------------------------

ON_MTGO = Decklist(
    main=(
        Entry("Delver of Secrets // Insectile Aberration", 1, "Delver of Secrets", "ISD", "51", 42436, 42437),
        Entry("Moon Heron", 2, "", "ISD", "69", 42342, 42343),
        Entry("Island", 9, "", "ISD", "253", 42640, 42641),
    ),
    sideboard=(Entry("Sejiri Shelter // Sejiri Glacier", 1, "Sejiri Shelter", "ZNR", "37", 83017),),
)


def attribute_names(line: str) -> list[str]:
    return re.findall(r'\s(\w+)="', line)


def test_our_dek_has_the_declaration_root_and_header_lines_mtgo_writes():
    ours, sample = lines(exports.mtgo_dek(ON_MTGO)), lines(real("mtgo_pauper_2017.dek"))
    assert ours[:4] == sample[:4]  # declaration and encoding, <Deck xmlns:xsd xmlns:xsi>, the two ids
    assert [line for line in ours if line][-1] == [line for line in sample if line][-1] == "</Deck>"


def test_our_cards_lines_have_mtgos_attributes_in_mtgos_order_and_spacing():
    ours = [line for line in lines(exports.mtgo_dek(ON_MTGO)) if "<Cards" in line]
    sample = [line for line in lines(real("mtgo_pauper_2017.dek")) if "<Cards" in line]
    assert len(ours) == 4 and len(sample) == 10
    shape = re.compile(r'^  <Cards( \w+="[^"]*")+ />$')
    for line in ours + sample:
        assert shape.match(line), line
        assert attribute_names(line)[:4] == ["CatID", "Quantity", "Sideboard", "Name"]
    # Later MTGO versions write Annotation="0" after Name (README); nothing else is added.
    assert all(attribute_names(line)[4:] == ["Annotation"] for line in ours)
    assert all(attribute_names(line)[4:] == [] for line in sample)


def test_our_dek_parses_to_the_same_element_order_as_mtgos():
    ours = ET.fromstring(exports.mtgo_dek(ON_MTGO))
    sample = ET.fromstring(real("mtgo_pauper_2017.dek"))
    assert ours.tag == sample.tag == "Deck"
    assert [c.tag for c in ours][:3] == [c.tag for c in sample][:3] == ["NetDeckID", "PreconstructedDeckID", "Cards"]
    assert {c.tag for c in ours} == {c.tag for c in sample}
    assert all(c.get("CatID").isdigit() for c in [*ours.iter("Cards"), *sample.iter("Cards")])
    assert [(c.get("CatID"), c.get("Name"), c.get("Sideboard")) for c in ours.iter("Cards")] == [
        ("42436", "Delver of Secrets", "false"),
        ("42342", "Moon Heron", "false"),
        ("42640", "Island", "false"),
        ("83017", "Sejiri Shelter", "true"),
    ]


def test_our_dek_and_mtgo_text_use_windows_line_ends_and_utf8():
    for text in (exports.mtgo_dek(ON_MTGO), exports.mtgo_text(ON_MTGO)):
        assert text.endswith("\r\n") and "\n" not in text.replace("\r\n", "")
        text.encode("utf-8")


# --- draft log -------------------------------------------------------------------------------

FRF_PACK = (
    "Sandblast",
    "Sultai Runemark",
    "Jeskai Sage",
    "Hooded Assassin",
    "Pressure Point",
    "Gore Swine",
    "Frontier Mastodon",
    "Alesha's Vanguard",
    "Defiant Ogre",
    "Whisperer of the Wilds",
    "Sibsig Muckdraggers",
    "Abzan Beastmaster",
    "Lightform",
    "Whisperwood Elemental",
    "Tranquil Cove",
)


def test_our_draft_log_is_mtgos_byte_for_byte_for_the_same_pick():
    """The 2015 MTGO log's first pick, written by us from the same facts: the same text."""
    ours = mtgo_draft_log(
        event_id="#######",
        started=dt.datetime(2015, 2, 21, 21, 17, 13),
        players=[f"Player{n}" for n in range(1, 9)],
        me=4,
        round_labels=["FRF"],
        picks=[LoggedPick(1, 1, "Whisperwood Elemental", FRF_PACK)],
    )
    assert lines(ours) == lines(real("mtgo_draftlog_frf_2015_head.txt"))
    assert ours.count("\r\n") == ours.count("\n")  # every line end is CRLF
    assert "------ FRF ------ \r\n" in ours  # MTGO's space after the round header


def test_our_header_matches_the_2026_client_log_line_for_line():
    sample = lines(real("mtgo_draftlog_ecl_2026_head.txt"))
    players = [line[4:] for line in sample[3:11]]
    ours = lines(
        mtgo_draft_log(
            event_id="10252",
            started=dt.datetime(2026, 2, 6, 20, 14, 11),
            players=players,
            me=7,
            round_labels=["ECL"],
            picks=[LoggedPick(1, 1, "Ashling, Rekindled", tuple(line[4:] for line in sample[15:29]))],
        )
    )
    assert ours[:12] == sample[:12]  # Event #, "Time:    2/6/2026 8:14:11 PM", Players, the arrow, blank
    header = re.compile(r"^------ .+ ------ $")
    assert header.match(ours[12]) and header.match(sample[12])
    assert ours[13:30] == sample[13:30]  # blank, "Pack 1 pick 1:", the pack with the taken card marked, blank


def test_mtgo_time_has_no_zero_padding():
    assert mtgo_time(dt.datetime(2026, 2, 6, 20, 14, 11)) == "2/6/2026 8:14:11 PM"
    assert mtgo_time(dt.datetime(2026, 12, 6, 2, 7, 1)) == "12/6/2026 2:07:01 AM"
    assert mtgo_time(dt.datetime(2026, 1, 1, 0, 5, 9)) == "1/1/2026 12:05:09 AM"
    assert mtgo_time(dt.datetime(2026, 1, 1, 12, 0, 0)) == "1/1/2026 12:00:00 PM"
