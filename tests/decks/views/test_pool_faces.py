"""The limited builder lists each pool card with its mana cost, type line and colors (in words),
the front face's and the back's for a DFC, so a player can build without leaving the page."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from cards.models import Card
from drafts import cardinfo
from tests.decks.api.test_registration import draft_pile
from tests.decks.conftest import make_event

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_payloads():
    cardinfo.clear()
    yield
    cardinfo.clear()


def pool_row(html: str, card: Card) -> str:
    """The builder's table row of one pool card (the row holding its count input)."""
    row = rf'<tr class="pool-card">((?:(?!</tr>).)*id="main-{card.pk}"(?:(?!</tr>).)*)</tr>'
    match = re.search(row, html, re.S)
    assert match, f"no pool row for {card.name}"
    return match.group(1)


def cells(row: str) -> list[str]:
    return [
        re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", c)).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
    ]


def builder_page(users, language="en"):
    ev, regs = make_event(users, deck_format="limited")
    draft_pile(ev, regs["alice"])
    client = Client()
    client.force_login(users["alice"])
    response = client.get(f"/decks/events/{ev.pk}/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def test_the_builder_shows_cost_type_and_colors(catalogue, users):
    html = builder_page(users)
    assert '<th scope="col">Mana cost</th>' in html and '<th scope="col">Type line</th>' in html
    assert '<th scope="col">Colors</th>' in html

    heron = Card.objects.get(name="Moon Heron")
    face = heron.faces.get(position=0)
    name, mana, type_line, colors, count, _main = cells(pool_row(html, heron))
    assert name == "Moon Heron"
    assert mana == face.mana_cost == "{3}{U}"
    assert type_line == face.type_line and type_line.startswith("Creature")
    assert colors == "Blue"  # in words, not by color alone
    assert count == "1"


def test_a_dfc_shows_its_front_and_its_back(catalogue, users):
    html = builder_page(users)
    delver = Card.objects.get(name="Delver of Secrets // Insectile Aberration")
    front, back = delver.faces.get(position=0), delver.faces.get(position=1)
    name, mana, type_line, colors, _count, _main = cells(pool_row(html, delver))
    assert name.startswith("Delver of Secrets // Insectile Aberration") and "DFC" in name
    assert mana == f"Front face: {front.mana_cost}"  # the back has no mana cost of its own
    assert type_line == f"Front face: {front.type_line} Back face: {back.type_line}"
    assert colors == "Front face: Blue Back face: Blue"


def test_a_green_card_is_green_in_words(catalogue, users):
    html = builder_page(users)
    prep = Card.objects.get(name="Travel Preparations")
    _name, mana, _type, colors, _count, _main = cells(pool_row(html, prep))
    assert colors == "Green" and mana == prep.faces.get(position=0).mana_cost


def test_the_builder_speaks_the_readers_language(catalogue, users):
    html = builder_page(users, language="pt-br")
    heron = Card.objects.get(name="Moon Heron")
    _name, _mana, _type, colors, _count, _main = cells(pool_row(html, heron))
    assert colors == "Azul"
    assert "Custo de mana" in html and "Linha de tipo" in html
    delver = Card.objects.get(name="Delver of Secrets // Insectile Aberration")
    assert "Face de trás:" in cells(pool_row(html, delver))[2]
