"""Malformed input stops the run with a clear error naming the file and the record; what was
imported before stays intact, and a failing batch rolls back alone."""

import gzip
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import DatabaseError

from cards.importers import CardImportError, ImportFormatError, RecordError, import_file
from cards.importers import store as store_module
from cards.models import Card, CardFace, Printing
from cards.services import BUNDLED_DATA_DIR, import_card_file

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).parents[1] / "fixtures"


def catalogue_state():
    return (
        Card.objects.count(),
        CardFace.objects.count(),
        Printing.objects.count(),
        sorted(Card.objects.values_list("data_hash", flat=True))[:50],
    )


@pytest.mark.parametrize(
    "fixture, error_class, code, message",
    [
        ("not_json.csv", ImportFormatError, "unknown_format", "not a card file"),
        ("empty.json", ImportFormatError, "empty_file", "empty"),
        ("blank.json", ImportFormatError, "empty_file", "empty"),
        ("object_without_data.json", ImportFormatError, "unknown_format", "not an MTGJSON file"),
        (
            "scryfall_truncated.json",
            ImportFormatError,
            "invalid_json",
            "invalid or truncated JSON after card object #2",
        ),
        ("scryfall_missing_name.json", RecordError, "bad_record", "card object #3 (08a47828-a"),
        (
            "mtgjson_list_missing_name.json",
            RecordError,
            "bad_record",
            "data record #1 (5a885f7d-d9d3-58fc-adb5-4be0bc6cd1f5): the record has no name",
        ),
        ("wrong_root.xml", ImportFormatError, "unknown_format", "not a Cockatrice card database"),
        ("cockatrice_missing_name.xml", RecordError, "bad_record", "card entry #1: the entry has no name"),
        ("cockatrice_truncated.xml", ImportFormatError, "invalid_xml", "invalid or truncated XML"),
    ],
)
def test_malformed_files_give_a_clear_error_and_keep_earlier_data(fixture, error_class, code, message):
    before = catalogue_state()
    with pytest.raises(error_class) as caught:
        import_card_file(FIXTURES / fixture)
    error = caught.value
    assert error.code == code
    assert fixture in str(error) and message in str(error), str(error)
    assert catalogue_state() == before


def test_a_record_error_names_its_position_and_identity():
    with pytest.raises(RecordError) as caught:
        import_card_file(FIXTURES / "scryfall_missing_name.json")
    assert (caught.value.index, caught.value.section) == (3, "card object")
    assert caught.value.reason == "the record has no name"
    assert caught.value.path.endswith("scryfall_missing_name.json")


def test_missing_file_and_damaged_gzip(tmp_path):
    with pytest.raises(ImportFormatError) as caught:
        import_card_file(tmp_path / "nope.json")
    assert caught.value.code == "file_not_found"
    damaged = tmp_path / "isd.json.gz"
    data = (BUNDLED_DATA_DIR / "scryfall/isd.json.gz").read_bytes()
    damaged.write_bytes(data[: len(data) // 2])
    with pytest.raises(ImportFormatError) as caught:
        import_card_file(damaged)
    assert caught.value.code in {"bad_gzip", "invalid_json"}
    assert "isd.json.gz" in str(caught.value)


def test_gzipped_garbage_is_unknown_content(tmp_path):
    path = tmp_path / "cards.json.gz"
    path.write_bytes(gzip.compress(b"hello, not cards"))
    with pytest.raises(ImportFormatError) as caught:
        import_card_file(path)
    assert caught.value.code == "unknown_format"


def test_batches_before_a_bad_record_stay_and_its_batch_rolls_back(empty_catalogue):
    # Batches of two: records 0-1 are committed, record 2 waits with 3, which is broken.
    with pytest.raises(RecordError):
        import_file(FIXTURES / "scryfall_missing_name.json", batch_size=2)
    assert set(Card.objects.values_list("name", flat=True)) == {"Abbey Griffin", "Angel of Flight Alabaster"}
    assert Printing.objects.count() == 2


def test_a_database_failure_rolls_back_only_the_failing_batch(monkeypatch, empty_catalogue):
    calls = {"n": 0}
    real = store_module.OrmStore.insert_printings

    def flaky(self, rows):
        calls["n"] += 1
        if calls["n"] == 2:
            raise DatabaseError("disk full (simulated)")
        return real(self, rows)

    monkeypatch.setattr(store_module.OrmStore, "insert_printings", flaky)
    monkeypatch.setattr(store_module.PostgresStore, "insert_printings", flaky)
    with pytest.raises(CardImportError) as caught:
        import_file(FIXTURES / "scryfall_five.json", batch_size=2)
    assert caught.value.code == "database_error"
    assert "records #2-#3 (first: Angelic Overseer)" in str(caught.value)
    assert "rolled back" in str(caught.value)
    # First batch committed; the second batch's cards (written before the failure) are gone.
    assert set(Card.objects.values_list("name", flat=True)) == {"Abbey Griffin", "Angel of Flight Alabaster"}
    assert not CardFace.objects.filter(name="Angelic Overseer").exists()


def test_the_command_turns_errors_into_a_command_error():
    with pytest.raises(CommandError) as caught:
        call_command("import_cards", str(FIXTURES / "scryfall_missing_name.json"), "--quiet")
    assert "scryfall_missing_name.json" in str(caught.value)
    assert "card object #3" in str(caught.value)
