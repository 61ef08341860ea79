"""Players who opted in on their profile get a mail when pairings are posted and when their
round starts, in their own language, once the change is committed (issue 28)."""

from __future__ import annotations

import pytest
from django.core import mail
from django.db.models import Q

from accounts.models import Profile
from draftsite.errors import ConflictError
from matches import services
from tests.matches.conftest import T0, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def eager_celery():
    """The mail is a task booked after the commit: it runs in the caller here (no worker), as in
    the embedded site, whatever broker the environment names."""
    from draftsite.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield app
    app.conf.task_always_eager = before


@pytest.fixture
def world(db):
    t = Tournament()
    for n, user in enumerate(t.users, start=1):
        user.email = f"p{n}@example.test"
        user.save(update_fields=["email"])
    Profile.objects.create(user=t.users[0], language="pt-br", email_pairings=True, email_round_start=True)
    Profile.objects.create(user=t.users[1], language="en", email_pairings=True)
    Profile.objects.create(user=t.users[2], language="es")  # no mail wanted
    t.configure()
    return t


def test_opted_in_players_are_mailed_the_pairings_with_their_table(world, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        round_obj = world.pair()
    assert sorted(m.to[0] for m in mail.outbox) == ["p1@example.test", "p2@example.test"]
    by_address = {m.to[0]: m for m in mail.outbox}
    match = round_obj.matches.get(Q(player_a=world.regs[1]) | Q(player_b=world.regs[1]))
    english = by_address["p2@example.test"]
    assert "round 1 is paired" in english.subject
    assert f"table {match.table}" in english.body and f"/matches/events/{world.event.pk}/me/" in english.body
    portuguese = by_address["p1@example.test"]
    assert "Olá" in portuguese.body and "mesa" in portuguese.body


def test_a_round_start_mails_only_those_who_asked_for_it(world, django_capture_on_commit_callbacks):
    round_obj = world.pair()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.start_round(round_id=round_obj.pk, actor=world.organiser, now=T0)
    assert [m.to for m in mail.outbox] == [["p1@example.test"]]
    assert "começou" in mail.outbox[0].subject


def test_nothing_is_mailed_before_the_commit_or_for_a_refused_pairing(world, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as pending:
        world.pair()
    assert mail.outbox == [] and pending  # waits for the commit
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(ConflictError):
        world.pair()  # round 1 is not finished: refused, rolled back
    assert mail.outbox == []


def test_the_mail_is_a_task_booked_after_the_commit_not_sent_in_the_answer(
    world, django_capture_on_commit_callbacks, monkeypatch
):
    """1,000 opted-in players' mail took 11 s of the pairing's answer when it was sent there."""
    from celery import current_app

    booked = []
    monkeypatch.setattr(current_app.tasks["accounts.mail_round"], "delay", lambda *args: booked.append(args))
    with django_capture_on_commit_callbacks(execute=False) as pending:
        round_obj = world.pair()
    assert booked == [] and pending
    for callback in pending:
        callback()
    assert booked == [(round_obj.pk, "pairings")]
    assert mail.outbox == []  # the worker sends it, not the answer


def test_a_broker_that_is_down_costs_the_mail_not_the_pairing(
    world, django_capture_on_commit_callbacks, monkeypatch, caplog
):
    from celery import current_app

    def refuse(*args):
        raise ConnectionError("broker down")

    monkeypatch.setattr(current_app.tasks["accounts.mail_round"], "delay", refuse)
    with django_capture_on_commit_callbacks(execute=True):
        round_obj = world.pair()
    assert round_obj.matches.count() == 4 and mail.outbox == []
    assert "could not book the pairings mail" in caplog.text
