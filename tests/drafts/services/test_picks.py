"""The draft engine through its services: picks, passing, queues, clocks, pause, seats, R17."""

from __future__ import annotations

import pytest

from drafts import services
from drafts.models import DraftCard, Pack, Pick, PickKind, PodLogEntry, PodState, Seat
from drafts.selectors import seat_view
from drafts.services import settle_pod_for_reading
from drafts.simulation import check_conservation
from draftsite.errors import DomainError
from events import services as event_services
from events.access import SYSTEM
from tests.drafts.conftest import T0, make_pod, seconds
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def head(seat):
    return Pack.objects.filter(holder=seat).order_by("queue_seq").first()


def first_card(pack):
    return DraftCard.objects.in_pack(pack).first()


def pick_first(seat, now, **kwargs):
    pack = head(seat)
    return services.make_pick(seat_id=seat.pk, draft_card_id=first_card(pack).pk, now=now, actor=SYSTEM, **kwargs)


def assert_conserved(pod):
    """Every opened card is in exactly one pack or one pile, and the piles are the picks' cards."""
    assert DraftCard.objects.filter(pod=pod).count() == 3 * 8 * 15
    assert check_conservation(pod) == []


def test_start_opens_three_rounds_and_hands_out_round_one(pod, seats):
    assert pod.state == PodState.DRAFTING and pod.round == 1
    assert Pack.objects.filter(pod=pod).count() == 24
    for seat in seats:
        pack = head(seat)
        assert pack.opener_id == seat.pk and pack.cards_left == 15
        assert pack.deadline == T0 + seconds(40)
    assert Pack.objects.filter(pod=pod, round__gt=1, holder__isnull=False).count() == 0
    assert_conserved(pod)


def test_start_is_reproducible_from_the_seed(organiser, players, cube_names):
    first = make_pod(organiser, players[:4], cube_names, seed=11)
    contents = [
        list(DraftCard.objects.filter(opened_in=p).order_by("slot").values_list("card_id", flat=True))
        for p in Pack.objects.filter(pod=first).order_by("round", "opener__position")
    ]

    others = [UserFactory(username=f"q{i}") for i in range(4)]
    second = make_pod(organiser, others, cube_names, seed=11)
    again = [
        list(DraftCard.objects.filter(opened_in=p).order_by("slot").values_list("card_id", flat=True))
        for p in Pack.objects.filter(pod=second).order_by("round", "opener__position")
    ]
    assert first.seed == second.seed and contents == again


def test_a_pick_moves_the_card_and_passes_left(pod, seats):
    pack = head(seats[0])
    card = first_card(pack)
    pick = services.make_pick(seat_id=seats[0].pk, draft_card_id=card.pk, now=T0 + seconds(5), actor=SYSTEM)
    pack.refresh_from_db()
    seats[0].refresh_from_db()
    assert seats[0].pile_ids == [card.pk] and card.pk not in pack.card_ids
    assert (pick.round, pick.pick_number, pick.kind) == (1, 1, PickKind.MANUAL)
    assert pack.holder_id == seats[1].pk and pack.cards_left == 14
    # Seat 1 still has its own pack first: the passed pack waits, its clock not running.
    assert head(seats[1]).opener_id == seats[1].pk and pack.deadline is None
    assert_conserved(pod)


def test_round_two_passes_right(organiser, players, cube_names):
    pod = make_pod(organiser, players, cube_names, pick_timer=False)
    seats = list(Seat.objects.filter(pod=pod).order_by("position"))
    now = T0
    for _ in range(15):
        for seat in seats:
            if head(seat) is not None:
                pick_first(seat, now)
    pod.refresh_from_db()
    assert pod.state == PodState.REVIEWING and pod.review_deadline is None  # timers off: no clock
    services.advance_round(pod_id=pod.pk, now=now, actor=SYSTEM)
    pack = head(seats[3])
    pick_first(seats[3], now)
    pack.refresh_from_db()
    assert pack.holder_id == seats[2].pk


