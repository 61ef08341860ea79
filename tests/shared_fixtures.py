"""Fixtures and helpers shared by the draft engine's tests (tests/drafts) and the events app's
(tests/events): an organiser, eight players, a cube of made-up cards (fast, fully controlled) and
an 8-seat cube pod. Each folder's conftest imports the fixtures it offers; other tests import
them from here or, as before, through tests/drafts/conftest.py."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import Group

from cards.models import Card, CardFace
from cards.name_folding import normalize_name
from drafts import services
from events import roles
from events import services as event_services
from events.access import SYSTEM
from tests.factories import UserFactory

T0 = dt.datetime(2026, 11, 29, 15, 0, tzinfo=dt.UTC)


def seconds(n: float) -> dt.timedelta:
    return dt.timedelta(seconds=n)


@pytest.fixture
def organiser(db):
    user = UserFactory(username="org")
    user.groups.add(Group.objects.get_or_create(name=roles.ORGANISER)[0])
    return user


@pytest.fixture
def players(db):
    return [UserFactory(username=f"p{i}") for i in range(8)]


@pytest.fixture
def cube_names(db):
    """360 cards: every fifth one double-faced (bulk-created: this fixture runs a lot)."""
    cards, names = [], []
    for i in range(360):
        dfc = i % 5 == 0
        name = f"Front {i:03d} // Back {i:03d}" if dfc else f"Single {i:03d}"
        cards.append(
            Card(
                name=name,
                search_name=normalize_name(name),
                layout="transform" if dfc else "normal",
                color_identity="WUBRG"[i % 5],
            )
        )
        names.append(name.split(" // ")[0])
    cards = Card.objects.bulk_create(cards)
    CardFace.objects.bulk_create(
        CardFace(
            card=card,
            position=position,
            name=face,
            search_name=normalize_name(face),
            type_line="Creature — Test",
            card_types=["Creature"],
        )
        for card in cards
        for position, face in enumerate(card.name.split(" // "))
    )
    return names


def make_pod(organiser, players, cube_names, *, pick_timer=True, start=True, now=T0, seed=7):
    """An 8-seat cube pod, seated by hand in player order, optionally started at ``now``."""
    event = services.create_event(
        name="Cube night",
        date=now.date(),
        created_by=organiser,
        draft_format="cube",
        cube_list=cube_names,
        pick_timer=pick_timer,
    )
    regs = [event_services.register_player(event_id=event.pk, user=u, actor=SYSTEM) for u in players]
    (pod,) = services.seat_players(event_id=event.pk, seed=seed, pods=[[r.pk for r in regs]], actor=SYSTEM)
    if start:
        services.start_pod(pod_id=pod.pk, actor=organiser, now=now)
        pod.refresh_from_db()
    return pod
