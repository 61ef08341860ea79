from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import Group

from events import roles
from events.access import SYSTEM
from events.services import register_player
from sealed import services
from tests.factories import UserFactory

NOW = dt.datetime(2026, 12, 6, 10, 0, tzinfo=dt.UTC)


@pytest.fixture
def organiser(db):
    user = UserFactory(username="sealed-org")
    user.groups.add(Group.objects.get_or_create(name=roles.ORGANISER)[0])
    return user


@pytest.fixture
def players(db):
    return [UserFactory(username=f"sp{i}") for i in range(8)]


def make_event(organiser, players, *, paper=False, boosters=("DSK",), count=6, seed=1234):
    event = services.create_sealed_event(
        actor=organiser,
        name="Prerelease",
        date=dt.date(2026, 12, 6),
        boosters=list(boosters),
        booster_count=count,
        paper=paper,
        seed=seed,
    )
    registrations = [register_player(event_id=event.pk, actor=SYSTEM, user=p, name=p.username) for p in players]
    return event, registrations