def test_slow_drafter_queues_packs_and_picks_only_from_the_first(pod, seats):
    now = T0 + seconds(1)
    pick_first(seats[0], now)
    pick_first(seats[7], now)  # seat 7 passes left, to seat 0
    pick_first(seats[1], now)
    queue = list(Pack.objects.filter(holder=seats[0]).order_by("queue_seq"))
    assert len(queue) == 1  # seat 0 picked from its own; only seat 7's pack waits
    pick_first(seats[6], now)
    pick_first(seats[7], now)
    queue = list(Pack.objects.filter(holder=seats[0]).order_by("queue_seq"))
    assert [p.cards_left for p in queue] == [14, 13]
    with pytest.raises(DomainError) as err:
        services.make_pick(seat_id=seats[0].pk, draft_card_id=first_card(queue[1]).pk, now=now, actor=SYSTEM)
    assert err.value.code == "card_not_in_pack"


def test_double_click_is_taken_once(pod, seats):
    card = first_card(head(seats[0]))
    services.make_pick(seat_id=seats[0].pk, draft_card_id=card.pk, now=T0, actor=SYSTEM)
    with pytest.raises(DomainError) as err:
        services.make_pick(seat_id=seats[0].pk, draft_card_id=card.pk, now=T0, actor=SYSTEM)
    assert err.value.code == "already_picked" and err.value.status_code == 409
    assert Pick.objects.filter(seat=seats[0]).count() == 1


def test_stale_pack_is_refused(pod, seats):
    pack = head(seats[0])
    cards = list(DraftCard.objects.in_pack(pack))
    services.make_pick(seat_id=seats[0].pk, draft_card_id=cards[0].pk, pack_id=pack.pk, now=T0, actor=SYSTEM)
    pick_first(seats[7], T0)  # a new pack reaches seat 0
    with pytest.raises(DomainError) as err:
        services.make_pick(seat_id=seats[0].pk, draft_card_id=cards[1].pk, pack_id=pack.pk, now=T0, actor=SYSTEM)
    assert err.value.code == "wrong_pack"


def test_another_seats_card_gets_no_hint(pod, seats):
    other = first_card(head(seats[4]))
    with pytest.raises(DomainError) as err:
        services.make_pick(seat_id=seats[0].pk, draft_card_id=other.pk, now=T0, actor=SYSTEM)
    assert err.value.code == "card_not_in_pack"
    assert str(other.card_id) not in err.value.message and "seat" not in err.value.message.lower()


def test_expired_timer_picks_automatically_on_read(pod, seats):
    later = T0 + seconds(41)
    settle_pod_for_reading(pod.pk, later)
    picks = Pick.objects.filter(seat__pod=pod)
    assert picks.count() == 8 and set(picks.values_list("kind", flat=True)) == {PickKind.TIMEOUT}
    assert all(p.made_at == T0 + seconds(40) for p in picks)
    assert PodLogEntry.objects.filter(pod=pod, action="automatic_pick").count() == 8
    # The passed packs started their clocks when they arrived (14 cards: 40 s).
    assert head(seats[1]).deadline == T0 + seconds(80)
    assert settle_pod_for_reading(pod.pk, later) is not None  # idempotent: nothing more happens
    assert picks.count() == 8


def test_a_manual_pick_after_the_deadline_loses_to_the_timer(pod, seats):
    pack = head(seats[0])
    card = DraftCard.objects.in_pack(pack).order_by("-place").first()
    services.make_pick(seat_id=seats[1].pk, draft_card_id=first_card(head(seats[1])).pk, now=T0, actor=SYSTEM)
    with pytest.raises(DomainError) as err:
        services.make_pick(
            seat_id=seats[0].pk, draft_card_id=card.pk, pack_id=pack.pk, now=T0 + seconds(40.5), actor=SYSTEM
        )
    # no_pack: the other seats' clocks ran out too, but they get the grace period (their own
    # picks may be on the way), so no pack has reached seat 1 yet.
    assert err.value.code in {"wrong_pack", "card_not_in_pack", "no_pack"}
    assert Pick.objects.get(seat=seats[0]).kind == PickKind.TIMEOUT


def test_pause_freezes_and_resume_restores_the_time_left(pod, seats):
    services.pause_pod(pod_id=pod.pk, now=T0 + seconds(30), actor=SYSTEM)
    pod.refresh_from_db()
    assert pod.state == PodState.PAUSED
    assert head(seats[0]).remaining_ms == 10_000 and head(seats[0]).deadline is None
    settle_pod_for_reading(pod.pk, T0 + seconds(500))  # nothing expires while paused
    assert Pick.objects.filter(seat__pod=pod).count() == 0
    with pytest.raises(DomainError) as err:
        pick_first(seats[0], T0 + seconds(501))
    assert err.value.code == "pod_paused"
    services.resume_pod(pod_id=pod.pk, now=T0 + seconds(600), actor=SYSTEM)
    assert head(seats[0]).deadline == T0 + seconds(610)
    with pytest.raises(DomainError) as err:
        services.resume_pod(pod_id=pod.pk, now=T0 + seconds(601), actor=SYSTEM)
    assert err.value.code == "pod_not_paused"


