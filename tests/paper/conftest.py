"""Fixtures for the called paper draft: a paper booster draft of Innistrad (the seed catalogue),
its organiser and judge, and players seated by hand into pods."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import Group

from drafts import services
from events import roles
from events import services as event_services
from events.access import SYSTEM
from events.models import StaffRole
from tests.factories import EventStaffFactory, UserFactory

T0 = dt.datetime(2026, 11, 30, 18, 0, tzinfo=dt.UTC)


def s(n: float) -> dt.timedelta:
    return dt.timedelta(seconds=n)


def user(name, *groups):
    account = UserFactory(username=name)
    for group in groups:
        account.groups.add(Group.objects.get_or_create(name=group)[0])
    return account


def make_paper_event(
    organiser, *, pods: int = 1, per_pod: int = 8, pack_size: int = 15, name="Paper ISD", judge=None, prefix="pl"
):
    """A paper draft with ``pods`` pods of ``per_pod`` players (accounts ``<prefix><n>``)."""
    event = services.create_event(
        name=name, date=T0.date(), created_by=organiser, draft_format="paper", set_codes=["ISD"], pack_size=pack_size
    )
    if judge is not None:
        EventStaffFactory(event=event, user=judge, role=StaffRole.JUDGE)
    regs = [
        event_services.register_player(event_id=event.pk, user=user(f"{prefix}{i}"), actor=SYSTEM)
        for i in range(pods * per_pod)
    ]
    seated = services.seat_players(
        event_id=event.pk,
        seed=11,
        pods=[[r.pk for r in regs[i * per_pod : (i + 1) * per_pod]] for i in range(pods)],
        actor=SYSTEM,
    )
    return event, seated


@pytest.fixture
def organiser(db):
    return user("org", roles.ORGANISER)


@pytest.fixture
def judge(db):
    return user("judge")


@pytest.fixture
def paper(organiser, judge):
    """A two-pod paper draft (8 players each), not called yet."""
    event, pods = make_paper_event(organiser, pods=2, judge=judge)
    return event, pods
