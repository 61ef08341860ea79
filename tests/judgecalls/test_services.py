"""Judge calls: calling from a table or a seat, claiming, escalating, extending, resolving."""

from __future__ import annotations

import pytest

from draftsite.errors import ConflictError, DomainError, ForbiddenError
from events.models import EventLogEntry
from judgecalls import error_codes, selectors, services
from judgecalls.models import CallStatus, Outcome
from matches.models import MatchLogEntry
from penalties import services as penalty_services
from penalties.models import AuditAction
from tests.judgecalls.conftest import T0, minutes

pytestmark = pytest.mark.django_db


def call(floor, reason="Opponent missed a trigger", when=T0):
    return services.call_from_match(match_id=floor.match.pk, actor=floor.player_a(), reason=reason, now=when)


def log_actions(floor):
    return list(
        EventLogEntry.objects.filter(event=floor.event, action__startswith="judge_call.").values_list(
            "action", flat=True
        )
    )


def test_a_player_calls_from_their_table_with_round_table_and_reason(floor):
    c = call(floor)
    assert c.status == CallStatus.OPEN and c.match == floor.match and c.caller_id == floor.match.player_a_id
    assert c.reason == "Opponent missed a trigger"
    entry = EventLogEntry.objects.get(event=floor.event, action=services.LOG_CALLED)
    assert entry.details == {"call": c.pk, "reason": "Opponent missed a trigger", "table": 1, "round": 1}
    assert entry.actor == floor.player_a()


def test_only_the_tables_players_call_to_it(floor):
    with pytest.raises(ForbiddenError) as exc:
        services.call_from_match(match_id=floor.match.pk, actor=floor.player_a(floor.other_match), now=T0)
    assert exc.value.code == error_codes.NOT_YOUR_TABLE
    with pytest.raises(ForbiddenError):
        services.call_from_match(match_id=floor.match.pk, actor=floor.outsider, now=T0)


def test_a_double_tap_makes_one_call(floor):
    call(floor)
    with pytest.raises(ConflictError) as exc:
        call(floor)
    assert exc.value.code == error_codes.ALREADY_CALLING
    assert len(selectors.open_calls(floor.event.pk)) == 1


def test_a_reason_that_is_not_text_or_too_long_is_refused_never_cut(floor):
    with pytest.raises(DomainError) as exc:
        services.call_from_match(match_id=floor.match.pk, actor=floor.player_a(), reason=["x"], now=T0)
    assert exc.value.code == error_codes.INVALID
    with pytest.raises(DomainError) as exc:
        services.call_from_match(match_id=floor.match.pk, actor=floor.player_a(), reason="x" * 500, now=T0)
    assert exc.value.code == error_codes.TOO_LONG
    c = services.call_from_match(match_id=floor.match.pk, actor=floor.player_a(), reason="x" * 200, now=T0)
    assert c.reason == "x" * 200


def test_a_drafter_calls_from_their_seat(floor):
    seat = floor.pod.seats.order_by("position")[2]
    user = floor.user_of[seat.registration_id]
    c = services.call_from_seat(seat_id=seat.pk, actor=user, reason="Misdeal", now=T0)
    assert c.seat == seat and c.match is None
    assert EventLogEntry.objects.get(action=services.LOG_CALLED).details["seat"] == 3
    with pytest.raises(ForbiddenError) as exc:
        services.call_from_seat(seat_id=seat.pk, actor=floor.player_a(), now=T0)
    assert exc.value.code == error_codes.NOT_YOUR_SEAT


def test_the_queue_is_oldest_first_and_the_age_follows_the_clock(floor):
    late = services.call_from_match(
        match_id=floor.other_match.pk, actor=floor.player_a(floor.other_match), now=minutes(3)
    )
    early = call(floor, when=minutes(1))
    assert [c.pk for c in selectors.open_calls(floor.event.pk)] == [early.pk, late.pk]
    assert selectors.age_seconds(early, minutes(5)) == 240


def test_a_claim_shows_who_has_it_and_a_second_claim_is_refused(floor):
    c = call(floor)
    services.claim_call(call_id=c.pk, actor=floor.judge, now=minutes(1))
    c.refresh_from_db()
    assert c.status == CallStatus.CLAIMED and c.claimed_by == floor.judge
    assert selectors.public_view(c)["judge"] == "judge"
    with pytest.raises(ConflictError) as exc:
        services.claim_call(call_id=c.pk, actor=floor.judge2, now=minutes(1))
    assert exc.value.code == error_codes.ALREADY_CLAIMED and exc.value.extra["claimed_by"] == "judge"


def test_players_and_outsiders_take_no_step(floor):
    c = call(floor)
    for user in (floor.player_a(), floor.player_b(), floor.outsider):
        with pytest.raises(ForbiddenError) as exc:
            services.claim_call(call_id=c.pk, actor=user, now=T0)
        assert exc.value.code == error_codes.NOT_EVENT_STAFF


