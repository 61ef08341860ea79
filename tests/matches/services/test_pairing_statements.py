"""Pairing a round costs the same SQL statements whatever the number of players (issue 49: a
1,000-player round sent one INSERT per match and one per table, 1,018 statements, and read
every table back for the mail nobody had asked for)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import Profile
from events.models import Registration, StaffRole
from matches import services
from matches.models import Match, MatchPlayer, MatchStatus, PairingMode
from tests.factories import EventFactory, EventStaffFactory, UserFactory
from tests.matches.conftest import T0, minutes

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def eager_celery():
    """The round mail is a task booked after the commit: here it runs in the caller (no worker),
    so its statements count too."""
    from draftsite.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield app
    app.conf.task_always_eager = before


# Locks, checks, reads of the players, drops and history, two INSERTs, the log, the round mail's
# question; a little room so that one more read is a choice, not a failure.
MAX_STATEMENTS = 25


def _event(players: int):
    """An across-the-event Swiss of ``players`` registered players, one of them asking for mail."""
    organiser = UserFactory()
    event = EventFactory(created_by=organiser)
    EventStaffFactory(event=event, user=organiser, role=StaffRole.ORGANISER)
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"s{players}-{n}", email=f"s{players}-{n}@example.test") for n in range(players)
    )
    Registration.objects.bulk_create(
        Registration(event=event, user=user, name=f"Player {n:04d}") for n, user in enumerate(users)
    )
    Profile.objects.create(user=users[0], email_pairings=True)
    services.configure_matches(event_id=event.pk, actor=organiser, mode=PairingMode.ACROSS_EVENT, seed=7, now=T0)
    return event, organiser


def _pair(event, organiser, capture_on_commit, now):
    """Pair the next round; the statements it sent, its on-commit work (the mail task, run in the
    caller here, and push) included."""
    with CaptureQueriesContext(connection) as statements, capture_on_commit(execute=True):
        round_obj = services.pair_next_round(event_id=event.pk, actor=organiser, now=now)
    return round_obj, len(statements)


def _play(round_obj, organiser, now) -> None:
    """Every table won by player A, then the round closed (the history of the next pairing)."""
    services.start_round(round_id=round_obj.pk, actor=organiser, now=now)
    round_obj.matches.exclude(player_b=None).update(status=MatchStatus.CONFIRMED, a_wins=2, b_wins=0, draws=0)
    services.finish_round(round_id=round_obj.pk, actor=organiser, now=now)


def test_pairing_a_large_round_sends_as_many_statements_as_a_small_one(django_capture_on_commit_callbacks, mailoutbox):
    counts = {}
    for players in (9, 301):  # odd: a bye too
        event, organiser = _event(players)
        first, counts[players, 1] = _pair(event, organiser, django_capture_on_commit_callbacks, T0)
        assert MatchPlayer.objects.filter(round=first).count() == players  # everybody placed
        assert Match.objects.filter(round=first).count() == players // 2 + 1
        _play(first, organiser, minutes(60))
        second, counts[players, 2] = _pair(event, organiser, django_capture_on_commit_callbacks, minutes(70))
        assert MatchPlayer.objects.filter(round=second).count() == players
    assert counts[9, 1] == counts[301, 1] and counts[9, 2] == counts[301, 2], counts
    assert max(counts.values()) <= MAX_STATEMENTS, counts
    # The one player who asked was mailed each pairing of each event (the mail path ran).
    assert sorted(m.to[0] for m in mailoutbox) == ["s301-0@example.test"] * 2 + ["s9-0@example.test"] * 2
