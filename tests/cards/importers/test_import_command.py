"""The ``import_cards`` management command and the bundled-file order."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from cards.models import Card, ChecklistCard, ChecklistEntry, Printing
from cards.services import BUNDLED_DATA_DIR, bundled_files

pytestmark = pytest.mark.django_db


def run(*args) -> str:
    out = StringIO()
    call_command("import_cards", *args, stdout=out)
    return out.getvalue()


def test_command_prints_a_summary_per_file(empty_catalogue):
    output = run(str(BUNDLED_DATA_DIR / "scryfall/chk.json.gz"))
    assert "chk.json.gz [scryfall]" in output
    assert "307 records" in output and "307 created, 0 updated, 0 unchanged" in output
    assert "by layout: flip 10, normal 297" in output
    assert Printing.objects.filter(card_set__code="CHK").count() == 307


def test_command_totals_for_several_files(empty_catalogue):
    output = run(
        str(BUNDLED_DATA_DIR / "scryfall/bok.json.gz"), str(BUNDLED_DATA_DIR / "scryfall/sok.json.gz"), "--quiet"
    )
    assert "Imported 2 file(s)" in output
    assert "330 records" in output and "by layout: flip 10, normal 320" in output


def test_command_needs_files_or_bundled():
    with pytest.raises(CommandError, match="--bundled"):
        run()


def test_bundled_files_come_sets_first_then_checklists():
    files = bundled_files()
    names = [f"{p.parent.name}/{p.name}" for p in files]
    assert len(names) == 24
    assert names[-1] == "checklists/checklists_and_substitutes.mtgjson.json"
    assert set(names[-4:-1]) == {"mtgjson/SKHM.json", "mtgjson/SMID.json", "mtgjson/SZNR.json"}
    folders = [n.split("/")[0] for n in names[:-4]]
    # Newest data first: where files share a card, the first file of a run wins.
    assert folders == sorted(folders, key=["cockatrice", "mtgjson", "scryfall"].index)


@pytest.mark.slow
def test_bundled_import_loads_everything(empty_catalogue):
    output = run("--bundled", "--quiet")
    assert "Imported 24 file(s)" in output
    assert Card.objects.filter(layout="meld").count() == 6
    # ZNR 36 + KHM 17 (KHM's file also holds Arena's rebalanced "A-" versions).
    assert Card.objects.filter(layout="modal_dfc").count() == 53
    checklists = ChecklistCard.objects.exclude(set_code__in=["TORI", "TXLN", "TRIX", "TM19"])
    unlinked = ChecklistEntry.objects.filter(checklist__in=checklists, card__isnull=True)
    assert not unlinked.exists(), list(unlinked.values_list("printed_name", flat=True))
    assert ChecklistCard.objects.get(set_code="SMID", collector_number="1").entries.count() > 0
    # A second run changes nothing and says so (files sharing cards used to overwrite each
    # other: ~2,500 cards "updated" every time).
    again = run("--bundled", "--quiet")
    assert "cards: 0 created, 0 updated" in again, again
    assert " 0 created, 0 updated" in again.split("cards:")[0], again


def test_progress_callback_sees_every_record(empty_catalogue):
    from cards.services import import_card_file

    seen = []
    summary = import_card_file(BUNDLED_DATA_DIR / "mtgjson/ISD.json.gz", progress=seen.append)
    assert sum(seen) == summary.records == 277  # 264 cards, 12 tokens, 1 checklist


def test_progress_bar_on_a_terminal(monkeypatch, capsys, empty_catalogue):
    import sys

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    output = run(str(BUNDLED_DATA_DIR / "scryfall/sok.json.gz"))
    assert "165 records" in output
    assert "sok.json.gz" in capsys.readouterr().err  # the tqdm bar's label
