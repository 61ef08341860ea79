"""Fixtures for the draft engine: a cube of made-up cards (fast, fully controlled) and
real-set pods (from the bundled catalogue) where collation matters. The organiser, the players,
the cube and ``make_pod`` are shared with the events app's tests (tests/shared_fixtures.py)."""

from __future__ import annotations

import pytest

from drafts.models import Seat
from tests.shared_fixtures import (  # noqa: F401  (fixtures and helpers, imported from here by other tests too)
    T0,
    cube_names,
    make_pod,
    organiser,
    players,
    seconds,
)

RARITIES = ["common"] * 10 + ["uncommon"] * 3 + ["rare", "mythic"]


@pytest.fixture
def pod(organiser, players, cube_names):  # noqa: F811  (the fixtures imported above)
    return make_pod(organiser, players, cube_names)


@pytest.fixture
def seats(pod):
    return list(Seat.objects.filter(pod=pod).order_by("position"))
