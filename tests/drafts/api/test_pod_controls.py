"""The pod controls the pod page had and the API lacked: extend clocks, the deck-building clock,
start deck building, a new spectator link. Same services, same refusals as the page."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from drafts.models import Pack, Pod, PodLogEntry, Seat
from events.models import Event, StaffRole
from tests.drafts import conftest
from tests.factories import EventFactory, EventStaffFactory, UserFactory

pytestmark = pytest.mark.django_db


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def live_pod(organiser, players, cube_names):
    """A pod started now: API calls enforce clocks against the real time."""
    return conftest.make_pod(organiser, players, cube_names, now=timezone.now())


def code(response) -> str:
    return response.json()["errors"][0]["code"]


def test_organiser_extends_every_running_pick_timer(organiser, live_pod):
    before = {p.pk: p.deadline for p in Pack.objects.filter(pod=live_pod, holder__isnull=False)}
    response = client_for(organiser).post(f"/api/pods/{live_pod.pk}/extend/", {"seconds": 30}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["id"] == live_pod.pk and response.json()["state"] == "drafting"
    after = {p.pk: p.deadline for p in Pack.objects.filter(pod=live_pod, holder__isnull=False)}
    assert all(after[pk] - before[pk] == dt.timedelta(seconds=30) for pk in before)
    assert PodLogEntry.objects.filter(pod=live_pod, action="extend_clocks", actor=organiser).exists()


def test_extend_one_seat_and_refusals(organiser, players, live_pod, cube_names):
    api = client_for(organiser)
    seat = Seat.objects.get(pod=live_pod, position=3)
    response = api.post(f"/api/pods/{live_pod.pk}/extend/", {"seconds": 15, "seat": seat.pk}, format="json")
    assert response.status_code == 200
    assert code(api.post(f"/api/pods/{live_pod.pk}/extend/", {"seconds": 0}, format="json")) == "invalid_timer"
    other = conftest.make_pod(organiser, players, cube_names, now=timezone.now(), start=False, seed=9)
    foreign_seat = Seat.objects.filter(pod=other).first()
    refused = api.post(f"/api/pods/{live_pod.pk}/extend/", {"seconds": 15, "seat": foreign_seat.pk}, format="json")
    assert refused.status_code == 404 and code(refused) == "unknown_seat"
    missing = api.post("/api/pods/999999/extend/", {"seconds": 15}, format="json")
    assert missing.status_code == 404 and code(missing) == "unknown_pod"


@pytest.mark.parametrize(
    "path, body",
    [
        ("extend", {"seconds": 30}),
        ("deck-building-clock", {"minutes": 30}),
        ("start-deck-building", {}),
        ("spectator-link", {}),
    ],
)
def test_only_an_organiser_of_the_event_may_use_the_controls(players, live_pod, path, body):
    judge = EventStaffFactory(event=live_pod.event, role=StaffRole.JUDGE).user
    stranger_organiser = EventStaffFactory(event=EventFactory(), role=StaffRole.ORGANISER).user
    token = live_pod.spectator_token
    for user in (players[0], judge, stranger_organiser):
        # The role before the body: an empty or broken body is still a 403.
        for sent in (body, {"seconds": "x", "minutes": "x"}):
            response = client_for(user).post(f"/api/pods/{live_pod.pk}/{path}/", sent, format="json")
            assert response.status_code == 403 and code(response) == "not_event_staff", (user, path)
    assert client_for(UserFactory()).post(f"/api/pods/{live_pod.pk}/{path}/", body, format="json").status_code == 403
    assert APIClient().post(f"/api/pods/{live_pod.pk}/{path}/", body, format="json").status_code in (401, 403)
    assert Pod.objects.get(pk=live_pod.pk).spectator_token == token


def test_deck_building_clock_before_deck_building_sets_the_event_minutes(organiser, live_pod):
    api = client_for(organiser)
    response = api.post(f"/api/pods/{live_pod.pk}/deck-building-clock/", {"minutes": 35}, format="json")
    assert response.status_code == 200
    assert Event.objects.get(pk=live_pod.event_id).deck_building_minutes == 35
    bad = api.post(f"/api/pods/{live_pod.pk}/deck-building-clock/", {"minutes": 0}, format="json")
    assert bad.status_code == 400 and code(bad) == "invalid_timer"


def test_start_deck_building_mid_draft_is_refused(organiser, live_pod):
    response = client_for(organiser).post(f"/api/pods/{live_pod.pk}/start-deck-building/", {}, format="json")
    assert response.status_code == 409 and code(response) == "draft_not_over"


def test_a_new_spectator_link_revokes_the_old_one(organiser, live_pod):
    old = live_pod.spectator_token
    response = client_for(organiser).post(f"/api/pods/{live_pod.pk}/spectator-link/", {}, format="json")
    assert response.status_code == 200
    new = response.json()["spectator_token"]
    assert new != old and response.json()["url"].endswith(f"/events/watch/{new}/")
    assert Client().get(f"/events/watch/{old}/").status_code == 404
    assert Client().get(f"/events/watch/{new}/").status_code == 200
