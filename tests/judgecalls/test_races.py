"""Races on a call (threads, real transactions on PostgreSQL): the call's row lock lets one
step through and the other hears what happened first; nothing is doubled or lost."""

from __future__ import annotations

import pytest

from draftsite.errors import ConflictError
from events.models import EventLogEntry
from judgecalls import error_codes, services
from judgecalls.models import CallStatus, JudgeCall, Outcome
from tests.judgecalls.conftest import T0, Floor
from tests.races import race


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_two_judges_claiming_one_call_make_one_claim():
    floor = Floor()
    call = services.call_from_match(match_id=floor.match.pk, actor=floor.player_a(), now=T0)
    results = race(
        lambda: services.claim_call(call_id=call.pk, actor=floor.judge, now=T0),
        lambda: services.claim_call(call_id=call.pk, actor=floor.judge2, now=T0),
    )
    refused = [r for r in results if isinstance(r, ConflictError)]
    assert len(refused) == 1 and refused[0].code == error_codes.ALREADY_CLAIMED
    winner = next(r for r in results if isinstance(r, JudgeCall))
    call.refresh_from_db()
    assert call.claimed_by_id == winner.claimed_by_id and call.status == CallStatus.CLAIMED
    assert refused[0].extra["claimed_by"] == call.claimed_by.username
    assert EventLogEntry.objects.filter(action=services.LOG_CLAIMED).count() == 1


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_call_resolved_while_being_escalated_is_one_or_the_other():
    floor = Floor()
    call = services.call_from_match(match_id=floor.match.pk, actor=floor.player_a(), now=T0)
    services.claim_call(call_id=call.pk, actor=floor.judge, now=T0)
    results = race(
        lambda: services.resolve_call(call_id=call.pk, actor=floor.judge, outcome=Outcome.RULING, now=T0),
        lambda: services.escalate_call(call_id=call.pk, actor=floor.judge, now=T0),
    )
    call.refresh_from_db()
    errors = [r for r in results if isinstance(r, ConflictError)]
    assert len(errors) == 1
    if call.status == CallStatus.RESOLVED:  # the resolve went first: the escalation is refused
        assert errors[0].code == error_codes.CALL_RESOLVED and call.escalated_at is None
    else:  # the escalation went first: the floor judge no longer resolves it
        assert call.status == CallStatus.ESCALATED and errors[0].code == error_codes.ALREADY_ESCALATED
        assert call.resolved_at is None
    logged = set(
        EventLogEntry.objects.filter(action__in=[services.LOG_RESOLVED, services.LOG_ESCALATED]).values_list(
            "action", flat=True
        )
    )
    assert len(logged) == 1


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_two_taps_at_once_make_one_call():
    floor = Floor()
    results = race(
        lambda: services.call_from_match(match_id=floor.match.pk, actor=floor.player_a(), now=T0),
        lambda: services.call_from_match(match_id=floor.match.pk, actor=floor.player_a(), now=T0),
    )
    assert sum(isinstance(r, JudgeCall) for r in results) == 1
    assert [r.code for r in results if isinstance(r, ConflictError)] == [error_codes.ALREADY_CALLING]
    assert JudgeCall.objects.count() == 1