def test_replacing_a_player_keeps_the_pile_and_drafts_on(pod, seats):
    pick_first(seats[2], T0)
    services.replace_with_automatic(seat_id=seats[2].pk, now=T0 + seconds(2), actor=SYSTEM)
    assert DraftCard.objects.in_pile(seats[2]).count() == 1
    pick_first(seats[1], T0 + seconds(3))  # passes to seat 2, whose drafter picks at once
    kinds = list(Pick.objects.filter(seat=seats[2]).values_list("kind", flat=True))
    assert kinds == [PickKind.MANUAL, PickKind.AUTOMATIC_DRAFTER]
    assert Pack.objects.filter(holder=seats[2]).count() == 0


def test_handing_a_seat_to_another_player(pod, seats, django_user_model):
    pick_first(seats[5], T0)
    newcomer = UserFactory(username="late")
    reg = event_services.register_player(event_id=pod.event_id, user=newcomer, actor=SYSTEM)
    seat = services.hand_seat(seat_id=seats[5].pk, registration_id=reg.pk, now=T0, actor=SYSTEM)
    assert seat.registration_id == reg.pk and DraftCard.objects.in_pile(seat).count() == 1
    with pytest.raises(DomainError) as err:
        services.hand_seat(seat_id=seats[4].pk, registration_id=reg.pk, now=T0, actor=SYSTEM)
    assert err.value.code == "seat_taken"


def test_r17_picks_go_anywhere_in_the_pile_and_can_be_reordered(organiser, players, cube_names):
    pod = make_pod(organiser, players, cube_names, pick_timer=False)
    seat = Seat.objects.get(pod=pod, position=0)
    others = list(Seat.objects.filter(pod=pod).exclude(pk=seat.pk).order_by("position"))
    order = []
    for position in (None, 0, 1):
        card = first_card(head(seat))
        services.make_pick(seat_id=seat.pk, draft_card_id=card.pk, position=position, now=T0, actor=SYSTEM)
        order.insert(len(order) if position is None else position, card.pk)
        for other in others:
            if head(other):
                pick_first(other, T0)
    assert list(DraftCard.objects.in_pile(seat).values_list("pk", flat=True)) == order
    services.move_pile_card(seat_id=seat.pk, draft_card_id=order[2], position=0, actor=SYSTEM)
    order.insert(0, order.pop(2))
    assert list(DraftCard.objects.in_pile(seat).values_list("pk", flat=True)) == order
    with pytest.raises(DomainError) as err:
        services.move_pile_card(seat_id=seat.pk, draft_card_id=order[0], position=3, actor=SYSTEM)
    assert err.value.code == "invalid_position"
    with pytest.raises(DomainError) as err:
        services.move_pile_card(seat_id=seat.pk, draft_card_id=first_card(head(others[0])).pk, position=0, actor=SYSTEM)
    assert err.value.code == "card_not_in_pile"
    services.set_pile_cover(seat_id=seat.pk, cover="checklist", actor=SYSTEM)
    assert seat_view(seat, T0)["seat"]["pile_cover"] == "checklist"


def test_whole_draft_by_timers_ends_in_deck_building(pod, seats):
    settle_pod_for_reading(pod.pk, T0 + seconds(3 * 3600))
    pod.refresh_from_db()
    assert pod.state == PodState.DONE  # 25 minutes of deck building have passed too
    assert Pick.objects.filter(seat__pod=pod).count() == 360
    for seat in seats:
        assert list(Pick.objects.filter(seat=seat).values_list("round", "pick_number")) == [
            (r, n) for r in (1, 2, 3) for n in range(1, 16)
        ]
    kinds = set(Pick.objects.filter(seat__pod=pod).values_list("kind", flat=True))
    assert kinds == {PickKind.TIMEOUT, PickKind.LAST_CARD}
    assert_conserved(pod)
    log = list(
        PodLogEntry.objects.filter(pod=pod, action__in=["round_start", "round_end"]).values_list(
            "action", "details__round"
        )
    )
    assert log == [
        ("round_start", 1),
        ("round_end", 1),
        ("round_start", 2),
        ("round_end", 2),
        ("round_start", 3),
        ("round_end", 3),
    ]


