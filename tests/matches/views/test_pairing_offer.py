"""The organiser's dashboard offers "Pair next round" only while pairing would make a round:
not after the last Swiss round without a playoff, nor after the playoff's final (issue 46)."""

from __future__ import annotations

import pytest
from django.test import Client

from matches.models import Round

pytestmark = pytest.mark.django_db


def dashboard(world) -> str:
    client = Client()
    client.force_login(world.organiser)
    return client.get(f"/matches/events/{world.event.pk}/").content.decode()


def test_no_pairing_is_offered_after_the_last_swiss_round(world):
    world.configure(swiss_rounds=2)
    assert "pair-next" in dashboard(world)
    world.play_round(world.pair())
    assert "pair-next" in dashboard(world)  # round 2 of 2 is still to come
    world.play_round(world.pair())
    html = dashboard(world)
    assert "pair-next" not in html
    assert 'id="all-rounds-played"' in html and "Every round has been played." in html


def test_a_playoff_is_offered_until_its_final_is_played(world):
    world.configure(swiss_rounds=1, playoff_size=4)
    world.play_round(world.pair())
    assert "pair-next" in dashboard(world)  # the top 4
    world.play_round(world.pair())
    assert "pair-next" in dashboard(world)  # the final
    final = world.play_round(world.pair())
    assert final.matches.count() == 1 and Round.objects.filter(event=world.event).count() == 3
    assert "pair-next" not in dashboard(world)
