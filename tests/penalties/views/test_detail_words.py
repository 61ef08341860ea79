"""A penalty's page says what is true about review and appeal, names the REL and decisions in
words, and writes every date of the page in one format of the reader's language (issue 27)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from penalties import services
from tests.penalties.conftest import minutes

pytestmark = pytest.mark.django_db


def page(user, pk: int, language: str = "en") -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    response = client.get(f"/penalties/{pk}/")
    assert response.status_code == 200
    return response.content.decode()


def reviewed(world):
    penalty = world.issue("slow_play", penalty="game_loss", deviation_reason="Repeated", now=minutes(1))
    services.review_penalty(
        penalty_id=penalty.pk,
        actor=world.head_judge,
        decision="downgrade",
        penalty="warning",
        reason="Fair",
        now=minutes(2),
    )
    return penalty


def test_a_reviewed_penalty_the_player_may_still_appeal_is_not_called_final(world):
    penalty = reviewed(world)
    html = page(world.player, penalty.pk)
    assert "this decision is final. You may still appeal it below" not in html
    assert "You may appeal this decision once, below; the decision on the appeal is final." in html
    assert "The player may still appeal once" in page(world.judge, penalty.pk)

    services.appeal_penalty(penalty_id=penalty.pk, actor=world.player, statement="I was not slow", now=minutes(3))
    assert "The player's appeal awaits the head judge's decision." in page(world.player, penalty.pk)
    services.decide_appeal(
        penalty_id=penalty.pk, actor=world.head_judge2, decision="uphold", reason="Still slow", now=minutes(4)
    )
    html = page(world.player, penalty.pk)
    assert "and the appeal is decided: this decision is final." in html
    assert "Competitive REL" in html and "competitive" not in html.replace("Competitive", "")
    # The statement form's field has a label in the reader's language (its default was English).
    assert ">Declaração <" in page(world.player, penalty.pk, "pt-br")


# pt_BR's DATE_FORMAT and DATETIME_FORMAT: "29 de Novembro de 2026" and "... às 15:00".
PT_BR_DATE = re.compile(r"^\d{1,2} de [A-Za-zç]+ de \d{4}( às \d{2}:\d{2})?$")


def test_every_date_of_a_penalty_page_has_one_format_in_pt_br(world):
    penalty = reviewed(world)
    html = page(world.judge, penalty.pk, "pt-br")
    times = re.findall(r"<time datetime=\"[^\"]+\">([^<]+)</time>", html)
    assert len(times) >= 4  # issued, last decision, and the history's rows
    assert [t for t in times if not PT_BR_DATE.match(t)] == []
    # The event's date reads the same way, and no other date form is left on the page.
    assert "(29 de Novembro de 2026)" in html
    assert not re.search(r"\b\d{1,2}/\d{1,2}/\d{2,4}\b|\b\d{1,2} (Nov|nov)\.? 2026\b", html)
