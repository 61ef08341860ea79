"""A player registering through the API goes through the join link's service, as the join
page does: capacity, deadline and waitlist hold; no API path registers a player past capacity
(issue 28). The race: the last place taken twice at once through the API gives one
registration and one waitlist place."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import services
from accounts.models import WaitlistEntry
from events.models import Registration
from tests.drafts.services.test_races import race
from tests.factories import UserFactory

NOW = dt.datetime(2026, 12, 5, 10, 0, tzinfo=dt.UTC)


def api_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def register(user, event):
    return api_for(user).post(f"/api/events/{event.pk}/registrations/", {}, format="json")


def code(answer) -> str:
    return answer.json()["errors"][0]["code"]


@pytest.mark.django_db
def test_api_self_registration_keeps_the_links_capacity_and_waitlist(event, organiser):
    services.open_registration(event_id=event.pk, actor=organiser, now=timezone.now(), capacity=1, waitlist=True)
    a, b = UserFactory(username="a"), UserFactory(username="b")
    first = register(a, event)
    assert first.status_code == 201 and first.json()["user"] == a.pk
    second = register(b, event)
    assert second.status_code == 202 and second.json() == {"status": "waitlisted", "waitlist_position": 1}
    assert Registration.objects.filter(event=event).count() == 1
    assert register(a, event).status_code == 409 and code(register(a, event)) == "already_registered"
    assert code(register(b, event)) == "already_waitlisted"
    assert WaitlistEntry.objects.filter(event=event).count() == 1


@pytest.mark.django_db
def test_api_self_registration_is_refused_when_full_closed_or_late(event, organiser):
    services.open_registration(event_id=event.pk, actor=organiser, now=timezone.now(), capacity=1)
    assert register(UserFactory(username="a"), event).status_code == 201
    full = register(UserFactory(username="b"), event)
    assert full.status_code == 409 and code(full) == "registration_full"
    services.open_registration(
        event_id=event.pk, actor=organiser, now=timezone.now(), deadline=timezone.now() - dt.timedelta(minutes=1)
    )
    late = register(UserFactory(username="c"), event)
    assert late.status_code == 409 and code(late) == "registration_closed"
    services.open_registration(event_id=event.pk, actor=organiser, now=timezone.now())
    services.close_registration(event_id=event.pk, actor=organiser, now=timezone.now())
    closed = register(UserFactory(username="d"), event)
    assert closed.status_code == 409 and code(closed) == "registration_closed"
    assert list(Registration.objects.filter(event=event).values_list("user__username", flat=True)) == ["a"]


@pytest.mark.django_db
def test_api_self_registration_without_a_join_link_is_as_before(event):
    player = UserFactory(username="solo")
    assert register(player, event).status_code == 201
    again = register(player, event)
    assert again.status_code == 409 and code(again) == "already_registered"


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.parametrize("attempt", range(2))
def test_the_last_place_taken_twice_at_once_through_the_api(event, organiser, attempt):
    services.open_registration(event_id=event.pk, actor=organiser, now=NOW, capacity=2, waitlist=True)
    services.join_event(token=event.join_link.token, user=UserFactory(username="first"), now=NOW)
    a, b = UserFactory(username="a"), UserFactory(username="b")
    answers = race(lambda: register(a, event), lambda: register(b, event))
    assert sorted(answer.status_code for answer in answers) == [201, 202]
    assert Registration.objects.filter(event=event).count() == 2
    assert WaitlistEntry.objects.filter(event=event).count() == 1
