"""Words, not codes, on the organiser's pages (issue 27): the deck-building control says
"Restart" while that clock already runs, and the no-script confirm step's buttons are in the
reader's language. The staff and settings logs' words are tested with the events app
(tests/events/views/test_words.py)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone

from drafts.models import PodState
from tests.drafts import conftest

pytestmark = pytest.mark.django_db


def client_for(user, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def test_the_deck_building_control_says_restart_while_the_clock_runs(organiser, players, cube_names):
    pod = conftest.make_pod(organiser, players, cube_names, pick_timer=False, now=timezone.now())
    # Straight to deck building with its clock running, as the engine leaves a finished draft.
    type(pod).objects.filter(pk=pod.pk).update(
        state=PodState.DECK_BUILDING, deck_building_deadline=timezone.now() + dt.timedelta(minutes=25)
    )
    client = client_for(organiser)
    text = client.get(f"/events/pods/{pod.pk}/").content.decode()
    assert "Restart deck-building clock now (25 min)" in text
    assert "Start deck-building clock now" not in text

    type(pod).objects.filter(pk=pod.pk).update(deck_building_deadline=None)
    text = client.get(f"/events/pods/{pod.pk}/").content.decode()
    assert "Start deck-building clock now (25 min)" in text
    assert "Restart" not in text


def test_the_confirm_pages_buttons_are_in_the_readers_language(organiser, players, cube_names):
    """The no-script confirm step: "Pick it" and the default "Confirm" were English literals."""
    from drafts.models import DraftCard, Pack, Seat

    pod = conftest.make_pod(organiser, players, cube_names, now=timezone.now())
    seat = Seat.objects.filter(pod=pod).order_by("position").first()
    pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
    card = DraftCard.objects.in_pack(pack).first()
    ask = client_for(players[0], "pt-br").post(f"/events/seats/{seat.pk}/pick/", {"card": card.pk, "pack": pack.pk})
    assert ask.status_code == 200
    assert ">Escolher esta<" in ask.content.decode() and ">Pick it<" not in ask.content.decode()
    ask = client_for(organiser, "pt-br").post(f"/events/pods/{pod.pk}/control/pause/")
    assert ask.status_code == 200 and ">Confirmar<" in ask.content.decode()
