"""A deck's problems in the reader's language (issue 46): the player who saves a list reads its
stored problems translated, and the judges' list names each problem in words, never by code."""

from __future__ import annotations

import pytest

from decks.templatetags.deck_tags import _PROBLEM_LABELS
from decks.validation import codes
from tests.decks.conftest import login, make_event, read_fixture

pytestmark = pytest.mark.django_db


def test_a_pt_br_player_reads_the_saved_lists_problems_in_portuguese(catalogue, users):
    event, _ = make_event(users, deck_format="constructed")
    player = login(users["alice"])
    saved = player.post(
        f"/decks/events/{event.pk}/",
        {"decklist": read_fixture("delver_isd.txt"), "action": "save"},
        HTTP_ACCEPT_LANGUAGE="pt-br",
        follow=True,
    )
    html = saved.content.decode()
    assert "Deck principal: 4 de 4 Delver of Secrets" in html and "sem carta de checklist" in html
    assert "not represented by a checklist card" not in html
    judges = login(users["judge"]).get(f"/decks/events/{event.pk}/judge/", HTTP_ACCEPT_LANGUAGE="pt-br")
    page = judges.content.decode()
    assert "Carta de dupla face precisa de protetores opacos ou de uma carta de checklist" in page
    assert ">dfc_needs_sleeves_or_checklist<" not in page


def test_every_problem_code_has_words():
    every_code = {value for name, value in vars(codes).items() if name.isupper() and isinstance(value, str)}
    assert every_code == set(_PROBLEM_LABELS)
