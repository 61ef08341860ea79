"""Registering players on an event's page (the events app's register page and service): a
failure reads as an error, and a second registration names whom it refuses."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import timezone

from events import services as event_services
from tests.shared_fixtures import make_pod

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def pod(organiser, players, cube_names):
    """A pod started now: pages enforce clocks against the real time."""
    return make_pod(organiser, players, cube_names, now=timezone.now())


def test_a_failed_player_registration_reads_as_an_error_not_a_success(pod, organiser):
    from pathlib import Path

    client = client_for(organiser)
    response = client.post(f"/events/{pod.event_id}/register/", {"username": "nobody-here"}, follow=True)
    html = response.content.decode()
    item = re.search(r'<li class="message ([^"]*)" role="([^"]*)">([^<]*)</li>', html)
    assert item and "nobody-here" in item.group(3)
    assert item.group(1).split() == ["error"] and item.group(2) == "alert"
    css = (Path(__file__).resolve().parents[3] / "static" / "site.css").read_text()
    assert re.search(r"\.message\.error\s*\{[^}]*background", css)
    ok = client.post(f"/events/{pod.event_id}/register/", {"name": "Gwen Guest"}, follow=True).content.decode()
    assert re.search(r'<li class="message success" role="status">Gwen Guest is registered', ok)


@pytest.mark.django_db
def test_registering_someone_else_twice_names_them_not_you(organiser, players, cube_names):
    import datetime as dt

    from drafts import services
    from draftsite.errors import ConflictError

    event = services.create_event(
        name="FNM", date=dt.date(2026, 12, 4), created_by=organiser, draft_format="cube", cube_list=cube_names
    )
    event_services.register_player(event_id=event.pk, user=players[1], actor=organiser)
    with pytest.raises(ConflictError) as refused:
        event_services.register_player(event_id=event.pk, user=players[1], actor=organiser)
    assert refused.value.message == f"{players[1].username} is already registered for this event."
    with pytest.raises(ConflictError) as own:
        event_services.register_player(event_id=event.pk, user=players[1], actor=players[1])
    assert own.value.message == "You are already registered for this event."
