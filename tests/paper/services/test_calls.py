"""Starting and controlling called paper drafts: the call in force, the controls' log and
permissions, flights in lockstep, the engine refusing paper pods, the mirrored pod state."""

from __future__ import annotations

import pytest
from django.utils import timezone

from drafts import services as draft_services
from drafts.models import PodLogEntry, PodState, Seat
from draftsite.errors import ConflictError, DomainError, ForbiddenError
from events.access import SYSTEM
from paper import error_codes, schedule, selectors, services
from paper.models import CallJump, CallPause
from tests.paper.conftest import T0, make_paper_event, s

pytestmark = pytest.mark.django_db

MTR_15 = [40, 40, 35, 30, 25, 25, 20, 20, 15, 10, 10, 5, 5, 5]


def call(pod, at):
    return selectors.call_view(services.settle_if_due(pod=pod, now=at), staff=True, now=at)["call"]


def player_of(pod):
    return Seat.objects.filter(pod=pod).select_related("registration__user").first().registration.user


def test_a_started_pod_is_called_by_the_mtr_table(paper, organiser):
    _, (pod, _) = paper
    services.start_call(pod_id=pod.pk, actor=organiser, delay_seconds=10, now=T0)
    assert call(pod, T0 + s(5))["phase"] == "not_started"
    assert call(pod, T0 + s(5))["starts_at"] == (T0 + s(10)).isoformat()
    first = call(pod, T0 + s(10))
    assert (first["phase"], first["round"], first["pick"], first["direction"], first["remaining_ms"]) == (
        "pick",
        1,
        1,
        "left",
        40_000,
    )
    third = call(pod, T0 + s(10 + 80 + 1))
    assert (third["pick"], third["step"]["cards_left"], third["remaining_ms"]) == (3, 13, 34_000)
    review = call(pod, T0 + s(10 + sum(MTR_15)))
    assert (review["phase"], review["round"], review["remaining_ms"]) == ("review", 1, 60_000)
    round_two = call(pod, T0 + s(10 + sum(MTR_15) + 60))
    assert (round_two["round"], round_two["pick"], round_two["direction"]) == (2, 1, "right")
    pod.refresh_from_db()
    assert pod.state == PodState.DRAFTING  # seating is locked from the start
    with pytest.raises(ConflictError) as refused:
        draft_services.seat_players(event_id=pod.event_id, seed=3, actor=SYSTEM)
    assert refused.value.code == "seating_locked"


def test_the_timeline_the_pages_tick_through_matches_the_schedule(paper, organiser):
    _, (pod, _) = paper
    services.start_call(pod_id=pod.pk, actor=organiser, now=T0)
    view = selectors.call_view(services.settle_if_due(pod=pod, now=T0 + s(50)), staff=False, now=T0 + s(50))
    assert view["server_time"] == (T0 + s(50)).isoformat()
    steps = [seg["step"] for seg in view["timeline"]]
    assert [st["seconds"] for st in steps[:14]] == MTR_15[1:] + [60]
    assert view["timeline"][0]["begins_at"] == (T0 + s(40)).isoformat()
    assert view["timeline"][0]["ends_at"] == (T0 + s(80)).isoformat()


def test_pause_and_resume_are_logged_with_who_when_and_why(paper, organiser, judge):
    _, (pod, _) = paper
    services.start_call(pod_id=pod.pk, actor=organiser, now=T0)
    services.control_pod(
        pod_id=pod.pk, action="pause", actor=judge, reason="  A card fell  on the floor ", now=T0 + s(12)
    )
    frozen = call(pod, T0 + s(300))
    assert (frozen["paused"], frozen["pick"], frozen["remaining_ms"]) == (True, 1, 28_000)
    pod.refresh_from_db()
    assert (pod.state, pod.paused_from) == (PodState.PAUSED, PodState.DRAFTING)
    services.control_pod(pod_id=pod.pk, action="resume", actor=judge, now=T0 + s(312))
    resumed = call(pod, T0 + s(320))
    assert (resumed["paused"], resumed["pick"], resumed["remaining_ms"]) == (False, 1, 20_000)
    log = list(
        PodLogEntry.objects.filter(pod=pod)
        .order_by("at", "pk")
        .values_list("action", "actor__username", "at", "details")
    )
    assert [(a, who, at) for a, who, at, _ in log] == [
        ("call_start", "org", T0),
        ("call_pause", "judge", T0 + s(12)),
        ("call_resume", "judge", T0 + s(312)),
    ]
    assert log[1][3]["reason"] == "A card fell on the floor"
    assert log[2][3]["paused_seconds"] == 300
    pause = CallPause.objects.get()
    assert (pause.paused_by, pause.resumed_by, pause.ended_at) == (judge, judge, T0 + s(312))


