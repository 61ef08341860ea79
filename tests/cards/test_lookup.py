"""Look-up by any face name or the full name, accents and case ignored, with suggestions."""

import pytest

from cards import selectors
from cards.name_folding import normalize_name
from tests.factories import PrintingFactory, make_card

pytestmark = pytest.mark.django_db


@pytest.fixture
def catalogue(empty_catalogue):
    """A handful of made-up rows with real names, on an empty catalogue (exact rankings)."""
    return {
        "gatstaf": make_card("Gatstaf Shepherd // Gatstaf Howler", layout="transform"),
        "sejiri": make_card("Sejiri Shelter // Sejiri Glacier", layout="modal_dfc"),
        "refuge": make_card("Sejiri Refuge"),
        "vault": make_card("Lim-Dûl's Vault"),
        "akki": make_card("Akki Lavarunner // Tok-Tok, Volcano Born", layout="flip"),
    }


@pytest.mark.parametrize(
    "raw, folded",
    [
        ("Lim-Dûl's Vault", "lim duls vault"),
        ("LIM-DUL’S VAULT", "lim duls vault"),
        ("  Gatstaf   Howler ", "gatstaf howler"),
        ("Ætherize", "aetherize"),
        ("Tok-Tok, Volcano Born", "tok tok volcano born"),
        ("Fire // Ice", "fire // ice"),
    ],
)
def test_names_fold_to_one_key(raw, folded):
    assert normalize_name(raw) == folded


@pytest.mark.parametrize(
    "query, expected",
    [
        ("Gatstaf Howler", "gatstaf"),  # back face name
        ("gatstaf shepherd", "gatstaf"),  # front face, lower case
        ("Gatstaf Shepherd // Gatstaf Howler", "gatstaf"),
        ("Sejiri Glacier", "sejiri"),
        ("sejiri refuge", "refuge"),  # a different, single-faced card
        ("lim-dul's vault", "vault"),  # accent-insensitive
        ("LIM DÛL’S VAULT", "vault"),
        ("tok-tok, volcano born", "akki"),  # flip card's second half
    ],
)
def test_find_card_by_any_name(catalogue, query, expected):
    assert selectors.find_card(query) == catalogue[expected]


def test_find_card_by_id_and_unknown(catalogue):
    assert selectors.find_card(str(catalogue["sejiri"].pk)) == catalogue["sejiri"]
    assert selectors.find_card("No Such Card") is None
    assert selectors.find_card("") is None


def test_suggestions_for_misspellings(catalogue):
    assert selectors.suggest_names("Gatstaf Sheperd")[0] == "Gatstaf Shepherd"
    assert "Sejiri Glacier" in selectors.suggest_names("Sejiri Glaicer")
    assert selectors.suggest_names("zzzzzz qqqq") == []


def test_suggestion_index_sees_new_cards(catalogue):
    assert "Delver of Secrets" not in selectors.suggest_names("Delver of Secret")
    make_card("Delver of Secrets // Insectile Aberration", layout="transform")
    assert "Delver of Secrets" in selectors.suggest_names("Delver of Secret")


def test_search_ranks_exact_then_prefix(catalogue):
    names = [c.name for c in selectors.search_cards("sejiri")]
    assert names == ["Sejiri Refuge", "Sejiri Shelter // Sejiri Glacier"]
    names = [c.name for c in selectors.search_cards("Sejiri Refuge")]
    assert names == ["Sejiri Refuge"]


def test_api_search_by_face_name(api_client, catalogue):
    response = api_client.get("/api/cards/", {"q": "gatstaf howler"})
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 1 and body["suggestions"] == []
    result = body["results"][0]
    assert result["name"] == "Gatstaf Shepherd // Gatstaf Howler"
    assert result["faces"] == ["Gatstaf Shepherd", "Gatstaf Howler"]
    assert result["is_dfc"] is True


def test_api_search_miss_gives_suggestions(api_client, catalogue):
    body = api_client.get("/api/cards/", {"q": "Gatstaf Sheperd"}).json()
    assert body["count"] == 0 and body["results"] == []
    assert "Gatstaf Shepherd" in body["suggestions"]


def test_api_filters_by_layout_and_set(api_client, catalogue):
    PrintingFactory(card=catalogue["sejiri"], card_set__code="ZNR")
    body = api_client.get("/api/cards/", {"layout": "modal_dfc"}).json()
    assert [r["name"] for r in body["results"]] == ["Sejiri Shelter // Sejiri Glacier"]
    body = api_client.get("/api/cards/", {"set": "znr"}).json()
    assert [r["name"] for r in body["results"]] == ["Sejiri Shelter // Sejiri Glacier"]


def test_api_card_detail_has_faces_printings_identity(api_client, catalogue):
    card = catalogue["gatstaf"]
    card.color_identity = "G"
    card.save()
    PrintingFactory(card=card, card_set__code="ISD", collector_number="182", rarity="uncommon")
    body = api_client.get(f"/api/cards/{card.pk}/").json()
    assert body["name"] == "Gatstaf Shepherd // Gatstaf Howler"
    assert [f["name"] for f in body["faces"]] == ["Gatstaf Shepherd", "Gatstaf Howler"]
    assert body["color_identity"] == ["G"]
    assert body["printings"][0]["set_code"] == "ISD"
    assert body["printings"][0]["collector_number"] == "182"


def test_search_page_shows_results_and_suggestions(client, catalogue):
    page = client.get("/cards/", {"q": "Howler"})
    assert page.status_code == 200 and b"Gatstaf Shepherd // Gatstaf Howler" in page.content
    page = client.get("/cards/", {"q": "Gatstaf Sheperd"})
    assert b"Did you mean" in page.content and b"Gatstaf Shepherd" in page.content


def test_card_page_shows_both_faces_side_by_side(client, catalogue):
    page = client.get(f"/cards/{catalogue['gatstaf'].pk}/")
    assert page.status_code == 200
    assert page.content.count(b'class="face"') == 2
    assert b"Front face" in page.content and b"Back face" in page.content
    flip = client.get(f"/cards/{catalogue['akki'].pk}/")
    assert b"Upright half" in flip.content and b"Flipped half" in flip.content


def test_card_page_404_is_friendly(client):
    response = client.get("/cards/987654/")
    assert response.status_code == 404


def test_real_seed_cards_by_any_face(api_client):
    """The bundled catalogue: a DFC back face, an MDFC back face and a flip card's other half."""
    for query, full in [
        ("gatstaf howler", "Gatstaf Shepherd // Gatstaf Howler"),
        ("Sejiri Glacier", "Sejiri Shelter // Sejiri Glacier"),
        ("TOK-TOK, VOLCANO BORN", "Akki Lavarunner // Tok-Tok, Volcano Born"),
        ("experiment twelve", "Experiment Twelve"),
    ]:
        card = selectors.find_card(query)
        assert card is not None and card.name == full, query
    body = api_client.get(f"/api/cards/{selectors.find_card('Gatstaf Howler').pk}/").json()
    assert body["layout"] == "transform" and body["color_identity"] == ["G"]
    assert [f["name"] for f in body["faces"]] == ["Gatstaf Shepherd", "Gatstaf Howler"]
    assert any(c["name"] == "Innistrad Checklist" for c in body["checklists"])
