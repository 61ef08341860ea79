"""Conservation under random sequences of picks, clocks, pauses and seat changes (hypothesis)."""

from __future__ import annotations

import datetime as dt

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from cards.models import Card, CardFace
from cards.name_folding import normalize_name
from drafts import services
from drafts.models import DraftCard, Pack, PodState, Seat
from drafts.simulation import check_conservation
from draftsite.errors import DomainError
from events import services as event_services
from events.access import SYSTEM
from tests.factories import UserFactory

T0 = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)

steps = st.lists(
    st.one_of(
        st.tuples(st.just("pick"), st.integers(0, 7), st.integers(0, 14), st.none() | st.integers(0, 50)),
        st.tuples(st.just("wait"), st.integers(1, 90)),
        st.tuples(st.just("pause")),
        st.tuples(st.just("resume")),
        st.tuples(st.just("advance")),
        st.tuples(st.just("automatic"), st.integers(0, 7)),
        st.tuples(st.just("move"), st.integers(0, 7), st.integers(0, 40), st.integers(0, 40)),
    ),
    max_size=60,
)


class ConservationProperties(TestCase):
    @classmethod
    def setUpTestData(cls):
        cards = Card.objects.bulk_create(
            Card(
                name=f"Prop {i}",
                search_name=normalize_name(f"Prop {i}"),
                layout="transform" if i % 4 == 0 else "normal",
            )
            for i in range(360)
        )
        CardFace.objects.bulk_create(
            CardFace(card=c, position=0, name=c.name, search_name=c.search_name) for c in cards
        )
        cls.names = [c.name for c in cards]
        cls.users = [UserFactory(username=f"prop{i}") for i in range(8)]

    @settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(timer=st.booleans(), seed=st.integers(0, 2**32), plan=steps)
    def test_every_card_stays_in_exactly_one_place(self, timer, seed, plan):
        event = services.create_event(
            name="p", date=T0.date(), draft_format="cube", cube_list=self.names, pick_timer=timer
        )
        regs = [event_services.register_player(event_id=event.pk, user=u, actor=SYSTEM) for u in self.users]
        (pod,) = services.seat_players(event_id=event.pk, seed=seed, pods=[[r.pk for r in regs]], actor=SYSTEM)
        services.start_pod(pod_id=pod.pk, now=T0, actor=SYSTEM)
        seats = list(Seat.objects.filter(pod=pod).order_by("position"))
        now = T0
        for step in plan:
            kind = step[0]
            try:
                if kind == "pick":
                    seat = seats[step[1]]
                    pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
                    cards = list(DraftCard.objects.in_pack(pack)) if pack else []
                    target = cards[step[2] % len(cards)].pk if cards else 1
                    services.make_pick(seat_id=seat.pk, draft_card_id=target, position=step[3], now=now, actor=SYSTEM)
                elif kind == "wait":
                    now += dt.timedelta(seconds=step[1])
                    services.enforce_deadlines(pod_id=pod.pk, now=now)
                elif kind == "pause":
                    services.pause_pod(pod_id=pod.pk, now=now, actor=SYSTEM)
                elif kind == "resume":
                    services.resume_pod(pod_id=pod.pk, now=now, actor=SYSTEM)
                elif kind == "advance":
                    services.advance_round(pod_id=pod.pk, now=now, actor=SYSTEM)
                elif kind == "automatic":
                    services.replace_with_automatic(seat_id=seats[step[1]].pk, now=now, actor=SYSTEM)
                elif kind == "move":
                    pile = list(DraftCard.objects.in_pile(seats[step[1]]))
                    if pile:
                        services.move_pile_card(
                            seat_id=seats[step[1]].pk,
                            draft_card_id=pile[step[2] % len(pile)].pk,
                            position=step[3] % len(pile),
                            actor=SYSTEM,
                        )
            except DomainError:
                pass  # refused cleanly; the state must still be whole
            assert check_conservation(pod) == []
        pod.refresh_from_db()
        assert pod.state in set(PodState.values)
        # Each seat's picks are numbered 1..n within each round, without gaps or repeats.
        for seat in seats:
            for round_number in (1, 2, 3):
                numbers = list(
                    seat.picks.filter(round=round_number).order_by("pick_number").values_list("pick_number", flat=True)
                )
                assert numbers == list(range(1, len(numbers) + 1))