def test_controls_refuse_what_makes_no_sense(paper, organiser, judge):
    _, (pod, _) = paper
    with pytest.raises(ConflictError) as refused:
        services.control_pod(pod_id=pod.pk, action="pause", actor=judge, reason="x", now=T0)
    assert refused.value.code == error_codes.CALL_NOT_STARTED
    services.start_call(pod_id=pod.pk, actor=organiser, now=T0)
    with pytest.raises(ConflictError) as refused:
        services.start_call(pod_id=pod.pk, actor=organiser, now=T0)
    assert refused.value.code == error_codes.CALL_ALREADY_STARTED
    for reason, code in (
        ("", error_codes.REASON_REQUIRED),
        ("x" * 201, error_codes.INVALID_REASON),
        ("a\x00b", error_codes.INVALID_REASON),
    ):
        with pytest.raises(DomainError) as refused:
            services.control_pod(pod_id=pod.pk, action="pause", actor=judge, reason=reason, now=T0 + s(1))
        assert refused.value.code == code
    with pytest.raises(ConflictError) as refused:
        services.control_pod(pod_id=pod.pk, action="resume", actor=judge, now=T0 + s(1))
    assert refused.value.code == error_codes.CALL_NOT_PAUSED
    services.control_pod(pod_id=pod.pk, action="pause", actor=judge, reason="Pack missing", now=T0 + s(2))
    with pytest.raises(ConflictError) as refused:
        services.control_pod(pod_id=pod.pk, action="pause", actor=judge, reason="again", now=T0 + s(3))
    assert refused.value.code == error_codes.CALL_PAUSED
    services.control_pod(pod_id=pod.pk, action="resume", actor=judge, now=T0 + s(4))
    with pytest.raises(ConflictError) as refused:  # in the review no pick is called
        services.control_pod(pod_id=pod.pk, action="repeat-pick", actor=judge, now=T0 + s(2 + sum(MTR_15) + 1))
    assert refused.value.code == error_codes.NOT_PICKING
    assert CallPause.objects.count() == 1 and CallJump.objects.count() == 0
    for bad in ("start", "explode"):
        with pytest.raises(DomainError):
            services.control_pod(pod_id=pod.pk, action=bad, actor=judge, now=T0 + s(5))


def test_a_player_cannot_control_the_call_and_a_judge_cannot_start_it(paper, organiser, judge):
    _, (pod, other) = paper
    player = player_of(pod)
    with pytest.raises(ForbiddenError):
        services.start_call(pod_id=pod.pk, actor=judge, now=T0)
    services.start_call(pod_id=pod.pk, actor=organiser, now=T0)
    for action in services.CONTROLS:
        with pytest.raises(ForbiddenError) as refused:
            services.control_pod(pod_id=pod.pk, action=action, actor=player, reason="I want a break", now=T0 + s(1))
        assert refused.value.code == error_codes.NOT_EVENT_STAFF
    # Role first: an empty reason from a player is still a 403, not a 400.
    with pytest.raises(ForbiddenError):
        services.control_pod(pod_id=pod.pk, action="pause", actor=player, reason="", now=T0 + s(1))
    assert not CallPause.objects.exists() and not CallJump.objects.exists()
    assert not PodLogEntry.objects.filter(action__in=["call_pause", "call_repeat_pick"]).exists()


