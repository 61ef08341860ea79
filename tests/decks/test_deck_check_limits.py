"""A deck check's description, card list and notes past their limits are refused on the page
as on the API, never cut (issue 46 item 13: the judge-call reason's class, other inputs)."""

from __future__ import annotations

import pytest
from django.test import Client

from decks import findings, services
from decks.models import Deck, DeckCheck
from tests.decks.conftest import client_for, make_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def deck(catalogue, users):
    event, regs = make_event(users, deck_format="constructed")
    services.register_deck(event_id=event.pk, actor=users["alice"], main=[{"name": "Island", "count": 60}])
    return Deck.objects.get(registration=regs["alice"])


@pytest.mark.parametrize(
    "fields, words",
    [
        ({"description-other": "d" * (findings.MAX_DESCRIPTION + 1)}, "description has at most 2000 characters"),
        ({"cards-other": ";".join(f"Card {i}" for i in range(findings.MAX_CARDS + 1))}, "names at most 100 cards"),
        ({"notes": "n" * (findings.MAX_NOTES + 1)}, "notes have at most 4000 characters"),
    ],
)
def test_the_page_refuses_what_it_used_to_cut(deck, users, fields, words):
    client = Client()
    client.force_login(users["judge"])
    post = {"finding-other": "1", "description-other": "Something odd", **fields}
    response = client.post(f"/decks/{deck.pk}/check/", post)
    assert response.status_code == 400
    assert words in response.content.decode()
    assert not DeckCheck.objects.exists()


def test_at_the_limits_everything_is_kept_whole(deck, users):
    client = Client()
    client.force_login(users["judge"])
    cards = [f"Card {i}" for i in range(findings.MAX_CARDS)]
    post = {
        "finding-other": "1",
        "description-other": "d" * findings.MAX_DESCRIPTION,
        "cards-other": ";".join(cards),
        "notes": "n" * findings.MAX_NOTES,
    }
    assert client.post(f"/decks/{deck.pk}/check/", post).status_code == 302
    check = DeckCheck.objects.get()
    assert check.findings[0]["description"] == "d" * findings.MAX_DESCRIPTION
    assert check.findings[0]["cards"] == cards and check.notes == "n" * findings.MAX_NOTES


def test_the_api_refuses_the_same(deck, users):
    response = client_for(users["judge"]).post(
        f"/api/decks/{deck.pk}/checks/",
        {"findings": [{"kind": "other", "description": "d" * (findings.MAX_DESCRIPTION + 1)}]},
        format="json",
    )
    assert response.status_code == 400
    assert not DeckCheck.objects.exists()
