"""Decklists written with the names printed on the cards, in any language (issue 16).

The names are the real printed names in the shipped MTGJSON files: a Brazilian player's
Innistrad Delver list in Portuguese, Russian and Italian names mixed with English ones, the
Portuguese and Spanish names that coincide, and a Portuguese name two different cards share.
"""

from __future__ import annotations

import pytest
from django.test import Client

from cards.models import Card
from cards.services import BUNDLED_DATA_DIR, import_card_file
from decks import parsers
from decks.models import Deck
from tests.decks.conftest import client_for, read_fixture

pytestmark = pytest.mark.django_db

DELVER = "Delver of Secrets // Insectile Aberration"
VALIDATE = "/api/decks/validate"


def validate(api_client, body, language="en"):
    return api_client.post(VALIDATE, body, format="json", HTTP_ACCEPT_LANGUAGE=language)


def test_parsers_keep_printed_names_as_written_in_every_format():
    text = (
        "4 Разыскиватель Тайн\n2 Mago da Conjuração-relâmpago (ISD) 78\n"
        "1 Pastore di Gatstaf\nSB: 2 Garças de Fantasmas\n"
    )
    parsed = parsers.parse_decklist(text)
    assert parsed.main == [("Разыскиватель Тайн", 4), ("Mago da Conjuração-relâmpago", 2), ("Pastore di Gatstaf", 1)]
    arena = parsers.parse_decklist("Deck\n4 Investigador de Segredos (ISD) 51\n\nSideboard\n2 Negar (ZNR) 71\n")
    assert arena.format == parsers.ARENA
    assert arena.main == [("Investigador de Segredos", 4)] and arena.sideboard == [("Negar", 2)]
    csv = parsers.parse_decklist("count,name,section\n4,Гастафский Пастух,main\n2,Alquimia Proibida,sideboard\n")
    assert csv.main == [("Гастафский Пастух", 4)] and csv.sideboard == [("Alquimia Proibida", 2)]


def test_a_portuguese_list_validates_and_says_which_language_it_read(api_client, catalogue):
    parsed = parsers.parse_decklist(read_fixture("delver_isd_pt.txt"))
    body = {
        "format": "constructed",
        "opaque_sleeves": True,
        "main": [{"name": n, "count": c} for n, c in parsed.main],
        "sideboard": [{"name": n, "count": c} for n, c in parsed.sideboard],
    }
    data = validate(api_client, body).json()
    assert data["errors"] == [] and data["valid"] is True
    assert data["summary"]["main"] == 60 and data["summary"]["sideboard"] == 7
    languages = [row["language"] for row in data["languages"]]
    assert languages[0] == "pt-br"
    assert data["languages"][0] == {"language": "pt-br", "name": "Português (Brasil)", "lines": 15}
    # "Dissipar", "Claustrofobia", "Negar"... are Spanish too: counted for both, never a problem
    assert "es" in languages
    printed = {row["printed_name"]: row["name"] for row in data["printed_names"]}
    assert printed["Investigador de Segredos"] == DELVER
    assert printed["Ilha"] == "Island"
    assert printed["Espreitador Invisível"] == "Invisible Stalker"


def test_mixed_languages_in_main_sideboard_and_checklist_cards(api_client, catalogue):
    body = {
        "format": "limited",
        "main": [
            {"name": "Разыскиватель Тайн", "count": 1},  # Russian, Cyrillic
            {"name": "Pastore di Gatstaf", "count": 1},  # Italian
            {"name": "pastor de gatstaf", "count": 1},  # Portuguese = Spanish, lower case
            {"name": "Aberración insectoide", "count": 1},  # Spanish back face, accents
            {"name": "Stitched Drake", "count": 1},  # English
            {"name": "Isola", "count": 35},
        ],
        "sideboard": [{"name": "Гастафский Завыватель", "count": 1}],
        "checklist_cards": [
            {"checklist": "Innistrad Checklist", "marked": ["Investigador de Segredos"]},
            {"checklist": "Innistrad Checklist", "marked": ["Гастафский Пастух"]},
        ],
    }
    data = validate(api_client, body).json()
    codes = {e["code"] for e in data["errors"]}
    assert "unknown_card" not in codes and "ambiguous_card_name" not in codes, data["errors"]
    read = {row["language"] for row in data["languages"]}
    assert {"ru", "it", "pt-br", "es", "en"} <= read
    names = {row["printed_name"]: row["name"] for row in data["printed_names"]}
    assert names["Разыскиватель Тайн"] == DELVER
    # Two Delvers (Russian front, Spanish back) and three Gatstaf Shepherds are the same cards:
    # the checklist cards marked in Portuguese and Russian cover them (R10, R12).
    assert data["summary"]["checklist_cards"] == 2


