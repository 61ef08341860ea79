"""Each format imports the seed cards correctly: faces, costs, types, colors, printings.

The session seed (tests/conftest.py) already holds ISD and ZNR from MTGJSON, CHK from
Scryfall, MKC and DSK from Cockatrice; other tests here import a further file themselves.
"""

import gzip
import json
import shutil

import pytest

from cards.importers.sources import Format, detect_format
from cards.models import DFC_LAYOUTS, Card, CardSet, Printing
from cards.services import BUNDLED_DATA_DIR, import_card_file

pytestmark = pytest.mark.django_db

DATA = BUNDLED_DATA_DIR
GATSTAF = "Gatstaf Shepherd // Gatstaf Howler"
SEJIRI = "Sejiri Shelter // Sejiri Glacier"
AKKI = "Akki Lavarunner // Tok-Tok, Volcano Born"


def faces(name):
    return list(Card.objects.get(name=name).faces.order_by("position"))


@pytest.mark.parametrize(
    "source, misleading_name, expected",
    [
        ("scryfall/isd.json.gz", "cards.xml", Format.SCRYFALL),
        ("mtgjson/SZNR.json", "scryfall.json", Format.MTGJSON_SET),
        ("checklists/checklists_and_substitutes.mtgjson.json", "list.xml", Format.MTGJSON_LIST),
        ("cockatrice/DSK.xml.gz", "DSK.json", Format.COCKATRICE),
    ],
)
def test_format_comes_from_the_content_not_the_name(tmp_path, source, misleading_name, expected):
    target = tmp_path / misleading_name
    shutil.copy(DATA / source, target)
    assert detect_format(target) == expected


def test_scryfall_list_object_is_read_from_its_data_array(tmp_path, empty_catalogue):
    cards = json.load(gzip.open(DATA / "scryfall/isd.json.gz"))[:3]
    path = tmp_path / "page.json"
    path.write_text(json.dumps({"object": "list", "has_more": False, "data": cards}))
    assert detect_format(path) == Format.SCRYFALL_LIST
    summary = import_card_file(path)
    assert summary.created == 3
    assert Card.objects.count() == 3


def check_gatstaf(printing_source):
    front, back = faces(GATSTAF)
    card = Card.objects.get(name=GATSTAF)
    assert card.layout == "transform" and card.is_dfc
    assert card.color_identity == "G"
    assert str(card.oracle_id) == "c05c5375-d0d7-4cf2-92e6-76f86cd0febf"
    assert (front.name, front.mana_cost, front.mana_value) == ("Gatstaf Shepherd", "{1}{G}", 2)
    assert front.card_types == ["Creature"] and front.subtypes == ["Human", "Werewolf"]
    assert (front.colors, front.color_indicator) == ("G", "")
    assert (front.power, front.toughness) == ("2", "2")
    assert back.name == "Gatstaf Howler" and back.search_name == "gatstaf howler"
    assert back.mana_cost == "" and back.mana_value == 0
    assert (back.colors, back.color_indicator) == ("G", "G")
    assert back.subtypes == ["Werewolf"] and (back.power, back.toughness) == ("3", "3")
    assert "Intimidate" in back.oracle_text
    printing = Printing.objects.get(card=card, card_set__code="ISD")
    assert (printing.collector_number, printing.rarity) == ("182", "uncommon")
    assert str(printing.scryfall_id) == "57f0907f-74f4-4d86-93df-f2e50c9d0b2f"
    assert set(printing.image_uris) == {"front", "back"}
    assert printing.in_boosters


def test_mtgjson_transform_card_from_the_seed():
    check_gatstaf("mtgjson")
    assert Printing.objects.get(card__name=GATSTAF).mtgjson_uuid is not None


def test_scryfall_transform_card(empty_catalogue):
    summary = import_card_file(DATA / "scryfall/isd.json.gz")
    assert summary.by_layout == {"normal": 244, "transform": 20}
    check_gatstaf("scryfall")
    assert CardSet.objects.get(code="ISD").name == "Innistrad"


def test_mtgjson_keeps_the_booster_sheets_verbatim():
    booster = json.load(gzip.open(DATA / "mtgjson/ISD.json.gz"))["data"]["booster"]
    card_set = CardSet.objects.get(code="ISD")
    assert card_set.booster == booster
    assert (card_set.name, str(card_set.release_date), card_set.set_type) == ("Innistrad", "2011-09-30", "expansion")
    dfc_sheet = card_set.booster["default"]["sheets"]["dfc"]
    assert dfc_sheet["totalWeight"] == 121 and len(dfc_sheet["cards"]) == 20
    # Sheets name cards by MTGJSON uuid; every DFC on the sheet is a printing we can find.
    found = Printing.objects.filter(mtgjson_uuid__in=list(dfc_sheet["cards"]))
    assert found.count() == 20
    assert {p.card.layout for p in found} == {"transform"}