def test_repeat_skip_and_restart(paper, organiser, judge):
    _, (pod, _) = paper
    services.start_call(pod_id=pod.pk, actor=organiser, now=T0)
    services.control_pod(pod_id=pod.pk, action="repeat-pick", actor=judge, now=T0 + s(50))  # pick 2, 30 s left
    assert (call(pod, T0 + s(60))["pick"], call(pod, T0 + s(60))["remaining_ms"]) == (2, 30_000)
    services.control_pod(pod_id=pod.pk, action="skip-to-review", actor=judge, now=T0 + s(70))
    review = call(pod, T0 + s(71))
    assert (review["phase"], review["round"], review["remaining_ms"]) == ("review", 1, 59_000)
    services.control_pod(pod_id=pod.pk, action="restart-round", actor=judge, now=T0 + s(80))
    again = call(pod, T0 + s(80))
    assert (again["phase"], again["round"], again["pick"], again["remaining_ms"]) == ("pick", 1, 1, 40_000)
    kinds = list(CallJump.objects.order_by("at").values_list("kind", "step", "actor__username"))
    assert kinds == [("repeat_pick", 1, "judge"), ("skip_to_review", 14, "judge"), ("restart_round", 0, "judge")]
    logged = list(
        PodLogEntry.objects.filter(pod=pod, action__startswith="call_")
        .order_by("at", "pk")
        .values_list("action", "details__round", "details__pick")
    )
    assert logged[1:] == [("call_repeat_pick", 1, 2), ("call_skip_to_review", 1, 2), ("call_restart_round", 1, None)]


def test_twenty_pods_in_lockstep(organiser, judge):
    event, pods = make_paper_event(organiser, pods=20, per_pod=2, judge=judge)
    flight = services.start_flight(
        event_id=event.pk, pod_ids=[p.pk for p in pods], actor=organiser, delay_seconds=30, now=T0
    )
    assert flight.number == 1 and flight.pods.count() == 20

    def calls(at):
        return [call(p, at) for p in pods]

    for t in (0, 30, 31, 75, 200, 345, 346, 600, 1000):
        got = calls(T0 + s(t))
        assert all(c == got[0] for c in got), t
    services.control_flight(flight_id=flight.pk, action="pause", actor=judge, reason="Fire alarm", now=T0 + s(100))
    paused = calls(T0 + s(700))
    assert all(c == paused[0] for c in paused) and paused[0]["paused"] and paused[0]["remaining_ms"] == 10_000
    # One pod paused on its own stays paused when the flight resumes; the 19 others go on together.
    services.control_pod(pod_id=pods[7].pk, action="pause", actor=judge, reason="Missing pack", now=T0 + s(710))
    services.control_flight(flight_id=flight.pk, action="resume", actor=judge, now=T0 + s(800))
    after = calls(T0 + s(802))
    others = after[:7] + after[8:]
    assert all(c == others[0] for c in others)
    assert (others[0]["pick"], others[0]["remaining_ms"], others[0]["paused"]) == (2, 8_000, False)
    assert (after[7]["paused"], after[7]["pick"], after[7]["remaining_ms"]) == (True, 2, 10_000)
    services.control_flight(flight_id=flight.pk, action="repeat-pick", actor=judge, now=T0 + s(810))
    repeated = calls(T0 + s(810))
    assert all((c["pick"], c["remaining_ms"]) == (3, 35_000) for c in repeated[:7] + repeated[8:])
    assert repeated[7]["paused"]  # not picking while paused on its own: left alone
    assert PodLogEntry.objects.filter(action="call_pause", details__flight=1).count() == 20
    for p in pods:
        p.refresh_from_db()
    assert {p.state for p in pods} == {PodState.DRAFTING, PodState.PAUSED}


def test_the_draft_engine_refuses_paper_pods(paper, organiser):
    _, (pod, _) = paper
    for service, kwargs in (
        (draft_services.start_pod, {}),
        (draft_services.pause_pod, {}),
        (draft_services.resume_pod, {}),
        (draft_services.advance_round, {}),
        (draft_services.regenerate_spectator_token, {}),
    ):
        with pytest.raises(ConflictError) as refused:
            service(pod_id=pod.pk, actor=organiser, **kwargs)
        assert refused.value.code == "paper_pod"
    services.start_call(pod_id=pod.pk, actor=organiser, now=timezone.now())
    from drafts.services import settle_pod_for_reading

    pod = settle_pod_for_reading(pod.pk)  # a read never runs the engine on a called pod
    assert pod.state == PodState.DRAFTING and not pod.packs.exists()


