"""What the browser deck builder gets with the page (its script is tested in Chromium:
tests/e2e/test_deck_builder.py): each pool card's front face (R2, R36), the reader's name,
and the same form inputs the no-script list posts."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from cards.models import Card
from tests.decks.api.test_registration import POOL, draft_pile
from tests.decks.conftest import make_event

pytestmark = pytest.mark.django_db


def page(users, language="en"):
    event, regs = make_event(users, deck_format="limited")
    draft_pile(event, regs["alice"])
    client = Client()
    client.force_login(users["alice"])
    return event, client.get(f"/decks/events/{event.pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()


def builder_json(html: str) -> dict:
    match = re.search(r'<script id="deck-builder-data" type="application/json">(.*?)</script>', html, re.S)
    assert match, "no builder data on the page"
    return json.loads(match.group(1))


def test_the_page_carries_every_pool_card_with_its_front_face(catalogue, users):
    event, html = page(users)
    data = builder_json(html)
    assert 'src="/static/js/deckbuilder.js"' in html
    cards = {c["name"]: c for c in data["cards"]}
    assert sum(c["count"] for c in data["cards"]) == sum(POOL.values())
    delver = cards["Delver of Secrets // Insectile Aberration"]
    assert (delver["cost"], delver["mv"], delver["colors"], delver["dfc"]) == ("{U}", 1, "U", True)
    assert delver["back"] == "Insectile Aberration" and not delver["land"]
    heron = cards["Moon Heron"]
    assert heron["mv"] == 4 and heron["type"].startswith("Creature") and heron["main"] == 0
    for c in data["cards"]:  # the builder sets the form's own inputs
        assert f'name="main-{c["id"]}"' in html
    assert [b["name"] for b in data["basics"]] == ["Plains", "Island", "Swamp", "Mountain", "Forest"]
    assert data["min"] == 40 and data["validate"] == "/api/decks/validate"


def test_the_reader_gets_the_printed_name_in_their_language(catalogue, users):
    _event, html = page(users, "pt-br")
    data = builder_json(html)
    printed = {
        c.name: n
        for c in Card.objects.filter(name__in=[x["name"] for x in data["cards"]])
        for n in c.localized_names.filter(language="pt-br", position=0).values_list("name", flat=True)[:1]
    }
    assert printed  # the seed data prints ISD in Portuguese
    for card in data["cards"]:
        if card["name"] in printed:  # every face's printed name; the front's first
            assert card["local"].split(" // ")[0] == printed[card["name"]]
    assert all(card["local"] == "" for card in builder_json(page(users, "en")[1])["cards"])


def test_no_builder_once_the_list_is_locked(catalogue, users):
    import datetime as dt

    event, regs = make_event(users, deck_format="limited", deadline=dt.datetime(2000, 1, 1, tzinfo=dt.UTC))
    draft_pile(event, regs["alice"])
    client = Client()
    client.force_login(users["alice"])
    html = client.get(f"/decks/events/{event.pk}/").content.decode()
    assert "deck-builder-data" not in html and "deckbuilder.js" not in html
