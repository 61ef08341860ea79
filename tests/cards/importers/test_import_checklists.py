"""Checklist and substitute cards (R9-R11): entries parsed, linked to DFC fronts, relinked
whatever order the files arrive in."""

import pytest

from cards.importers.text import checklist_names
from cards.models import DFC_LAYOUTS, Card, ChecklistCard, ChecklistEntry
from cards.services import BUNDLED_DATA_DIR, import_card_file

pytestmark = pytest.mark.django_db

DATA = BUNDLED_DATA_DIR


def test_innistrad_checklist_lists_twenty_linked_dfcs():
    checklist = ChecklistCard.objects.get(name="Innistrad Checklist")
    assert (checklist.kind, checklist.set_code, checklist.parent_set_code) == ("checklist", "TISD", "ISD")
    assert checklist.collector_number == "13"
    entries = list(checklist.entries.order_by("position"))
    assert len(entries) == 20
    assert entries[0].printed_name == "Cloistered Youth"
    assert "Gatstaf Shepherd" in [e.printed_name for e in entries]
    for entry in entries:
        assert entry.card is not None, entry.printed_name
        assert entry.card.layout == "transform"
        assert entry.card.faces.get(position=0).name == entry.printed_name


def test_the_checklist_in_the_set_file_and_in_the_checklists_file_is_one_row():
    assert ChecklistCard.objects.filter(set_code="TISD").count() == 1


def test_substitute_cards_list_the_dfcs_of_their_parent_set():
    substitutes = ChecklistCard.objects.filter(set_code="SZNR")
    assert substitutes.count() == 9
    expected = {
        card.faces.get(position=0).name
        for card in Card.objects.filter(printings__card_set__code="ZNR", layout__in=list(DFC_LAYOUTS)).distinct()
    }
    assert len(expected) == 36
    for substitute in substitutes:
        assert (substitute.kind, substitute.parent_set_code) == ("substitute", "ZNR")
        entries = substitute.entries.all()
        assert {e.printed_name for e in entries} == expected
        assert all(e.card_id and e.card.layout == "modal_dfc" for e in entries)
    assert "Sejiri Shelter" in expected


def test_substitutes_of_sets_not_imported_have_no_entries_yet():
    svow = ChecklistCard.objects.filter(set_code="SVOW")
    assert svow.count() == 9 and svow.first().parent_set_code == "VOW"
    assert not ChecklistEntry.objects.filter(checklist__set_code="SVOW").exists()


def test_day_night_helper_is_neither_a_checklist_nor_a_card():
    assert not ChecklistCard.objects.filter(name__contains="Day").exists()
    assert not Card.objects.filter(name="Day // Night").exists()


def test_entries_link_whichever_file_comes_first(empty_catalogue):
    summary = import_card_file(DATA / "checklists/checklists_and_substitutes.mtgjson.json")
    assert summary.checklist_cards == 54 and summary.skipped_reasons == {"double_faced_token": 4}
    dka = ChecklistCard.objects.get(name="Dark Ascension Checklist")
    assert dka.entries.count() == 13
    assert not dka.entries.filter(card__isnull=False).exists()

    summary = import_card_file(DATA / "scryfall/dka.json.gz")
    assert dka.entries.filter(card__isnull=True).count() == 0
    assert summary.checklist_entries_unlinked > 0  # other sets' checklists still wait
    huntmaster = dka.entries.get(printed_name="Huntmaster of the Fells").card
    assert huntmaster.name == "Huntmaster of the Fells // Ravager of the Fells"


def test_eldritch_moon_checklist_links_meld_and_transform_cards(empty_catalogue):
    import_card_file(DATA / "mtgjson/EMN.json.gz")  # holds the TEMN checklist token
    checklist = ChecklistCard.objects.get(name="Eldritch Moon Checklist")
    entries = checklist.entries.all()
    assert entries.count() == 21 and not entries.filter(card__isnull=True).exists()
    assert entries.get(printed_name="Bruna, the Fading Light").card.layout == "meld"


def test_checklist_lines_are_parsed_without_costs():
    text = (
        "(You can mark this card to represent a double-faced card.)\n"
        "☐ Delver of Secrets {U}\n☐ Hanweir Battlements\n☐ Garruk Relentless {3}{G}\n"
    )
    assert checklist_names(text) == ["Delver of Secrets", "Hanweir Battlements", "Garruk Relentless"]