def test_the_pod_state_follows_the_call_to_its_end(paper, organiser):
    event, (pod, _) = paper
    services.start_call(pod_id=pod.pk, actor=organiser, now=T0)
    total = 3 * sum(MTR_15) + 60 + 90
    pod = services.settle_if_due(pod=pod, now=T0 + s(total + 1))
    _, current = selectors.current_call(pod, T0 + s(total + 1))
    assert current.phase == schedule.DECK_BUILDING and pod.state == PodState.DECK_BUILDING
    pod = services.settle_if_due(pod=pod, now=T0 + s(total + 25 * 60))
    _, current = selectors.current_call(pod, T0 + s(total + 25 * 60))
    assert current.phase == schedule.DONE and pod.state == PodState.DONE
    assert PodLogEntry.objects.filter(pod=pod, action="call_over").count() == 1
    assert services.settle(pod_id=pod.pk, now=T0 + s(total + 26 * 60)) is False  # idempotent
    with pytest.raises(ConflictError) as refused:
        services.control_pod(pod_id=pod.pk, action="pause", actor=organiser, reason="late", now=T0 + s(total + 1600))
    assert refused.value.code == error_codes.CALL_FINISHED


def test_a_pod_needs_two_players_to_be_called(organiser):
    event, (pod,) = make_paper_event(organiser, pods=1, per_pod=2)
    Seat.objects.filter(pod=pod, position=1).delete()
    with pytest.raises(DomainError) as refused:
        services.start_call(pod_id=pod.pk, actor=organiser, now=T0)
    assert refused.value.code == error_codes.TOO_FEW_PLAYERS


def test_start_delay_and_flights_are_checked(paper, organiser):
    event, (pod, other) = paper
    for delay in (-1, 601, "5", True):
        with pytest.raises(DomainError) as refused:
            services.start_call(pod_id=pod.pk, actor=organiser, delay_seconds=delay, now=T0)
        assert refused.value.code == error_codes.INVALID_DELAY
    with pytest.raises(DomainError) as refused:
        services.start_flight(event_id=event.pk, pod_ids=[], actor=organiser, now=T0)
    assert refused.value.code == error_codes.EMPTY_FLIGHT
    services.start_call(pod_id=pod.pk, actor=organiser, now=T0)
    with pytest.raises(ConflictError):  # one pod already called: the whole flight is refused
        services.start_flight(event_id=event.pk, pod_ids=[pod.pk, other.pk], actor=organiser, now=T0)
    assert selectors.called_pod(other) is None or selectors.called_pod(other).started_at is None


def test_resuming_one_pod_of_a_paused_flight_resumes_the_flight(organiser, judge):
    """Issue 27: one pod's Resume ends the flight's pause on every pod of the flight (lockstep
    kept); a pod a judge also paused on its own stays paused until that pod is resumed."""
    event, pods = make_paper_event(organiser, pods=3, per_pod=2, judge=judge)
    flight = services.start_flight(event_id=event.pk, pod_ids=[p.pk for p in pods], actor=organiser, now=T0)
    services.control_flight(flight_id=flight.pk, action="pause", actor=judge, reason="Fire alarm", now=T0 + s(10))
    services.control_pod(pod_id=pods[2].pk, action="pause", actor=judge, reason="Missing pack", now=T0 + s(20))
    services.control_pod(pod_id=pods[0].pk, action="resume", actor=judge, now=T0 + s(100))
    first, second, third = (call(p, T0 + s(105)) for p in pods)
    assert first == second and (first["paused"], first["pick"], first["remaining_ms"]) == (False, 1, 25_000)
    assert third["paused"] and third["remaining_ms"] == 30_000
    services.control_pod(pod_id=pods[2].pk, action="resume", actor=judge, now=T0 + s(110))
    assert not call(pods[2], T0 + s(110))["paused"]
    # Nothing left to resume anywhere: a second resume of the same pod is refused.
    with pytest.raises(ConflictError):
        services.control_pod(pod_id=pods[0].pk, action="resume", actor=judge, now=T0 + s(120))
