"""Races of joining (threads, real transactions): the last place taken twice at once gives
one registration and one waitlist place; two drops at once move two different people up,
each exactly once."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model

from accounts import services
from accounts.models import WaitlistEntry
from events.models import Registration
from tests.drafts.services.test_races import race
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)
NOW = dt.datetime(2026, 12, 5, 10, 0, tzinfo=dt.UTC)


@pytest.mark.parametrize("attempt", range(3))
def test_the_last_place_taken_twice_at_once(event, organiser, attempt):
    link = services.open_registration(event_id=event.pk, actor=organiser, now=NOW, capacity=2, waitlist=True)
    services.join_event(token=link.token, user=UserFactory(username="first"), now=NOW)
    a, b = UserFactory(username="a"), UserFactory(username="b")
    results = race(
        lambda: services.join_event(token=link.token, user=a, now=NOW),
        lambda: services.join_event(token=link.token, user=b, now=NOW),
    )
    assert sorted(r.status for r in results) == ["registered", "waitlisted"]
    assert Registration.objects.filter(event=event).count() == 2
    assert WaitlistEntry.objects.filter(event=event).count() == 1


def test_two_drops_at_once_move_two_people_up_once_each(event, organiser):
    link = services.open_registration(event_id=event.pk, actor=organiser, now=NOW, capacity=2, waitlist=True)
    users = [UserFactory(username=f"u{i}") for i in range(5)]
    for i, user in enumerate(users):
        services.join_event(token=link.token, user=user, now=NOW + dt.timedelta(seconds=i))
    results = race(
        lambda: services.drop_registration(event_id=event.pk, user=users[0], now=NOW),
        lambda: services.drop_registration(event_id=event.pk, user=users[1], now=NOW),
    )
    assert results == [None, None]
    registered = set(Registration.objects.filter(event=event).values_list("user__username", flat=True))
    assert registered == {"u2", "u3"}
    assert list(WaitlistEntry.objects.filter(event=event).values_list("user__username", flat=True)) == ["u4"]
    assert get_user_model().objects.count() >= 5
