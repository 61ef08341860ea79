"""The exporters (decks.exports, plain Python): each client's format from real cards, and what
our own importers (decks.parsers) read back."""

from __future__ import annotations

import xml.etree.ElementTree as ET
import zipfile
from collections import Counter
from dataclasses import replace
from io import BytesIO

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks import exports, parsers
from decks.exports import Decklist, Entry

# MTGO ids as MTGJSON gives them for these printings (cards/data/mtgjson: ISD has foil ids too).
DELVER = Entry("Delver of Secrets // Insectile Aberration", 1, "Delver of Secrets", "ISD", "51", 42436, 42437)
SHEPHERD = Entry("Gatstaf Shepherd // Gatstaf Howler", 2, "Gatstaf Shepherd", "ISD", "182", 42504, 42505)
HERON = Entry("Moon Heron", 1, "", "ISD", "69", 42342, 42343)
EMERIA = Entry("Emeria's Call // Emeria, Shattered Skyclave", 1, "Emeria's Call", "ZNR", "12", 82959)
SEJIRI = Entry("Sejiri Shelter // Sejiri Glacier", 1, "Sejiri Shelter", "ZNR", "37", 83017)
FIRE_ICE = Entry("Fire // Ice", 1)  # a split card: both halves; no MTGO id in our catalogue
ISLAND = Entry("Island", 15)
DECK = Decklist(main=(DELVER, SHEPHERD, HERON, EMERIA, ISLAND), sideboard=(SEJIRI, FIRE_ICE), title="ISD · Alice")
ISLAND_ZNR = Entry("Island", 15, "", "ZNR", "268", 83549)
ON_MTGO = Decklist(main=(DELVER, SHEPHERD, HERON, EMERIA, ISLAND_ZNR), sideboard=(SEJIRI,), title="ISD · Alice")


def test_arena_names_dfcs_by_front_face_with_set_and_collector_number():
    text = exports.arena(DECK)
    assert text.splitlines()[:6] == [
        "Deck",
        "1 Delver of Secrets (ISD) 51",
        "2 Gatstaf Shepherd (ISD) 182",
        "1 Moon Heron (ISD) 69",
        "1 Emeria's Call (ZNR) 12",
        "15 Island",  # no printing known: the name alone
    ]
    assert "Sideboard\n1 Sejiri Shelter (ZNR) 37\n1 Fire // Ice\n" in text
    assert "Insectile Aberration" not in text


def test_mtgo_dek_is_xml_with_catids_front_names_and_sideboard_flags():
    root = ET.fromstring(exports.mtgo_dek(ON_MTGO))
    assert root.tag == "Deck"
    cards = [(c.get("CatID"), c.get("Quantity"), c.get("Sideboard"), c.get("Name")) for c in root.iter("Cards")]
    assert cards == [
        ("42436", "1", "false", "Delver of Secrets"),
        ("42504", "2", "false", "Gatstaf Shepherd"),
        ("42342", "1", "false", "Moon Heron"),
        ("82959", "1", "false", "Emeria's Call"),
        ("83549", "15", "false", "Island"),
        ("83017", "1", "true", "Sejiri Shelter"),
    ]


def test_a_foil_names_its_foil_catid_when_the_printing_has_one():
    foil_delver = Entry(DELVER.name, 1, DELVER.front, "ISD", "51", 42436, 42437, foil=True)
    foil_emeria = Entry(EMERIA.name, 1, EMERIA.front, "ZNR", "12", 82959, None, foil=True)
    root = ET.fromstring(exports.mtgo_dek(Decklist(main=(DELVER, foil_delver, foil_emeria))))
    assert [c.get("CatID") for c in root.iter("Cards")] == ["42436", "42437", "82959"]


def test_mtgo_names_a_split_card_with_one_slash():
    fire_ice = Entry("Fire // Ice", 1, mtgo_id=1)  # an id only so the .dek is written
    root = ET.fromstring(exports.mtgo_dek(Decklist(main=(fire_ice,))))
    assert root.find("Cards").get("Name") == "Fire/Ice"
    assert exports.mtgo_text(DECK).endswith("Sideboard\r\n1 Sejiri Shelter\r\n1 Fire/Ice\r\n")
    # Arena and Cockatrice keep "Fire // Ice".
    assert "1 Fire // Ice" in exports.arena(DECK)


def test_no_dek_for_a_list_with_a_card_mtgo_has_no_id_for():
    with pytest.raises(exports.MissingMtgoIds) as caught:
        exports.mtgo_dek(DECK)
    assert caught.value.names == ["Island", "Fire/Ice"]
    assert exports.missing_mtgo_ids(ON_MTGO) == []


def test_cockatrice_cod_has_main_and_side_zones():
    root = ET.fromstring(exports.cockatrice(DECK))
    assert root.tag == "cockatrice_deck" and root.get("version") == "1"
    assert root.findtext("deckname") == "ISD · Alice"
    zones = {z.get("name"): [(c.get("number"), c.get("name")) for c in z.iter("card")] for z in root.iter("zone")}
    assert zones["main"][0] == ("1", "Delver of Secrets") and ("15", "Island") in zones["main"]
    assert zones["side"] == [("1", "Sejiri Shelter"), ("1", "Fire // Ice")]


