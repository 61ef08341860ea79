"""Card names in every printed language: import, look-up, suggestions (issue 16).

Every name here is read from the shipped MTGJSON files (cards/data/mtgjson, ``foreignData``):
Innistrad's Gatstaf Shepherd // Gatstaf Howler is "Pastor de Gatstaf" in both Portuguese and
Spanish, "Pastore di Gatstaf" in Italian and "Гастафский Пастух // Гастафский Завыватель" in
Russian.
"""

from __future__ import annotations

import pytest

from cards import selectors
from cards.models import Card, LocalizedName
from cards.name_folding import normalize_name
from cards.services import BUNDLED_DATA_DIR, import_card_file

GATSTAF = "Gatstaf Shepherd // Gatstaf Howler"
pytestmark = pytest.mark.django_db


def test_the_importer_keeps_each_faces_printed_names_per_language():
    card = Card.objects.get(name=GATSTAF)
    names = {(n.language, n.position): n.name for n in card.localized_names.all()}
    assert names[("pt-br", 0)] == "Pastor de Gatstaf"
    assert names[("pt-br", 1)] == "Uivador de Gatstaf"
    assert names[("es", 0)] == "Pastor de Gatstaf"  # Portuguese and Spanish coincide
    assert names[("es", 1)] == "Aullador de Gatstaf"
    assert names[("it", 0)] == "Pastore di Gatstaf"
    assert names[("ru", 1)] == "Гастафский Завыватель"
    assert names[("ja", 0)] == "ガツタフの羊飼い"
    assert {lang for lang, _ in names} == {"de", "es", "fr", "it", "ja", "ko", "pt-br", "ru", "zh-hans", "zh-hant"}
    # the folded key is what look-ups compare: case and accents ignored, Cyrillic kept
    row = card.localized_names.get(language="ru", position=1)
    assert row.search_name == normalize_name("ГАСТАФСКИЙ завыватель") == "гастафскии завыватель"


def test_reimporting_changes_nothing():
    before = LocalizedName.objects.count()
    summary = import_card_file(BUNDLED_DATA_DIR / "mtgjson" / "ISD.json.gz")
    assert summary.localized_names == 0
    assert summary.as_dict()["localized_names_added"] == 0
    assert LocalizedName.objects.count() == before


@pytest.mark.parametrize(
    "query",
    [
        "Pastor de Gatstaf",  # Portuguese and Spanish
        "Uivador de Gatstaf",  # Portuguese back face
        "Aullador de Gatstaf",  # Spanish back face
        "Pastore di Gatstaf",  # Italian
        "Гастафский Завыватель",  # Russian back face
        "ГАСТАФСКИЙ ПАСТУХ",  # case ignored in Cyrillic
        "pastore  di   GATSTAF",
        "Pastor de Gatstaf // Uivador de Gatstaf",  # the full printed name
    ],
)
def test_lookup_finds_a_card_by_any_printed_name(api_client, query):
    response = api_client.get("/api/cards/", {"q": query})
    assert response.status_code == 200
    assert [card["name"] for card in response.json()["results"]][:1] == [GATSTAF]
    assert selectors.find_card(query).name == GATSTAF


def test_accents_are_ignored_in_printed_names(api_client):
    # "Aberração Insetídea": the Portuguese back face of Delver of Secrets
    for query in ("Aberração Insetídea", "aberracao insetidea", "ABERRAÇÃO INSETÍDEA"):
        results = api_client.get("/api/cards/", {"q": query}).json()["results"]
        assert results[0]["name"] == "Delver of Secrets // Insectile Aberration"


def test_the_response_gives_the_name_in_the_readers_language(api_client):
    body = api_client.get("/api/cards/", {"q": "Pastor de Gatstaf"}, HTTP_ACCEPT_LANGUAGE="ru").json()
    card = body["results"][0]
    assert card["local_name"] == "Гастафский Пастух // Гастафский Завыватель"
    assert card["printed_names"]["pt-br"] == ["Pastor de Gatstaf", "Uivador de Gatstaf"]
    english = api_client.get("/api/cards/", {"q": "Pastor de Gatstaf"}).json()["results"][0]
    assert english["local_name"] is None


@pytest.mark.parametrize(
    "query, language, expected_first",
    [
        ("Uivador de Gatstf", "pt-br", "Uivador de Gatstaf"),
        ("Гастафский Завыватль", "ru", "Гастафский Завыватель"),
        ("Pastore di Gatstf", "it", "Pastore di Gatstaf"),
    ],
)
def test_suggestions_come_in_the_language_of_the_query(api_client, query, language, expected_first):
    body = api_client.get("/api/cards/", {"q": query}).json()
    assert body["results"] == []
    suggestions = body["suggestions"]
    assert suggestions[0] == expected_first
    site_printed = set(LocalizedName.objects.filter(language=language).values_list("name", flat=True))
    assert set(suggestions) <= site_printed  # no English or other-language names mixed in


def test_a_misspelt_english_name_gets_english_suggestions_only(api_client):
    suggestions = api_client.get("/api/cards/", {"q": "Gatstaf Sheperd"}).json()["suggestions"]
    assert suggestions[0] == "Gatstaf Shepherd"
    assert not set(suggestions) & set(LocalizedName.objects.values_list("name", flat=True))


def test_card_search_page_shows_the_printed_name_beside_the_english_one(client):
    html = client.get("/cards/", {"q": "Pastore di Gatstaf"}, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert GATSTAF in html
    assert "Pastore di Gatstaf // Ululatore di Gatstaf" in html


def test_card_page_lists_every_printed_name(client):
    card = Card.objects.get(name=GATSTAF)
    html = client.get(f"/cards/{card.pk}/", HTTP_ACCEPT_LANGUAGE="pt-br").content.decode()
    assert "Nomes impressos" in html
    assert "Гастафский Пастух // Гастафский Завыватель" in html
    assert "Pastor de Gatstaf // Uivador de Gatstaf" in html


def test_rules_desk_finds_a_card_by_its_printed_name(client):
    html = client.get("/rules/", {"card": "Гастафский Пастух", "zone": "hand"}).content.decode()
    assert GATSTAF in html


def test_a_printed_name_shared_by_two_cards_is_ambiguous_not_guessed():
    # Portuguese "Aristocrata Indulgente" is Indulging Patrician (M21) and Indulgent Aristocrat (SOI)
    import_card_file(BUNDLED_DATA_DIR / "mtgjson" / "M21.json.gz")
    import_card_file(BUNDLED_DATA_DIR / "mtgjson" / "SOI.json.gz")
    match = selectors.match_names(["Aristocrata Indulgente"])["Aristocrata Indulgente"]
    assert match.card is None and match.ambiguous
    assert sorted(c.name for c in match.candidates) == ["Indulgent Aristocrat", "Indulging Patrician"]
    assert selectors.find_card("Aristocrata Indulgente") is None
    # the English names still name each card
    assert selectors.find_card("Indulgent Aristocrat").name == "Indulgent Aristocrat"