def test_an_escalated_call_is_the_head_judges(floor):
    c = call(floor)
    services.claim_call(call_id=c.pk, actor=floor.judge, now=T0)
    services.escalate_call(call_id=c.pk, actor=floor.judge, note="Appeal", now=minutes(1))
    with pytest.raises(ForbiddenError) as exc:
        services.claim_call(call_id=c.pk, actor=floor.judge2, now=minutes(2))
    assert exc.value.code == error_codes.NOT_HEAD_JUDGE
    with pytest.raises(ConflictError) as exc:
        services.resolve_call(call_id=c.pk, actor=floor.judge, outcome=Outcome.RULING, now=minutes(2))
    assert exc.value.code == error_codes.ALREADY_ESCALATED
    services.claim_call(call_id=c.pk, actor=floor.head_judge, now=minutes(2))
    services.resolve_call(call_id=c.pk, actor=floor.head_judge, outcome=Outcome.RULING, note="Upheld", now=minutes(3))
    c.refresh_from_db()
    assert c.status == CallStatus.RESOLVED and c.escalated_by == floor.judge and c.resolved_by == floor.head_judge
    assert log_actions(floor) == [
        services.LOG_CALLED,
        services.LOG_CLAIMED,
        services.LOG_ESCALATED,
        services.LOG_CLAIMED,
        services.LOG_RESOLVED,
    ]


def test_another_judge_cannot_resolve_a_claimed_call(floor):
    c = call(floor)
    services.claim_call(call_id=c.pk, actor=floor.judge, now=T0)
    with pytest.raises(ConflictError) as exc:
        services.resolve_call(call_id=c.pk, actor=floor.judge2, outcome=Outcome.NO_ACTION, now=T0)
    assert exc.value.code == error_codes.NOT_CLAIMANT


def test_a_time_extension_from_the_call_is_logged_on_the_match(floor):
    c = call(floor)
    services.claim_call(call_id=c.pk, actor=floor.judge, now=T0)
    services.extend_time(call_id=c.pk, actor=floor.judge, minutes=4, now=minutes(1))
    floor.match.refresh_from_db()
    assert floor.match.extension_minutes == 4
    entry = MatchLogEntry.objects.get(match=floor.match, action="extension")
    assert entry.details["after"] == 4 and entry.details["reason"] == f"Judge call #{c.pk}"
    assert EventLogEntry.objects.get(action=services.LOG_EXTENSION).details == {"call": c.pk, "minutes": 4}
    with pytest.raises(DomainError):
        services.extend_time(call_id=c.pk, actor=floor.judge, minutes=90, now=minutes(1))


def test_a_seat_call_has_no_clock(floor):
    seat = floor.pod.seats.order_by("position")[0]
    c = services.call_from_seat(seat_id=seat.pk, actor=floor.user_of[seat.registration_id], now=T0)
    with pytest.raises(DomainError) as exc:
        services.extend_time(call_id=c.pk, actor=floor.judge, minutes=3, now=T0)
    assert exc.value.code == error_codes.NOT_A_MATCH_CALL


def test_resolving_with_a_penalty_links_it_and_writes_the_audit_trail(floor):
    c = call(floor)
    services.claim_call(call_id=c.pk, actor=floor.judge, now=T0)
    penalty = penalty_services.issue_penalty(
        event_id=floor.event.pk,
        registration_id=floor.match.player_b_id,
        infraction_code="slow_play",
        actor=floor.judge,
        description="Slow",
        match_round=1,
        now=minutes(1),
    )
    services.resolve_call(call_id=c.pk, actor=floor.judge, outcome="penalty", penalty_id=penalty.pk, now=minutes(2))
    c.refresh_from_db()
    assert c.outcome == Outcome.PENALTY and c.penalty == penalty
    audit = penalty.history.get(action=AuditAction.JUDGE_CALL)
    assert audit.reason == f"From judge call #{c.pk}" and audit.actor == floor.judge
    assert EventLogEntry.objects.get(action=services.LOG_RESOLVED).details["penalty"] == penalty.pk
    # Resolved: the player may call again.
    assert call(floor, when=minutes(3)).pk != c.pk


def test_the_outcome_is_checked(floor):
    c = call(floor)
    with pytest.raises(DomainError) as exc:
        services.resolve_call(call_id=c.pk, actor=floor.judge, outcome="shrug", now=T0)
    assert exc.value.code == error_codes.INVALID_OUTCOME
    with pytest.raises(DomainError) as exc:
        services.resolve_call(call_id=c.pk, actor=floor.judge, outcome="penalty", now=T0)
    assert exc.value.code == error_codes.PENALTY_REQUIRED
    elsewhere = penalty_services.issue_penalty(
        event_id=floor.event.pk,
        registration_id=floor.other_match.player_a_id,
        infraction_code="slow_play",
        actor=floor.judge,
        description="Slow",
        now=T0,
    )
    with pytest.raises(DomainError) as exc:
        services.resolve_call(call_id=c.pk, actor=floor.judge, outcome="penalty", penalty_id=elsewhere.pk, now=T0)
    assert exc.value.code == error_codes.PENALTY_MISMATCH
    assert selectors.call_by_id(c.pk).status == CallStatus.OPEN


def test_a_resolved_call_takes_no_further_step(floor):
    c = call(floor)
    services.resolve_call(call_id=c.pk, actor=floor.judge, outcome=Outcome.NO_ACTION, now=T0)
    for step in (services.claim_call, services.escalate_call):
        with pytest.raises(ConflictError) as exc:
            step(call_id=c.pk, actor=floor.judge2, now=T0)
        assert exc.value.code == error_codes.CALL_RESOLVED
