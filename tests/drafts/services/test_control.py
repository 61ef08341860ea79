"""Organiser controls behind the pod page (drafts/services/control.py): extend clocks, the
deck-building clock, starting deck building, and the revocable spectator link."""

from __future__ import annotations

import datetime as dt

import pytest

from drafts import dashboards, error_codes, services
from drafts.models import DraftCard, Pack, PodLogEntry, PodState, Seat
from draftsite.errors import ConflictError, DomainError
from events.access import SYSTEM
from tests.drafts.conftest import T0, make_pod, seconds

pytestmark = pytest.mark.django_db


def held(pod):
    return {p.holder_id: p for p in Pack.objects.filter(pod=pod, holder__isnull=False).order_by("queue_seq")}


def finish_round(pod, at):
    while Pack.objects.filter(pod=pod, round=pod.round, holder__isnull=False).exists():
        for seat in Seat.objects.filter(pod=pod).order_by("position"):
            pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
            if pack is not None and pack.round == pod.round:
                card = DraftCard.objects.in_pack(pack).first()
                services.make_pick(seat_id=seat.pk, draft_card_id=card.pk, pack_id=pack.pk, now=at, actor=SYSTEM)
        pod.refresh_from_db()


def to_deck_building(pod, at):
    for _ in range(3):
        finish_round(pod, at)
        if pod.state == PodState.REVIEWING:
            services.advance_round(pod_id=pod.pk, now=at, actor=SYSTEM)
            pod.refresh_from_db()
    assert pod.state == PodState.DECK_BUILDING


def test_extend_every_pick_timer_or_one_seats(organiser, players, cube_names):
    pod = make_pod(organiser, players, cube_names)
    before = {k: p.deadline for k, p in held(pod).items()}
    services.extend_clocks(pod_id=pod.pk, seconds=30, actor=organiser, now=T0 + seconds(5))
    after = {k: p.deadline for k, p in held(pod).items()}
    assert all(after[k] == before[k] + seconds(30) for k in before)
    seat = Seat.objects.get(pod=pod, position=3)
    services.extend_clocks(pod_id=pod.pk, seconds=15, seat_id=seat.pk, actor=organiser, now=T0 + seconds(6))
    again = {k: p.deadline for k, p in held(pod).items()}
    assert again[seat.pk] == after[seat.pk] + seconds(15)
    assert all(again[k] == after[k] for k in after if k != seat.pk)
    entry = PodLogEntry.objects.filter(pod=pod, action="extend_clocks").last()
    assert entry.actor == organiser and entry.details == {"seconds": 15, "clock": "pick", "clocks": 1, "seat": 3}
    # The extra time really holds: at the old deadline no automatic pick happens.
    services.enforce_deadlines(pod_id=pod.pk, now=T0 + seconds(41))
    assert not PodLogEntry.objects.filter(pod=pod, action="automatic_pick").exists()
    assert dashboards.describe(entry) == "Pick timers extended by 15 s for seat 4"


def test_a_timer_that_already_ran_out_is_not_brought_back(organiser, players, cube_names):
    pod = make_pod(organiser, players, cube_names)
    services.extend_clocks(pod_id=pod.pk, seconds=30, actor=organiser, now=T0 + seconds(45))
    # Every first pick was made automatically at 40 s; the new packs got +30 s on top.
    assert PodLogEntry.objects.filter(pod=pod, action="automatic_pick").count() == 8
    assert all(p.deadline == T0 + seconds(40 + 40 + 30) for p in held(pod).values())


def test_extend_while_paused_keeps_the_extra_time_frozen(organiser, players, cube_names):
    pod = make_pod(organiser, players, cube_names)
    services.pause_pod(pod_id=pod.pk, actor=organiser, now=T0 + seconds(10))
    services.extend_clocks(pod_id=pod.pk, seconds=60, actor=organiser, now=T0 + seconds(100))
    assert {p.remaining_ms for p in held(pod).values()} == {90_000}
    services.resume_pod(pod_id=pod.pk, actor=organiser, now=T0 + seconds(200))
    assert {p.deadline for p in held(pod).values()} == {T0 + seconds(290)}


def test_extend_the_review_and_deck_building_clocks(organiser, players, cube_names):
    pod = make_pod(organiser, players, cube_names)
    finish_round(pod, T0 + seconds(1))
    assert pod.state == PodState.REVIEWING
    review = pod.review_deadline
    with pytest.raises(DomainError) as seat_error:
        services.extend_clocks(
            pod_id=pod.pk,
            seconds=30,
            seat_id=Seat.objects.filter(pod=pod).first().pk,
            now=T0 + seconds(2),
            actor=SYSTEM,
        )
    assert seat_error.value.code == "invalid_timer"
    services.extend_clocks(pod_id=pod.pk, seconds=30, actor=organiser, now=T0 + seconds(2))
    pod.refresh_from_db()
    assert pod.review_deadline == review + seconds(30)
    services.advance_round(pod_id=pod.pk, now=T0 + seconds(3), actor=SYSTEM)
    pod.refresh_from_db()
    to_deck_building(pod, T0 + seconds(4))
    deadline = pod.deck_building_deadline
    services.extend_clocks(pod_id=pod.pk, seconds=120, actor=organiser, now=T0 + seconds(5))
    pod.refresh_from_db()
    assert pod.deck_building_deadline == deadline + seconds(120)


@pytest.mark.parametrize("value", [0, -5, 901, "30"])
def test_extend_refuses_bad_seconds_and_changes_nothing(organiser, players, cube_names, value):
    pod = make_pod(organiser, players, cube_names)
    before = {k: p.deadline for k, p in held(pod).items()}
    with pytest.raises(DomainError) as error:
        services.extend_clocks(pod_id=pod.pk, seconds=value, now=T0 + seconds(1), actor=SYSTEM)
    assert error.value.code == "invalid_timer" and error.value.extra["field"] == "seconds"
    assert {k: p.deadline for k, p in held(pod).items()} == before


