"""Fixtures for penalties: one event with every role, and helpers to issue penalties."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from drafts.models import Event, EventStaff, Registration, StaffRole
from penalties import services
from tests.drafts.conftest import cube_names, make_pod  # noqa: F401  (fixture and helper re-used)

T0 = dt.datetime(2026, 11, 29, 15, 0, tzinfo=dt.timezone.utc)


def minutes(n: float) -> dt.datetime:
    return T0 + dt.timedelta(minutes=n)


class World:
    """An event with an organiser, a head judge, a judge and two players; a second event with
    its own judge and one of the same players; and site staff."""

    def __init__(self, level: str = "competitive"):
        User = get_user_model()
        make = User.objects.create_user
        self.organiser = make("org", password="pw")
        self.head_judge = make("hj", password="pw")
        self.head_judge2 = make("hj2", password="pw")
        self.judge = make("judge", password="pw")
        self.other_judge = make("judge_elsewhere", password="pw")
        self.player = make("alice", password="pw")
        self.other_player = make("bob", password="pw")
        self.staff = make("staffer", password="pw", is_staff=True)
        self.event = Event.objects.create(name="Innistrad PPTQ", date=T0.date(), enforcement_level=level,
                                          created_by=self.organiser)
        self.other_event = Event.objects.create(name="Other night", date=T0.date(), enforcement_level=level)
        for user, role in ((self.organiser, StaffRole.ORGANISER), (self.head_judge, StaffRole.HEAD_JUDGE),
                           (self.head_judge2, StaffRole.HEAD_JUDGE), (self.judge, StaffRole.JUDGE)):
            EventStaff.objects.create(event=self.event, user=user, role=role)
        EventStaff.objects.create(event=self.other_event, user=self.other_judge, role=StaffRole.JUDGE)
        EventStaff.objects.create(event=self.other_event, user=self.other_judge, role=StaffRole.HEAD_JUDGE)
        self.reg = Registration.objects.create(event=self.event, user=self.player, name="Alice")
        self.other_reg = Registration.objects.create(event=self.event, user=self.other_player, name="Bob")
        self.guest_reg = Registration.objects.create(event=self.event, name="Gwen Guest")
        self.elsewhere_reg = Registration.objects.create(event=self.other_event, user=self.player, name="Alice")

    def issue(self, code: str = "slow_play", *, reg=None, actor=None, now=None, **kwargs):
        return services.issue_penalty(
            event_id=(reg or self.reg).event_id, registration_id=(reg or self.reg).pk, infraction_code=code,
            actor=actor or self.judge, description=kwargs.pop("description", "Took too long."),
            now=now or T0, **kwargs)

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