def test_review_clock_between_rounds(pod, seats):
    # Round 1 ends when the timers have taken every card: sum of the table for 15..2 cards.
    end_of_round = T0 + seconds(sum([40, 40, 35, 30, 25, 25, 20, 20, 15, 10, 10, 5, 5, 5]))
    settle_pod_for_reading(pod.pk, end_of_round + seconds(1))
    pod.refresh_from_db()
    assert pod.state == PodState.REVIEWING and pod.round == 1
    assert pod.review_deadline == end_of_round + seconds(60)
    settle_pod_for_reading(pod.pk, end_of_round + seconds(61))
    pod.refresh_from_db()
    assert pod.state == PodState.DRAFTING and pod.round == 2


def test_everyone_ready_starts_the_next_round(organiser, players, cube_names):
    pod = make_pod(organiser, players, cube_names, pick_timer=False)
    seats = list(Seat.objects.filter(pod=pod).order_by("position"))
    for _ in range(15):
        for seat in seats:
            if head(seat):
                pick_first(seat, T0)
    for seat in seats[:-1]:
        services.mark_ready(seat_id=seat.pk, now=T0, actor=SYSTEM)
    pod.refresh_from_db()
    assert pod.state == PodState.REVIEWING
    services.mark_ready(seat_id=seats[-1].pk, now=T0, actor=SYSTEM)
    pod.refresh_from_db()
    assert pod.state == PodState.DRAFTING and pod.round == 2


def test_pod_cannot_start_twice(pod):
    with pytest.raises(DomainError) as err:
        services.start_pod(pod_id=pod.pk, now=T0, actor=SYSTEM)
    assert err.value.code == "pod_already_started"


def test_r17_pile_moves_and_the_pile_cover_bump_the_version_and_tell_live_pages(
    pod, seats, django_capture_on_commit_callbacks, monkeypatch
):
    """Other seats' boards show piles' DFCs in order and the cover: they must hear of changes."""
    from drafts import live

    heard = []
    monkeypatch.setattr(live, "notify_pod", lambda pod_id, version, arrivals=None: heard.append((pod_id, version)))
    for _ in range(2):
        for seat in seats:
            pick_first(seat, T0)
    cards = list(DraftCard.objects.in_pile(seats[0]))
    pod.refresh_from_db()
    before = pod.version
    with django_capture_on_commit_callbacks(execute=True):
        services.move_pile_card(seat_id=seats[0].pk, draft_card_id=cards[1].pk, position=0, actor=SYSTEM)
    pod.refresh_from_db()
    assert pod.version == before + 1 and heard == [(pod.pk, pod.version)]
    with django_capture_on_commit_callbacks(execute=True):
        services.set_pile_cover(seat_id=seats[0].pk, cover="basic_land", actor=SYSTEM)
    pod.refresh_from_db()
    assert pod.version == before + 2 and heard[-1] == (pod.pk, pod.version)


def test_a_finished_pod_refuses_seat_hand_over_and_automatic_replacement(pod, seats, django_user_model):
    from drafts.models import Pod

    newcomer = UserFactory(username="late")
    reg = event_services.register_player(event_id=pod.event_id, user=newcomer, actor=SYSTEM)
    Pod.objects.filter(pk=pod.pk).update(state=PodState.DONE)
    for attempt in (
        lambda: services.hand_seat(seat_id=seats[5].pk, registration_id=reg.pk, now=T0, actor=SYSTEM),
        lambda: services.replace_with_automatic(seat_id=seats[5].pk, now=T0, actor=SYSTEM),
    ):
        with pytest.raises(DomainError) as err:
            attempt()
        assert err.value.code == "pod_finished" and err.value.status_code == 409
    seat = Seat.objects.get(pk=seats[5].pk)
    assert seat.registration_id == seats[5].registration_id and not seat.is_automatic
    assert not PodLogEntry.objects.filter(pod=pod, action__in=["hand_seat", "replace_with_automatic"]).exists()