def test_modal_dfc():
    front, back = faces(SEJIRI)
    card = Card.objects.get(name=SEJIRI)
    assert card.layout == "modal_dfc" and card.color_identity == "W"
    assert (front.name, front.mana_cost, front.mana_value, front.card_types) == (
        "Sejiri Shelter",
        "{1}{W}",
        2,
        ["Instant"],
    )
    assert (back.name, back.mana_cost, back.mana_value, back.card_types) == ("Sejiri Glacier", "", 0, ["Land"])
    assert back.colors == "" and back.color_indicator == ""
    printing = Printing.objects.get(card=card)
    assert (printing.card_set.code, printing.collector_number) == ("ZNR", "37")
    # "Sejiri Refuge" is another card, not a face of this one.
    assert not Card.objects.filter(faces__name="Sejiri Refuge", name=SEJIRI).exists()


def test_in_boosters_follows_booster_types():
    records = json.load(gzip.open(DATA / "mtgjson/ZNR.json.gz"))["data"]["cards"]
    fronts = [r for r in records if r.get("side") in (None, "a")]
    drafted = [r for r in fronts if "draft" in r.get("boosterTypes", [])]
    znr = Printing.objects.filter(card_set__code="ZNR")
    assert znr.count() == len(fronts) == 400
    assert znr.filter(in_boosters=True).count() == len(drafted) == 285
    # Extended art, showcase and promo printings are not in draft boosters.
    assert znr.filter(in_boosters=False, collector_number="290").exists()


def check_akki():
    upright, flipped = faces(AKKI)
    assert Card.objects.get(name=AKKI).layout == "flip"
    assert (upright.name, upright.mana_cost, upright.mana_value) == ("Akki Lavarunner", "{3}{R}", 4)
    assert upright.supertypes == [] and upright.subtypes == ["Goblin", "Warrior"]
    assert flipped.name == "Tok-Tok, Volcano Born"
    assert flipped.supertypes == ["Legendary"] and flipped.card_types == ["Creature"]
    assert flipped.colors == "R" and flipped.mana_cost == ""
    assert (flipped.power, flipped.toughness) == ("2", "2")


def test_scryfall_flip_card_from_the_seed():
    check_akki()
    assert Printing.objects.get(card__name=AKKI).collector_number == "153"


def test_mtgjson_flip_card(empty_catalogue):
    summary = import_card_file(DATA / "mtgjson/CHK.json.gz")
    assert summary.by_layout == {"normal": 297, "flip": 10}
    check_akki()


def test_cockatrice_disguise_card_and_art_variants():
    card = Card.objects.get(name="Experiment Twelve")
    (face,) = card.faces.all()
    assert card.layout == "normal" and card.color_identity == "G" and card.oracle_id is None
    assert (face.mana_cost, face.mana_value, face.colors) == ("{3}{G}", 4, "G")
    assert face.disguise_cost == "{4}{G}"
    assert face.morph_cost == "" and face.megamorph_cost == ""
    assert (face.power, face.toughness) == ("4", "4")
    assert face.subtypes == ["Elf", "Lizard", "Warrior"]
    printings = Printing.objects.filter(card=card)
    # Two entries with different pictures: the same card printed twice.
    assert printings.count() == 2
    assert {p.card_set.code for p in printings} == {"MKC"}
    assert {p.collector_number for p in printings} == {""}
    assert all(
        p.scryfall_id
        and p.image_uris["front"].endswith(".jpg?1706241408")
        or p.image_uris["front"].endswith(".jpg?1706240494")
        for p in printings
    )
    assert CardSet.objects.get(code="MKC").name == "Murders at Karlov Manor Commander"


def test_cockatrice_manifest_dread_rooms_and_no_dfcs():
    oculus = Card.objects.get(name="Abhorrent Oculus")
    assert oculus.layout == "normal"
    assert "manifest dread" in oculus.faces.get().oracle_text
    dsk = Card.objects.filter(printings__card_set__code="DSK").distinct()
    assert not dsk.filter(layout__in=list(DFC_LAYOUTS)).exists()
    room = Card.objects.get(name="Bottomless Pool // Locker Room")
    pool, locker = room.faces.order_by("position")
    assert room.layout == "split"
    assert (pool.mana_cost, pool.mana_value, locker.mana_cost, locker.mana_value) == ("{U}", 1, "{4}{U}", 5)
    assert pool.subtypes == ["Room"] and pool.card_types == ["Enchantment"]
    assert dsk.filter(layout="split").count() == 23
    # 68 Room halves in the file: 34 printings (some Rooms have a second art).
    assert Printing.objects.filter(card_set__code="DSK", card__layout="split").count() == 34