def test_an_ambiguous_printed_name_lists_the_candidates(api_client, catalogue):
    import_card_file(BUNDLED_DATA_DIR / "mtgjson" / "M21.json.gz")
    import_card_file(BUNDLED_DATA_DIR / "mtgjson" / "SOI.json.gz")
    body = {
        "format": "limited",
        "main": [{"name": "Aristocrata Indulgente", "count": 1}, {"name": "Ilha", "count": 39}],
    }
    messages = {}
    for language in ("en", "pt-br", "es", "it", "ru"):
        data = validate(api_client, body, language).json()
        error = next(e for e in data["errors"] if e["cards"] == ["Aristocrata Indulgente"])
        assert error["code"] == "ambiguous_card_name"  # the same code in every language
        assert "unknown_card" not in {e["code"] for e in data["errors"]}
        messages[language] = error["message"]
    assert "Indulgent Aristocrat" in messages["en"] and "Indulging Patrician" in messages["en"]
    assert messages["en"].startswith("Main deck: “Aristocrata Indulgente” is the printed name of several cards")
    assert messages["pt-br"].startswith("Deck principal: “Aristocrata Indulgente” é o nome impresso de várias cartas")
    assert "Indulgent Aristocrat" in messages["ru"]
    assert len(set(messages.values())) == 5
    # the English name settles it
    body["main"][0]["name"] = "Indulgent Aristocrat"
    assert "ambiguous_card_name" not in {e["code"] for e in validate(api_client, body).json()["errors"]}


def test_registered_list_keeps_the_english_name_with_the_printed_one(constructed, users):
    event, regs = constructed
    response = client_for(users["alice"]).put(
        f"/api/events/{event.pk}/deck/",
        {"text": read_fixture("delver_isd_pt.txt"), "opaque_sleeves": True},
        format="json",
    )
    assert response.status_code == 200, response.content
    data = response.json()
    assert data["valid"] is True
    deck = Deck.objects.get(registration=regs["alice"])
    delver = next(row for row in deck.main if row["name"] == DELVER)
    assert delver == {
        "card_id": Card.objects.get(name=DELVER).pk,
        "name": DELVER,
        "count": 4,
        "printed_name": "Investigador de Segredos",
        "language": "pt-br",
    }
    api_line = next(row for row in data["main"] if row["name"] == DELVER)
    assert api_line["printed_name"] == "Investigador de Segredos" and api_line["language"] == "pt-br"


def test_a_new_player_switches_to_portuguese_and_registers_a_portuguese_list(constructed, users):
    """The issue's 'done when': the demo in Portuguese, a deck pasted in Portuguese."""
    event, regs = constructed
    browser = Client()
    browser.force_login(users["alice"])
    browser.post("/i18n/setlang/", {"language": "pt-br", "next": "/decks/"})
    page = browser.get(f"/decks/events/{event.pk}/").content.decode()
    assert "Meu deck" in page and 'lang="pt-br"' in page
    response = browser.post(
        f"/decks/events/{event.pk}/",
        {"decklist": read_fixture("delver_isd_pt.txt"), "opaque_sleeves": "on", "action": "save"},
        follow=True,
    )
    html = response.content.decode()
    assert "Deck salvo e verificado." in html
    assert "Nomes das cartas lidos em: Português (Brasil)" in html
    deck = Deck.objects.get(registration=regs["alice"])
    assert deck.valid
    detail = browser.get(f"/decks/{deck.pk}/").content.decode()
    assert DELVER in detail and "(Investigador de Segredos)" in detail
    assert "A lista registrada passa em todas as verificações." in detail
    sheet = browser.get(f"/decks/{deck.pk}/print/").content.decode()
    assert "Folha de registro de deck" in sheet
    assert "Invisible Stalker" in sheet and "(Espreitador Invisível)" in sheet
    # a judge reading the same list in English still sees both names
    judge = Client()
    judge.force_login(users["judge"])
    judged = judge.get(f"/decks/{deck.pk}/print/").content.decode()
    assert "Deck registration sheet" in judged and "(Espreitador Invisível)" in judged


def test_stored_check_problems_are_shown_in_the_readers_language(constructed, users):
    event, regs = constructed
    client_for(users["alice"]).put(f"/api/events/{event.pk}/deck/", {"text": "4 Ilha\n1 Islandd"}, format="json")
    deck = Deck.objects.get(registration=regs["alice"])
    english = {e["code"]: e["message"] for e in deck.check_errors}
    assert english["unknown_card"].startswith("Main deck: No card is called “Islandd”.")
    judge = Client()
    judge.force_login(users["judge"])
    html = judge.get(f"/decks/{deck.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Основная колода: Нет карты с названием «Islandd»." in html
