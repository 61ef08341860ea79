"""The confirmations a penalty's player reads after a form, in the reader's language (issue 46:
the appeal's came in English on every translated page)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "accept, expected",
    [
        ("en", "Your appeal has gone to the head judge."),
        ("pt-br", "Seu recurso foi enviado ao juiz principal."),
        ("es", "Tu apelación ha pasado al juez principal."),
        ("it", "Il tuo appello è passato al capo arbitro."),
        ("ru", "Ваша апелляция передана главному судье."),
    ],
)
def test_the_appeal_confirmation_is_in_the_players_language(world, client, accept, expected):
    penalty = world.issue("tardiness")
    client.force_login(world.player)
    response = client.post(
        f"/penalties/{penalty.pk}/appeal/", {"statement": "Unfair."}, HTTP_ACCEPT_LANGUAGE=accept, follow=True
    )
    assert response.status_code == 200
    assert expected in response.content.decode()


def test_the_statement_confirmation_is_in_the_players_language(world, client):
    penalty = world.issue("tardiness")
    client.force_login(world.player)
    response = client.post(
        f"/penalties/{penalty.pk}/statement/", {"statement": "I was late."}, HTTP_ACCEPT_LANGUAGE="ru", follow=True
    )
    assert response.status_code == 200
    assert "Заявление сохранено." in response.content.decode()