def test_extend_needs_a_running_clock(organiser, players, cube_names):
    unstarted = make_pod(organiser, players, cube_names, start=False)
    with pytest.raises(ConflictError) as error:
        services.extend_clocks(pod_id=unstarted.pk, seconds=30, now=T0, actor=SYSTEM)
    assert error.value.code == "pod_not_drafting"


def test_extend_without_a_pick_timer_is_refused(organiser, players, cube_names):
    pod = make_pod(organiser, players, cube_names, pick_timer=False)
    with pytest.raises(ConflictError) as error:
        services.extend_clocks(pod_id=pod.pk, seconds=30, now=T0 + seconds(1), actor=SYSTEM)
    assert error.value.code == error_codes.NO_RUNNING_CLOCK
    assert not PodLogEntry.objects.filter(pod=pod, action="extend_clocks").exists()


def test_deck_building_clock_before_and_during_deck_building(organiser, players, cube_names):
    pod = make_pod(organiser, players, cube_names)
    services.set_deck_building_clock(pod_id=pod.pk, minutes=35, actor=organiser, now=T0 + seconds(1))
    pod.event.refresh_from_db()
    assert pod.event.deck_building_minutes == 35
    to_deck_building(pod, T0 + seconds(2))
    assert pod.deck_building_deadline == T0 + seconds(2) + dt.timedelta(minutes=35)
    services.set_deck_building_clock(pod_id=pod.pk, minutes=10, actor=organiser, now=T0 + seconds(60))
    pod.refresh_from_db()
    assert pod.deck_building_deadline == T0 + seconds(60) + dt.timedelta(minutes=10)
    services.pause_pod(pod_id=pod.pk, now=T0 + seconds(70), actor=SYSTEM)
    services.set_deck_building_clock(pod_id=pod.pk, minutes=5, now=T0 + seconds(80), actor=SYSTEM)
    pod.refresh_from_db()
    assert pod.paused_remaining_ms == 5 * 60_000
    services.resume_pod(pod_id=pod.pk, now=T0 + seconds(100), actor=SYSTEM)
    pod.refresh_from_db()
    assert pod.deck_building_deadline == T0 + seconds(100) + dt.timedelta(minutes=5)
    with pytest.raises(DomainError):
        services.set_deck_building_clock(pod_id=pod.pk, minutes=0, now=T0 + seconds(101), actor=SYSTEM)
    # Once deck building is over there is nothing to set.
    services.enforce_deadlines(pod_id=pod.pk, now=T0 + dt.timedelta(hours=1))
    with pytest.raises(ConflictError) as error:
        services.set_deck_building_clock(pod_id=pod.pk, minutes=5, now=T0 + dt.timedelta(hours=1), actor=SYSTEM)
    assert error.value.code == error_codes.POD_FINISHED


def test_start_deck_building_is_refused_mid_draft_and_restarts_the_clock_after(organiser, players, cube_names):
    pod = make_pod(organiser, players, cube_names)
    with pytest.raises(ConflictError) as error:
        services.start_deck_building(pod_id=pod.pk, actor=organiser, now=T0 + seconds(1))
    assert error.value.code == error_codes.DRAFT_NOT_OVER
    to_deck_building(pod, T0 + seconds(2))
    services.start_deck_building(pod_id=pod.pk, actor=organiser, now=T0 + seconds(300))
    pod.refresh_from_db()
    assert pod.state == PodState.DECK_BUILDING
    assert pod.deck_building_deadline == T0 + seconds(300) + dt.timedelta(minutes=25)
    services.pause_pod(pod_id=pod.pk, now=T0 + seconds(301), actor=SYSTEM)
    with pytest.raises(ConflictError) as paused:
        services.start_deck_building(pod_id=pod.pk, now=T0 + seconds(302), actor=SYSTEM)
    assert paused.value.code == "pod_paused"
    assert PodLogEntry.objects.filter(pod=pod, action="start_deck_building", actor=organiser).exists()


def test_regenerate_the_spectator_token(organiser, players, cube_names):
    pod = make_pod(organiser, players, cube_names)
    old, version = pod.spectator_token, pod.version
    services.regenerate_spectator_token(pod_id=pod.pk, actor=organiser, now=T0 + seconds(1))
    pod.refresh_from_db()
    assert pod.spectator_token and pod.spectator_token != old and pod.version == version + 1
    entry = PodLogEntry.objects.get(pod=pod, action="spectator_link_regenerated")
    assert entry.actor == organiser and old not in str(entry.details) and pod.spectator_token not in str(entry.details)


def test_dashboard_clock_and_holdups(organiser, players, cube_names):
    """The dashboard's reading of a pod: the soonest pick timer, and who holds the pod up."""
    pod = make_pod(organiser, players, cube_names)
    seats = list(Seat.objects.filter(pod=pod).order_by("position"))
    pack = held(pod)[seats[7].pk]
    card = DraftCard.objects.in_pack(pack).first()
    services.make_pick(seat_id=seats[7].pk, draft_card_id=card.pk, pack_id=pack.pk, now=T0 + seconds(3), actor=SYSTEM)
    glance = dashboards.pod_glance(pod, now=T0 + seconds(10))
    assert glance["clock"]["label"] == "Next pick timer" and glance["clock"]["remaining_ms"] == 30_000
    assert glance["pick"] == "1"  # seat 8 waits; everyone else is on pick 1
    # Seat 1 has two packs; seat 7 passes to seat 8, who waits with nothing: both hold up the pod.
    assert [r["number"] for r in glance["holding_up"]] == [1, 7]
