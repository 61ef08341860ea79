"""Fixtures for matches: an event with staff, players seated in pods, and a clock."""

from __future__ import annotations

import datetime as dt

import pytest
from rest_framework.test import APIClient

from drafts.models import Pod
from events.models import DraftFormat, StaffRole
from matches import services
from tests.factories import EventFactory, EventStaffFactory, PodFactory, RegistrationFactory, SeatFactory, UserFactory

T0 = dt.datetime(2026, 11, 30, 17, 0, tzinfo=dt.UTC)


def minutes(n: float) -> dt.datetime:
    return T0 + dt.timedelta(minutes=n)


class Tournament:
    """An event with an organiser, a head judge and a judge; ``pods`` pods of ``size`` players
    seated in order (user ``pN`` is registration "Player N"), plus an outsider account."""

    def __init__(self, pods: int = 1, size: int = 8, level: str = "competitive"):
        self.organiser = UserFactory(username="org")
        self.head_judge = UserFactory(username="hj")
        self.judge = UserFactory(username="judge")
        self.outsider = UserFactory(username="outsider")
        self.event = EventFactory(
            name="Friday draft",
            date=T0.date(),
            enforcement_level=level,
            draft_format=DraftFormat.BOOSTER,
            created_by=self.organiser,
        )
        for user, role in (
            (self.organiser, StaffRole.ORGANISER),
            (self.head_judge, StaffRole.HEAD_JUDGE),
            (self.judge, StaffRole.JUDGE),
        ):
            EventStaffFactory(event=self.event, user=user, role=role)
        self.users, self.regs, self.pods = [], [], []
        n = 0
        for pod_number in range(1, pods + 1):
            pod = PodFactory(event=self.event, number=pod_number, seed=pod_number)
            self.pods.append(pod)
            for position in range(size):
                n += 1
                user = UserFactory(username=f"p{n}")
                reg = RegistrationFactory(event=self.event, user=user, name=f"Player {n}")
                SeatFactory(pod=pod, position=position, registration=reg)
                self.users.append(user)
                self.regs.append(reg)
        self.user_of = {reg.pk: user for reg, user in zip(self.regs, self.users)}

    @property
    def pod(self) -> Pod:
        return self.pods[0]

    def configure(self, **kwargs):
        kwargs.setdefault("seed", 12345)
        return services.configure_matches(event_id=self.event.pk, actor=self.organiser, now=T0, **kwargs)

    def pair(self, pod=None, now=T0):
        pod_id = (pod or self.pod).pk if (pod is not False) else None
        return services.pair_next_round(event_id=self.event.pk, actor=self.organiser, pod_id=pod_id, now=now)

    def client(self, user) -> APIClient:
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
        return client

    def play_round(self, round_obj, now=T0, score=(2, 0, 0)):
        """Start the round, have both players of every table report ``score`` for player A, close."""
        services.start_round(round_id=round_obj.pk, actor=self.organiser, now=now)
        for match in round_obj.matches.exclude(player_b=None):
            won, lost, drawn = score
            services.report_result(
                match_id=match.pk, actor=self.user_of[match.player_a_id], won=won, lost=lost, drawn=drawn, now=now
            )
            services.report_result(
                match_id=match.pk, actor=self.user_of[match.player_b_id], won=lost, lost=won, drawn=drawn, now=now
            )
        services.finish_round(round_id=round_obj.pk, actor=self.organiser, now=now)
        round_obj.refresh_from_db()
        return round_obj


@pytest.fixture
def world(db):
    return Tournament()
