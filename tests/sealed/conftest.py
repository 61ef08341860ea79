from __future__ import annotations

import datetime as dt
import html
import re

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


def leaks(
    bodies: dict[str, str], secret: set[str], seen: set[str] | frozenset[str] = frozenset()
) -> dict[str, list[str]]:
    """The secret names each body shows. The viewer's own cards are struck out first, longest
    first: "Marina Vendrell's Grimoire" in their pool does not show another's "Marina Vendrell"."""
    own = sorted(seen, key=len, reverse=True)
    found = {}
    for url, body in bodies.items():
        body = html.unescape(body)  # a page writes "Vendrell&#x27;s"
        for name in own:
            body = body.replace(name, "")
        # Whole names: a short one ("Saw") inside a longer word or name is not that card.
        found[url] = sorted(n for n in secret if re.search(rf"(?<![\w']){re.escape(n)}(?![\w'])", body))
    return {url: hits for url, hits in found.items() if hits}
