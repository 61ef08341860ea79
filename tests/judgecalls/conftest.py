"""Fixtures for judge calls: the matches tournament (a round running), with a second judge."""

from __future__ import annotations

import pytest

from events.models import StaffRole
from matches import services as match_services
from tests.factories import EventStaffFactory, UserFactory
from tests.matches.conftest import T0, Tournament, minutes  # noqa: F401  (re-exported)


class Floor(Tournament):
    """Round 1 running at four tables; ``judge2`` is a second floor judge."""

    def __init__(self, level: str = "competitive"):
        super().__init__(level=level)
        self.judge2 = UserFactory(username="judge2")
        EventStaffFactory(event=self.event, user=self.judge2, role=StaffRole.JUDGE)
        self.configure()
        self.round = self.pair()
        match_services.start_round(round_id=self.round.pk, actor=self.organiser, now=T0)
        self.match = self.round.matches.get(table=1)
        self.other_match = self.round.matches.get(table=2)

    def player_a(self, match=None):
        return self.user_of[(match or self.match).player_a_id]

    def player_b(self, match=None):
        return self.user_of[(match or self.match).player_b_id]


@pytest.fixture
def floor(db):
    return Floor()
