"""Races: two requests at once never duplicate or lose a card (threads, real transactions).

On PostgreSQL (CI) the pod row lock serialises them; on the embedded SQLite site writers
queue for the database lock. Either way exactly one of two racing picks wins.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from drafts import services
from drafts.models import DraftCard, Pack, Pick, PickKind, PodAction, PodLogEntry, PodState, Seat
from drafts.services import settle_pod_for_reading
from drafts.simulation import check_conservation
from draftsite.errors import DomainError
from events.access import SYSTEM
from tests.drafts.conftest import make_pod
from tests.races import codes, race

# serialized_rollback: these tests commit for real, and the seed catalogue must come back.
pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def head_cards(seat):
    pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
    return pack, list(DraftCard.objects.in_pack(pack))


def assert_conserved(pod):
    assert check_conservation(pod) == []


@pytest.mark.parametrize("attempt", range(3))
def test_double_clicked_pick_is_taken_once(organiser, players, cube_names, attempt):
    pod = make_pod(organiser, players, cube_names, now=timezone.now())
    seat = Seat.objects.get(pod=pod, position=0)
    pack, cards = head_cards(seat)
    pick = lambda: services.make_pick(seat_id=seat.pk, draft_card_id=cards[0].pk, pack_id=pack.pk, actor=SYSTEM)  # noqa: E731
    results = race(pick, pick)
    assert codes(results) == ["already_picked", "ok"]
    assert Pick.objects.filter(seat=seat).count() == 1
    assert_conserved(pod)


def test_two_tabs_picking_different_cards_take_one(organiser, players, cube_names):
    pod = make_pod(organiser, players, cube_names, now=timezone.now())
    seat = Seat.objects.get(pod=pod, position=0)
    pack, cards = head_cards(seat)
    results = race(
        lambda: services.make_pick(seat_id=seat.pk, draft_card_id=cards[0].pk, pack_id=pack.pk, actor=SYSTEM),
        lambda: services.make_pick(seat_id=seat.pk, draft_card_id=cards[1].pk, pack_id=pack.pk, actor=SYSTEM),
    )
    # The loser's pack has moved on (or no pack is waiting): refused, never a second pick.
    assert codes(results)[1] == "ok" and codes(results)[0] in {"wrong_pack", "no_pack"}
    assert Pick.objects.filter(seat=seat).count() == 1
    assert_conserved(pod)


def test_timer_firing_during_a_manual_pick_gives_one_pick(organiser, players, cube_names):
    start = timezone.now() - timedelta(seconds=39)
    pod = make_pod(organiser, players, cube_names, now=start)
    seat = Seat.objects.get(pod=pod, position=0)
    pack, cards = head_cards(seat)
    at_deadline = start + timedelta(seconds=40, milliseconds=1)
    results = race(
        lambda: services.make_pick(
            seat_id=seat.pk, draft_card_id=cards[-1].pk, pack_id=pack.pk, now=at_deadline, actor=SYSTEM
        ),
        lambda: services.enforce_deadlines(pod_id=pod.pk, now=at_deadline),
    )
    assert not any(isinstance(r, Exception) and not isinstance(r, DomainError) for r in results)
    picks = list(Pick.objects.filter(seat=seat, round=1, pick_number=1))
    assert len(picks) == 1
    # Deadline passed, so the timer's pick wins whichever thread ran first.
    assert picks[0].kind == PickKind.TIMEOUT
    assert_conserved(pod)


def test_every_seat_picking_at_once_loses_nothing(organiser, players, cube_names):
    pod = make_pod(organiser, players, cube_names, pick_timer=False, now=timezone.now())
    seats = list(Seat.objects.filter(pod=pod).order_by("position"))
    for _ in range(3):
        calls = []
        for seat in seats:
            pack, cards = head_cards(seat)
            if pack is not None:
                calls.append(
                    lambda s=seat, p=pack, c=cards[0]: services.make_pick(
                        seat_id=s.pk, draft_card_id=c.pk, pack_id=p.pk, actor=SYSTEM
                    )
                )
        results = race(*calls)
        assert all(not isinstance(r, Exception) for r in results), results
    assert Pick.objects.filter(seat__pod=pod).count() == 24
    settle_pod_for_reading(pod.pk)
    assert_conserved(pod)


@pytest.mark.parametrize("attempt", range(2))
def test_the_last_two_players_ready_at_once_open_the_next_round_once(organiser, players, cube_names, attempt):
    pod = make_pod(organiser, players, cube_names, now=timezone.now(), pick_timer=False)
    seats = list(Seat.objects.filter(pod=pod).order_by("position"))
    while Pack.objects.filter(pod=pod, holder__isnull=False).exists():
        for seat in seats:
            pack, cards = head_cards(seat)
            if pack is not None:
                services.make_pick(seat_id=seat.pk, draft_card_id=cards[0].pk, pack_id=pack.pk, actor=SYSTEM)
    for seat in seats[:-2]:
        services.mark_ready(seat_id=seat.pk, actor=SYSTEM)
    results = race(*(lambda seat=seat: services.mark_ready(seat_id=seat.pk, actor=SYSTEM) for seat in seats[-2:]))
    assert codes(results) == ["ok", "ok"]
    pod.refresh_from_db()
    assert pod.state == PodState.DRAFTING and pod.round == 2
    assert PodLogEntry.objects.filter(pod=pod, action=PodAction.ALL_READY).count() == 1
    assert PodLogEntry.objects.filter(pod=pod, action=PodAction.ROUND_START, details__round=2).count() == 1
    # Each seat was handed exactly one pack of round 2, and no seat is left ready.
    assert sorted(Pack.objects.filter(pod=pod, round=2).values_list("holder_id", flat=True)) == sorted(
        s.pk for s in seats
    )
    assert not Seat.objects.filter(pod=pod, ready=True).exists()
    assert_conserved(pod)
