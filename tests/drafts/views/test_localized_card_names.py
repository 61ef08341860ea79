"""Draft pages show each card in the player's language, English name beside it (issue 16)."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from cards.models import Card
from drafts.cardinfo import card_info as _card_info
from drafts.views.common import present_card

pytestmark = pytest.mark.django_db
GATSTAF = "Gatstaf Shepherd // Gatstaf Howler"


def payload(language: str) -> dict:
    card = Card.objects.get(name=GATSTAF)
    info = _card_info({card.pk})[card.pk]
    with translation.override(language):
        return present_card({"id": 1, **info, "rarity": "uncommon", "foil": False, "image_uris": {}})


def test_the_card_payload_carries_the_printed_names_of_the_site_languages():
    card = Card.objects.get(name=GATSTAF)
    info = _card_info({card.pk})[card.pk]
    assert info["printed_names"]["pt-br"] == ["Pastor de Gatstaf", "Uivador de Gatstaf"]
    assert info["printed_names"]["ru"] == ["Гастафский Пастух", "Гастафский Завыватель"]
    assert set(info["printed_names"]) == {"pt-br", "es", "it", "ru"}  # the site's languages only


@pytest.mark.parametrize(
    "language, front, back",
    [
        ("pt-br", "Pastor de Gatstaf", "Uivador de Gatstaf"),
        ("it", "Pastore di Gatstaf", "Ululatore di Gatstaf"),
        ("ru", "Гастафский Пастух", "Гастафский Завыватель"),
    ],
)
def test_a_card_in_a_pack_shows_the_players_printed_name_and_the_english_one(language, front, back):
    card = payload(language)
    assert card["local_name"] == f"{front} // {back}"
    with translation.override(language):
        html = render_to_string("drafts/_card.html", {"card": card, "LANGUAGE_CODE": language})
    assert front in html and back in html
    assert "Gatstaf Shepherd" in html and "Gatstaf Howler" in html  # English always reachable


def test_english_readers_see_english_names_only():
    card = payload("en")
    assert card["local_name"] == ""
    html = render_to_string("drafts/_card.html", {"card": card})
    assert "Pastor de Gatstaf" not in html and "Gatstaf Shepherd" in html


def test_the_open_information_table_shows_both_names():
    card = payload("es")
    with translation.override("es"):
        html = render_to_string("drafts/_dfc_chip.html", {"card": card, "LANGUAGE_CODE": "es"})
    assert "Gatstaf Shepherd" in html and "Gatstaf Howler" in html
    assert "(Pastor de Gatstaf // Aullador de Gatstaf)" in html
