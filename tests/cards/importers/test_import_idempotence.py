"""Importing again changes nothing; gzip and plain are the same data; the same card from two
formats is one card with one printing per Scryfall id; batch size does not matter."""

import gzip
import shutil

import pytest

from cards.importers import import_file
from cards.models import Card, CardFace, CardSet, ChecklistCard, ChecklistEntry, Printing
from cards.services import BUNDLED_DATA_DIR, import_card_file

pytestmark = pytest.mark.django_db

DATA = BUNDLED_DATA_DIR


def snapshot():
    return {
        "counts": [m.objects.count() for m in (Card, CardFace, CardSet, Printing, ChecklistCard, ChecklistEntry)],
        "cards": dict(Card.objects.values_list("name", "updated_at")),
        "hashes": dict(Printing.objects.values_list("id", "data_hash")),
        "links": dict(ChecklistEntry.objects.values_list("id", "card_id")),
    }


@pytest.mark.parametrize(
    "source",
    [
        "mtgjson/ISD.json.gz",
        "mtgjson/ZNR.json.gz",
        "scryfall/chk.json.gz",
        "cockatrice/MKC.xml.gz",
        "cockatrice/DSK.xml.gz",
        "checklists/checklists_and_substitutes.mtgjson.json",
        "mtgjson/SZNR.json",
    ],
)
def test_importing_a_file_twice_changes_nothing_the_second_time(source):
    # The session seed imported these files already, but a later file may have updated a
    # reprint (newer oracle text), so the first import here can change a few cards back.
    import_card_file(DATA / source)
    before = snapshot()
    summary = import_card_file(DATA / source)
    assert summary.created == summary.updated == 0
    assert summary.cards_created == summary.cards_updated == 0
    assert summary.checklists_created == summary.checklists_updated == 0
    assert summary.unchanged + summary.skipped + summary.checklist_cards == summary.records
    assert snapshot() == before


def test_fresh_import_then_again(empty_catalogue):
    first = import_card_file(DATA / "mtgjson/ISD.json.gz")
    assert (first.created, first.updated, first.unchanged) == (264, 0, 0)
    assert first.cards_created == 254 and first.skipped == 12 and first.checklist_cards == 1
    before = snapshot()
    second = import_card_file(DATA / "mtgjson/ISD.json.gz")
    assert (second.created, second.updated, second.unchanged) == (0, 0, 264)
    assert second.cards_unchanged == 254
    assert snapshot() == before


def test_gzip_and_plain_files_are_the_same_data(tmp_path, empty_catalogue):
    plain = tmp_path / "dka.json"
    with gzip.open(DATA / "scryfall/dka.json.gz", "rb") as src, open(plain, "wb") as out:
        shutil.copyfileobj(src, out)
    first = import_card_file(DATA / "scryfall/dka.json.gz")
    assert first.created == 158
    again = import_card_file(plain)
    assert (again.created, again.updated, again.unchanged) == (0, 0, 158)


def test_the_same_card_from_scryfall_and_mtgjson_is_one_card():
    # The seed has ISD from MTGJSON; now the Scryfall file for the same set.
    cards, printings = Card.objects.count(), Printing.objects.count()
    summary = import_card_file(DATA / "scryfall/isd.json.gz")
    assert summary.created == 0 and summary.cards_created == 0
    assert (Card.objects.count(), Printing.objects.count()) == (cards, printings)
    gatstaf = Printing.objects.get(card__name="Gatstaf Shepherd // Gatstaf Howler")
    assert str(gatstaf.scryfall_id) == "57f0907f-74f4-4d86-93df-f2e50c9d0b2f"
    assert gatstaf.mtgjson_uuid is not None  # kept: Scryfall has no MTGJSON uuid
    # The Scryfall file is now the latest word on these printings: importing it again is a no-op.
    again = import_card_file(DATA / "scryfall/isd.json.gz")
    assert again.created == again.updated == 0


def test_batch_size_does_not_change_the_result(empty_catalogue):
    summary = import_file(DATA / "mtgjson/ZNR.json.gz", batch_size=37)
    assert (summary.created, summary.cards_created) == (400, 278)
    assert summary.by_layout == {"normal": 347, "modal_dfc": 53}
    assert Card.objects.get(name="Sejiri Shelter // Sejiri Glacier").faces.count() == 2
    again = import_file(DATA / "mtgjson/ZNR.json.gz", batch_size=1000)
    assert again.unchanged == 400


def test_changed_card_is_updated_and_its_faces_replaced(empty_catalogue):
    import_card_file(DATA / "scryfall/isd.json.gz")
    card = Card.objects.get(name="Gatstaf Shepherd // Gatstaf Howler")
    card.faces.filter(position=1).update(oracle_text="tampered")
    Card.objects.filter(pk=card.pk).update(data_hash="stale")
    summary = import_card_file(DATA / "scryfall/isd.json.gz")
    assert (summary.updated, summary.cards_updated, summary.unchanged) == (1, 1, 263)
    assert "Intimidate" in card.faces.get(position=1).oracle_text
    assert card.faces.count() == 2


def test_a_format_without_oracle_ids_or_pictures_keeps_the_stored_ones():
    card = Card.objects.get(name="Experiment Twelve")
    Card.objects.filter(pk=card.pk).update(oracle_id="11111111-2222-4333-8444-555555555555", data_hash="stale")
    printing = card.printings.first()
    Printing.objects.filter(pk=printing.pk).update(data_hash="stale")
    summary = import_card_file(DATA / "cockatrice/MKC.xml.gz")  # Cockatrice: no oracle ids
    assert summary.cards_updated == 1
    card.refresh_from_db()
    printing.refresh_from_db()
    assert str(card.oracle_id) == "11111111-2222-4333-8444-555555555555"
    assert printing.image_uris["front"].startswith("https://cards.scryfall.io/")


def test_importing_overlapping_bundled_files_twice_reports_nothing_changed(empty_catalogue):
    """Files that share cards (ISD from Scryfall 2019 and from MTGJSON 2022, with different
    oracle text) used to overwrite each other on every run: ~2,500 "updated" on a second
    --bundled import. Sources have a precedence (newest data first, first wins), so the
    second run changes nothing and says so."""
    from io import StringIO

    from django.core.management import call_command

    files = [
        str(DATA / "scryfall/isd.json.gz"),
        str(DATA / "mtgjson/ISD.json.gz"),
        str(DATA / "scryfall/dka.json.gz"),
        str(DATA / "mtgjson/DKA.json.gz"),
    ]
    first = StringIO()
    call_command("import_cards", *files, "--quiet", stdout=first)
    before = snapshot()
    again = StringIO()
    call_command("import_cards", *files, "--quiet", stdout=again)
    assert snapshot() == before
    text = again.getvalue()
    assert " 0 created, 0 updated" in text, text
    assert "cards: 0 created, 0 updated" in text, text
