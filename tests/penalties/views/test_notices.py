"""Penalty notices: the player's slip in the player's language whatever the judge used; the
head judge's copy in the language of record with the infraction code."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from penalties.notices import notice_language
from tests.penalties.conftest import World

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(db):
    return World()


def browser(user, accept: str = "en"):
    client = Client(HTTP_ACCEPT_LANGUAGE=accept)
    client.force_login(user)
    return client


def test_the_player_reads_the_notice_in_portuguese_whatever_the_judge_used(world):
    penalty = world.issue("slow_play")
    answer = browser(world.player, "pt-BR,pt;q=0.9").get(reverse("penalties:notice", args=[penalty.pk]))
    assert answer.status_code == 200 and answer["Content-Language"] == "pt-br"
    page = answer.content.decode()
    assert 'class="infraction">Jogo Lento<' in page
    assert "Como recorrer" in page
    assert 'class="ipg-section">3.3<' in page
    assert 'class="judge">judge<' in page
    assert "infraction-code" not in page


def test_the_head_judges_copy_is_in_the_language_of_record_with_the_code(world):
    penalty = world.issue("slow_play")
    answer = browser(world.head_judge, "ru").get(reverse("penalties:notice-record", args=[penalty.pk]))
    page = answer.content.decode()
    assert answer["Content-Language"] == "en"
    assert '<code class="infraction-code">slow_play</code>' in page and "Slow Play" in page


def test_players_get_neither_anothers_notice_nor_the_record_copy(world):
    penalty = world.issue("slow_play")
    assert browser(world.other_player).get(reverse("penalties:notice", args=[penalty.pk])).status_code == 403
    assert browser(world.player).get(reverse("penalties:notice-record", args=[penalty.pk])).status_code == 403


def test_the_language_choice_prefers_a_profile_language_then_the_browser(world, rf):
    request = rf.get("/", HTTP_ACCEPT_LANGUAGE="es")
    assert notice_language(request, world.player) == "es"

    from accounts.models import Profile

    profile = Profile.objects.create(user=world.player, language="it")
    world.player.refresh_from_db()
    assert notice_language(request, world.player) == "it"  # the account's own language first
    Profile.objects.filter(pk=profile.pk).update(language="klingon")
    world.player.refresh_from_db()
    assert notice_language(request, world.player) == "es"  # not a site language: the browser's
