"""Fixtures for penalties: one event with every role, and helpers to issue penalties."""

from __future__ import annotations

import datetime as dt

import pytest
from rest_framework.test import APIClient

from events.models import DraftFormat, StaffRole
from penalties import services
from tests.drafts.conftest import cube_names, make_pod  # noqa: F401  (fixture and helper re-used)
from tests.factories import EventFactory, EventStaffFactory, RegistrationFactory, UserFactory

T0 = dt.datetime(2026, 11, 29, 15, 0, tzinfo=dt.UTC)


def minutes(n: float) -> dt.datetime:
    return T0 + dt.timedelta(minutes=n)


class World:
    """An event with an organiser, a head judge, a judge and two players; a second event with
    its own judge and one of the same players; and site staff."""

    def __init__(self, level: str = "competitive"):
        self.organiser = UserFactory(username="org")
        self.head_judge = UserFactory(username="hj")
        self.head_judge2 = UserFactory(username="hj2")
        self.judge = UserFactory(username="judge")
        self.other_judge = UserFactory(username="judge_elsewhere")
        self.player = UserFactory(username="alice")
        self.other_player = UserFactory(username="bob")
        self.staff = UserFactory(username="staffer", is_staff=True)
        self.event = EventFactory(
            name="Innistrad PPTQ",
            date=T0.date(),
            enforcement_level=level,
            draft_format=DraftFormat.BOOSTER,
            created_by=self.organiser,
        )
        self.other_event = EventFactory(
            name="Other night", date=T0.date(), enforcement_level=level, draft_format=DraftFormat.BOOSTER
        )
        for user, role in (
            (self.organiser, StaffRole.ORGANISER),
            (self.head_judge, StaffRole.HEAD_JUDGE),
            (self.head_judge2, StaffRole.HEAD_JUDGE),
            (self.judge, StaffRole.JUDGE),
        ):
            EventStaffFactory(event=self.event, user=user, role=role)
        EventStaffFactory(event=self.other_event, user=self.other_judge, role=StaffRole.JUDGE)
        EventStaffFactory(event=self.other_event, user=self.other_judge, role=StaffRole.HEAD_JUDGE)
        self.reg = RegistrationFactory(event=self.event, user=self.player, name="Alice")
        self.other_reg = RegistrationFactory(event=self.event, user=self.other_player, name="Bob")
        self.guest_reg = RegistrationFactory(event=self.event, name="Gwen Guest")
        self.elsewhere_reg = RegistrationFactory(event=self.other_event, user=self.player, name="Alice")

    def issue(self, code: str = "slow_play", *, reg=None, actor=None, now=None, **kwargs):
        return services.issue_penalty(
            event_id=(reg or self.reg).event_id,
            registration_id=(reg or self.reg).pk,
            infraction_code=code,
            actor=actor or self.judge,
            description=kwargs.pop("description", "Took too long."),
            now=now or T0,
            **kwargs,
        )

    def client(self, user) -> APIClient:
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
        return client


@pytest.fixture
def world(db):
    return World()


@pytest.fixture
def regular_world(db):
    return World(level="regular")


def codes(response) -> list[str]:
    return [e["code"] for e in response.json()["errors"]]
