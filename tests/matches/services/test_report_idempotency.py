"""A result typed offline is queued on the phone and may be sent more than once when the
connection returns: its idempotency key makes every send after the first answer the match as
the first left it (one report, one log line), and a conflict with the opponent is as today."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from draftsite.errors import DomainError
from matches import services
from matches.models import MatchLogEntry, MatchStatus, ReportKey, ResultReport
from tests.matches.conftest import T0, Tournament, minutes


def started_round(t):
    t.configure()
    round_obj = t.pair()
    services.start_round(round_id=round_obj.pk, actor=t.organiser, now=T0)
    return round_obj


def players(t, match):
    return t.user_of[match.player_a_id], t.user_of[match.player_b_id]


@pytest.mark.django_db
def test_the_same_key_twice_is_one_report():
    t = Tournament()
    match = started_round(t).matches.get(table=1)
    a, _ = players(t, match)
    key = "queued-0a1b2c3d"
    services.report_result(match_id=match.pk, actor=a, won=2, lost=1, key=key, now=minutes(30))
    again = services.report_result(match_id=match.pk, actor=a, won=2, lost=1, key=key, now=minutes(31))
    assert again.status == MatchStatus.REPORTED
    assert ResultReport.objects.filter(match=match).count() == 1
    assert MatchLogEntry.objects.filter(match=match, action="reported").count() == 1


@pytest.mark.django_db
def test_a_late_resend_never_undoes_a_later_report_or_a_confirmation():
    t = Tournament()
    match = started_round(t).matches.get(table=1)
    a, b = players(t, match)
    services.report_result(match_id=match.pk, actor=a, won=2, lost=0, key="first-send-1", now=minutes(30))
    services.report_result(match_id=match.pk, actor=a, won=2, lost=1, key="second-send", now=minutes(31))
    services.report_result(match_id=match.pk, actor=b, won=1, lost=2, now=minutes(32))  # confirms 2-1
    match.refresh_from_db()
    assert (match.status, match.a_wins, match.b_wins) == (MatchStatus.CONFIRMED, 2, 1)
    # The phone's queue sends the first report again: the answer is the confirmed match.
    answer = services.report_result(match_id=match.pk, actor=a, won=2, lost=0, key="first-send-1", now=minutes(33))
    assert (answer.status, answer.a_wins, answer.b_wins) == (MatchStatus.CONFIRMED, 2, 1)
    assert MatchLogEntry.objects.filter(match=match).exclude(action="paired").count() == 3


@pytest.mark.django_db
def test_a_conflict_with_the_opponent_is_a_dispute_as_today():
    t = Tournament()
    match = started_round(t).matches.get(table=1)
    a, b = players(t, match)
    services.report_result(match_id=match.pk, actor=b, won=2, lost=0, now=minutes(30))
    services.report_result(match_id=match.pk, actor=a, won=2, lost=0, key="offline-abc123", now=minutes(31))
    services.report_result(match_id=match.pk, actor=a, won=2, lost=0, key="offline-abc123", now=minutes(32))
    match.refresh_from_db()
    assert match.status == MatchStatus.DISPUTED
    assert MatchLogEntry.objects.filter(match=match, action="disputed").count() == 1


@pytest.mark.django_db
def test_bad_or_borrowed_keys_are_refused():
    t = Tournament()
    round_obj = started_round(t)
    first, second = round_obj.matches.get(table=1), round_obj.matches.get(table=2)
    a = players(t, first)[0]
    c = players(t, second)[0]
    for bad in ("short", "x" * 65, "has space!", "é" * 10):
        with pytest.raises(DomainError) as refused:
            services.report_result(match_id=first.pk, actor=a, won=2, lost=0, key=bad)
        assert refused.value.code == "invalid_idempotency_key"
    services.report_result(match_id=first.pk, actor=a, won=2, lost=0, key="shared-key-1")
    with pytest.raises(DomainError) as refused:
        services.report_result(match_id=second.pk, actor=c, won=2, lost=0, key="shared-key-1")
    assert refused.value.code == "invalid_idempotency_key" and refused.value.status_code == 409
    assert not ResultReport.objects.filter(match=second).exists()


@pytest.mark.django_db
def test_the_api_reads_the_idempotency_key_header():
    t = Tournament()
    match = started_round(t).matches.get(table=1)
    a, _ = players(t, match)
    client = t.client(a)
    for _ in range(2):
        response = client.post(
            f"/api/matches/{match.pk}/report/",
            {"won": 2, "lost": 1},
            format="json",
            HTTP_IDEMPOTENCY_KEY="3f2b8c1e-58aa-4c59-9d1a-0d6a3f0c2b11",
        )
        assert response.status_code == 200, response.content
    assert ReportKey.objects.filter(match=match).count() == 1
    assert MatchLogEntry.objects.filter(match=match, action="reported").count() == 1
    response = client.post(
        f"/api/matches/{match.pk}/report/", {"won": 2, "lost": 1}, format="json", HTTP_IDEMPOTENCY_KEY="no"
    )
    assert response.status_code == 400 and response.json()["errors"][0]["code"] == "invalid_idempotency_key"


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_two_sends_of_one_key_at_once_make_one_report():
    t = Tournament()
    match = started_round(t).matches.get(table=1)
    a, _ = players(t, match)
    barrier, errors = threading.Barrier(2), []

    def send():
        try:
            barrier.wait(timeout=10)
            services.report_result(match_id=match.pk, actor=a, won=2, lost=0, key="raced-key-42")
        except Exception as exc:  # collected: the assertion below names it
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors
    assert ResultReport.objects.filter(match=match).count() == 1
    assert MatchLogEntry.objects.filter(match=match, action="reported").count() == 1
    assert ReportKey.objects.filter(key="raced-key-42").count() == 1