def test_cockatrice_split_halves_and_adventure(empty_catalogue):
    summary = import_card_file(DATA / "cockatrice/MKM.xml.gz")
    assert summary.by_layout["split"] == 5
    fuss, bother = faces("Fuss // Bother")
    assert (fuss.mana_cost, fuss.mana_value, fuss.colors) == ("{2}{R/W}", 3, "WR")
    assert (bother.mana_cost, bother.mana_value) == ("{4}{W/U}{W/U}", 6)
    assert Printing.objects.filter(card__name="Fuss // Bother").count() == 1
    kellan = Card.objects.get(name="Kellan, Inquisitive Prodigy // Tail the Suspect")
    creature, adventure = kellan.faces.order_by("position")
    assert kellan.layout == "adventure"
    assert (creature.mana_cost, creature.mana_value) == ("{2}{G}{U}", 4)
    assert creature.supertypes == ["Legendary"]
    assert (adventure.name, adventure.mana_cost, adventure.subtypes) == ("Tail the Suspect", "{G}{U}", ["Adventure"])
    # The file lists Kellan twice without a picture: one printing, matched by set and card.
    assert kellan.printings.count() == 1
    # 45 entries mention "Disguise {...}": 36 cards, the rest are art variants.
    disguised = Printing.objects.filter(card__faces__disguise_cost__startswith="{")
    assert disguised.count() == 45
    assert disguised.values("card").distinct().count() == 36


@pytest.mark.parametrize("source", ["mtgjson/EMN.json.gz", "scryfall/emn.json.gz"])
def test_meld_card_has_the_melded_face_second(empty_catalogue, source):
    summary = import_card_file(DATA / source)
    assert summary.skipped_reasons["meld_result"] == 3
    bruna = Card.objects.get(name="Bruna, the Fading Light // Brisela, Voice of Nightmares")
    front, melded = bruna.faces.order_by("position")
    assert bruna.layout == "meld" and bruna.is_dfc
    assert (front.name, front.mana_cost) == ("Bruna, the Fading Light", "{5}{W}{W}")
    assert (melded.name, melded.mana_cost, melded.power) == ("Brisela, Voice of Nightmares", "", "9")
    assert Card.objects.filter(name__startswith="Gisela, the Broken Blade // Brisela").exists()
    assert not Card.objects.filter(name="Brisela, Voice of Nightmares").exists()
    assert Card.objects.filter(layout="meld").count() == 6


def test_mtgjson_printings_carry_their_mtgo_ids():
    """The seed's ISD and ZNR come from MTGJSON: ``identifiers.mtgoId``/``mtgoFoilId`` land on
    each printing (the .dek's CatID). ZNR's MTGJSON file has no foil ids."""
    delver = Printing.objects.get(card_set__code="ISD", collector_number="51")
    assert (delver.mtgo_id, delver.mtgo_foil_id) == (42436, 42437)
    sejiri = Printing.objects.get(card__name=SEJIRI, card_set__code="ZNR", collector_number="37")
    assert (sejiri.mtgo_id, sejiri.mtgo_foil_id) == (83017, None)
    records = json.load(gzip.open(DATA / "mtgjson/ISD.json.gz"))["data"]["cards"]
    with_ids = {r["number"] for r in records if r.get("identifiers", {}).get("mtgoId")}
    stored = set(
        Printing.objects.filter(card_set__code="ISD", mtgo_id__isnull=False).values_list("collector_number", flat=True)
    )
    assert stored == with_ids


def test_a_scryfall_printing_carries_its_mtgo_ids_and_a_record_without_them_keeps_them(tmp_path, empty_catalogue):
    import_card_file(DATA / "scryfall/chk.json.gz")
    akki = Printing.objects.get(card__name=AKKI, card_set__code="CHK")
    assert (akki.mtgo_id, akki.mtgo_foil_id) == (21237, 21238)
    # The same printing again from a record without MTGO ids: the stored ids stay.
    record = next(c for c in json.load(gzip.open(DATA / "scryfall/chk.json.gz")) if c["name"] == AKKI)
    record.pop("mtgo_id")
    record.pop("mtgo_foil_id")
    record["rarity"] = "rare"  # a change, so the printing is written again
    path = tmp_path / "akki.json"
    path.write_text(json.dumps([record]))
    assert import_card_file(path).updated == 1
    akki.refresh_from_db()
    assert (akki.rarity, akki.mtgo_id, akki.mtgo_foil_id) == ("rare", 21237, 21238)


def test_the_migration_fills_the_mtgo_ids_of_a_catalogue_imported_before_them():
    """cards 0004 reads the bundled MTGJSON files for printings stored without ids."""
    import importlib

    from django.apps import apps

    migration = importlib.import_module("cards.migrations.0004_printing_mtgo_ids")
    from_mtgjson = Printing.objects.filter(mtgjson_uuid__isnull=False)
    imported = set(from_mtgjson.values_list("pk", "mtgo_id", "mtgo_foil_id"))
    Printing.objects.update(mtgo_id=None, mtgo_foil_id=None)
    migration.fill_from_bundled_mtgjson(apps, None)
    delver = Printing.objects.get(card_set__code="ISD", collector_number="51")
    assert (delver.mtgo_id, delver.mtgo_foil_id) == (42436, 42437)
    assert set(from_mtgjson.values_list("pk", "mtgo_id", "mtgo_foil_id")) == imported  # as the importer left them
    # Scryfall's CHK printings get theirs at their next import.
    assert not Printing.objects.filter(mtgjson_uuid__isnull=True, mtgo_id__isnull=False).exists()
