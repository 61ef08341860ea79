"""Timers are fair under load: the time the server received a pick decides.

The rule: a pick the server received before its pack's deadline is the player's pick, even
when it reaches the database after the deadline (a slow database, a busy process); a pick
received after the deadline finds the timer's pick already made. The enforcers (the worker's
sweep, reads) wait ``PICK_TIMER_GRACE_SECONDS`` after a deadline, and a pick already waiting
for the pod's row is served before a timer that comes after it.
"""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, transaction

from drafts import services
from drafts.locking import lock_pod
from drafts.models import DraftCard, Pack, Pick, PickKind, Seat
from drafts.simulation import check_conservation
from draftsite.errors import DomainError
from events.access import SYSTEM
from tests.drafts.conftest import T0, make_pod, seconds

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def in_thread(target, results: dict, name: str) -> threading.Thread:
    def run():
        try:
            results[name] = target()
        except Exception as error:  # noqa: BLE001 - the test inspects it
            results[name] = error
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def front(seat: Seat) -> tuple[Pack, list[DraftCard]]:
    pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
    return pack, list(DraftCard.objects.in_pack(pack))


def test_a_pick_received_in_time_beats_the_timer_on_a_slow_database(organiser, players, cube_names):
    pod = make_pod(organiser, players, cube_names, now=T0)
    seat = Seat.objects.get(pod=pod, position=0)
    pack, cards = front(seat)
    deadline = pack.deadline
    assert deadline == T0 + seconds(40)
    results: dict = {}
    held, release = threading.Event(), threading.Event()

    def slow_database():  # another transaction holds the pod's row: everything waits
        with transaction.atomic():
            lock_pod(pod.pk)
            held.set()
            release.wait(10)

    blocker = in_thread(slow_database, results, "blocker")
    assert held.wait(10)
    # Received 200 ms before the deadline; it reaches the pod a second after it.
    pick = in_thread(
        lambda: services.make_pick(
            seat_id=seat.pk,
            draft_card_id=cards[3].pk,
            pack_id=pack.pk,
            owner=players[0],
            received_at=deadline - seconds(0.2),
            now=deadline + seconds(1),
            actor=SYSTEM,
        ),
        results,
        "pick",
    )
    time.sleep(0.5)  # the pick is waiting for the row; now the timer fires, long past the deadline
    timer = in_thread(lambda: services.enforce_deadlines(pod_id=pod.pk, now=deadline + seconds(5)), results, "timer")
    time.sleep(0.5)
    release.set()
    for thread in (blocker, pick, timer):
        thread.join(20)
    assert not isinstance(results["pick"], Exception), results["pick"]
    made = Pick.objects.get(seat=seat, round=1, pick_number=1)
    assert made.kind == PickKind.MANUAL and made.draft_card_id == cards[3].pk
    assert made.made_at == deadline - seconds(0.2)  # recorded when the server received it
    assert check_conservation(pod) == []


def test_a_pick_received_after_the_deadline_finds_the_timer_pick(organiser, players, cube_names):
    pod = make_pod(organiser, players, cube_names, now=T0)
    seat = Seat.objects.get(pod=pod, position=0)
    pack, cards = front(seat)
    with pytest.raises(DomainError) as refused:
        services.make_pick(
            seat_id=seat.pk,
            draft_card_id=cards[3].pk,
            pack_id=pack.pk,
            owner=players[0],
            received_at=pack.deadline + seconds(0.1),
            now=pack.deadline + seconds(0.2),
            actor=SYSTEM,
        )
    assert refused.value.code in {"wrong_pack", "no_pack"}  # its pack was passed on by the timer
    made = Pick.objects.get(seat=seat, round=1, pick_number=1)
    assert made.kind == PickKind.TIMEOUT and made.made_at == pack.deadline
    assert check_conservation(pod) == []


def test_a_pick_received_in_time_and_processed_late_is_the_players(organiser, players, cube_names):
    """No lock race at all: the pick simply reaches the engine after the deadline."""
    pod = make_pod(organiser, players, cube_names, now=T0)
    seat = Seat.objects.get(pod=pod, position=0)
    pack, cards = front(seat)
    result = services.make_pick(
        seat_id=seat.pk,
        draft_card_id=cards[5].pk,
        pack_id=pack.pk,
        owner=players[0],
        received_at=pack.deadline - seconds(0.01),
        now=pack.deadline + seconds(3),
        actor=SYSTEM,
    )
    assert result.kind == PickKind.MANUAL and result.draft_card_id == cards[5].pk
    assert not Pick.objects.filter(seat=seat, kind=PickKind.TIMEOUT).exists()
    # The other seats' clocks did run out by "now": their timer picks are made after this one.
    assert Pick.objects.filter(seat__pod=pod, kind=PickKind.TIMEOUT).count() == 7


def test_the_enforcers_wait_the_grace_period(organiser, players, cube_names, settings):
    settings.PICK_TIMER_GRACE_SECONDS = 2
    pod = make_pod(organiser, players, cube_names, now=T0)
    deadline = T0 + seconds(40)
    assert services.enforce_deadlines(pod_id=pod.pk, now=deadline + seconds(1.9), grace=True) is False
    assert not Pick.objects.filter(seat__pod=pod).exists()
    assert services.enforce_deadlines(pod_id=pod.pk, now=deadline + seconds(2), grace=True) is True
    timeouts = Pick.objects.filter(seat__pod=pod, kind=PickKind.TIMEOUT)
    assert timeouts.count() == 8 and {p.made_at for p in timeouts} == {deadline}


def test_organiser_controls_wait_the_grace_period_too(organiser, players, cube_names, settings):
    """A pause one second after a deadline does not take the timeout picks that the sweep would
    still wait for (a player's pick received in time may be waiting for the pod): the clocks
    freeze at zero, and after the resume the enforcers wait the grace period again."""
    settings.PICK_TIMER_GRACE_SECONDS = 2
    pod = make_pod(organiser, players, cube_names, now=T0)
    seat = Seat.objects.get(pod=pod, position=0)
    pack, _ = front(seat)
    services.pause_pod(pod_id=pod.pk, actor=organiser, now=pack.deadline + seconds(1))
    assert not Pick.objects.filter(seat__pod=pod).exists()
    pack.refresh_from_db()
    assert pack.holder_id == seat.pk and pack.deadline is None and pack.remaining_ms == 0
    resumed_at = T0 + seconds(300)
    services.resume_pod(pod_id=pod.pk, actor=organiser, now=resumed_at)
    assert not Pick.objects.filter(seat__pod=pod).exists()
    assert services.enforce_deadlines(pod_id=pod.pk, now=resumed_at + seconds(1.9), grace=True) is False
    assert services.enforce_deadlines(pod_id=pod.pk, now=resumed_at + seconds(2), grace=True) is True
    timeouts = Pick.objects.filter(seat__pod=pod, kind=PickKind.TIMEOUT)
    assert timeouts.count() == 8 and {p.made_at for p in timeouts} == {resumed_at}
    assert check_conservation(pod) == []