def test_plain_text_keeps_the_full_name():
    text = exports.plain_text(DECK)
    assert text.startswith("1 Delver of Secrets // Insectile Aberration\n2 Gatstaf Shepherd // Gatstaf Howler\n")
    assert "\n\nSideboard\n1 Sejiri Shelter // Sejiri Glacier\n1 Fire // Ice\n" in text


def test_xml_escapes_names():
    tricky = Decklist(main=(Entry('Ach! Hans, Run! "<&>"', 1, mtgo_id=12),), title="<b>&")
    assert ET.fromstring(exports.mtgo_dek(tricky)).find("Cards").get("Name") == 'Ach! Hans, Run! "<&>"'
    assert ET.fromstring(exports.cockatrice(tricky)).findtext("deckname") == "<b>&"


def sections(parsed: parsers.ParsedList) -> tuple[Counter, Counter]:
    return Counter(dict(parsed.main)), Counter(dict(parsed.sideboard))


def expected(deck: Decklist, name) -> tuple[Counter, Counter]:
    def count(entries):
        counter: Counter = Counter()
        for e in entries:
            counter[name(e)] += e.count
        return counter

    return count(deck.main), count(deck.sideboard)


# Formats we also import, and the name each writes (the parser reads any face's name back).
ROUND_TRIPS = {
    exports.ARENA: (parsers.ARENA, lambda e: e.client_name),
    exports.MTGO_DEK: (parsers.MTGO_DEK, lambda e: e.mtgo_name),
    exports.TEXT: (parsers.TEXT, lambda e: e.name),
}


def test_every_format_we_import_reads_back_the_same_deck():
    for key, (parsed_format, name) in ROUND_TRIPS.items():
        deck = ON_MTGO if key == exports.MTGO_DEK else DECK
        parsed = parsers.parse_decklist(exports.render(key, deck))
        assert parsed.format == parsed_format, key
        assert sections(parsed) == expected(deck, name), key


# Real cards of the seed sets, every layout the exporters treat differently.
REAL = [
    DELVER,
    SHEPHERD,
    HERON,
    EMERIA,
    SEJIRI,
    FIRE_ICE,
    Entry("Akki Lavarunner // Tok-Tok, Volcano Born", 1, "Akki Lavarunner", "CHK", "153", 21237, 21238),
    Entry("Bottomless Pool // Locker Room", 1, "", "DSK", "43"),
    Entry("Think Twice", 1, "", "ISD", "83", 42534, 42535),
    Entry("Claustrophobia", 1, "", "ISD", "46"),
    Entry("Travel Preparations", 1, "", "ISD", "206"),
    Entry("Agadeem's Awakening // Agadeem, the Undercrypt", 1, "Agadeem's Awakening", "ZNR", "90"),
    Entry("Forest", 1),
    Entry("Island", 1),
]


@st.composite
def split_pools(draw):
    """A pool (distinct real cards, 1-20 copies each) split into a deck and a sideboard."""
    cards = draw(st.lists(st.sampled_from(REAL), min_size=1, max_size=len(REAL), unique_by=lambda e: e.name))
    main, side = [], []
    for card in cards:
        total = draw(st.integers(1, 20))
        in_main = draw(st.integers(0, total))
        if in_main:
            main.append(replace(card, count=in_main))
        if total - in_main:
            side.append(replace(card, count=total - in_main))
    return Decklist(main=tuple(main), sideboard=tuple(side))


@settings(max_examples=60, deadline=None)
@given(split_pools())
def test_any_split_pool_exports_and_reimports_to_the_same_counts(deck):
    for key, (_format, name) in ROUND_TRIPS.items():
        if key == exports.MTGO_DEK and exports.missing_mtgo_ids(deck):
            with pytest.raises(exports.MissingMtgoIds):  # never a .dek with a line MTGO cannot load
                exports.render(key, deck)
            continue
        parsed = parsers.parse_decklist(exports.render(key, deck))
        assert sections(parsed) == expected(deck, name), key


def test_the_zip_holds_every_file_and_is_the_same_every_time():
    files = {"pod-1/seat-1-alice/deck.dek": exports.mtgo_dek(ON_MTGO), "pod-1/seat-1-alice/deck.txt": "1 Island\n"}
    data = exports.zip_bundle(files)
    assert data == exports.zip_bundle(dict(reversed(list(files.items()))))
    with zipfile.ZipFile(BytesIO(data)) as archive:
        assert archive.namelist() == sorted(files)
        assert archive.read("pod-1/seat-1-alice/deck.txt") == b"1 Island\n"


def test_safe_filename_allows_no_path_tricks():
    assert exports.safe_filename("../../etc/passwd") == "etc-passwd"
    assert exports.safe_filename("Ана Мария") == "Ана-Мария"
    assert exports.safe_filename("///") == "player"
