"""The engine against its model: random steps on a pod in the database and on the pure model
(``tests/drafts/engine_model.py``), the whole pod compared after every step.

Steps: picks (of the front pack's cards, another pack's, a stale pack id, received early, by a
player who lost the seat), waits past deadlines (an injected clock), pause, resume, advance,
ready, automatic drafters and hand-overs. The pod compared: its state, round, clocks,
version and queue counter; each seat's pile in order, holder, flags and last pick; each
pack's holder, place in the queues, clocks and cards; every pick; the whole log. A refusal
must carry the model's code; a refused control changes nothing (its transaction rolls back);
a refused pick keeps what fell due before it was received (R15-R17 and the MTR clocks).
"""

from __future__ import annotations

import copy
import datetime as dt
from typing import Any

from django.conf import settings as django_settings
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test

from drafts import services
from drafts.models import DraftCard, Pack, Pick, Pod, PodLogEntry, Seat
from draftsite.errors import DomainError
from events import services as event_services
from events.access import SYSTEM
from events.models import Registration
from tests.drafts import engine_model
from tests.drafts.services.test_fastpath import catalogue
from tests.factories import UserFactory

T0 = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)
SEATS = 4  # a small pod: three rounds of 60 picks, yet every neighbour and direction


def database_pod(pod_id: int) -> dict:
    """The pod's whole state from the database, in the model's terms."""
    pod = Pod.objects.get(pk=pod_id)
    seats = list(Seat.objects.filter(pod_id=pod_id).order_by("position"))
    position = {s.pk: s.position for s in seats}
    piles = {s.position: list(s.pile_ids) for s in seats}
    return {
        "pod": (
            pod.state,
            pod.round,
            pod.version,
            pod.queue_seq,
            pod.review_deadline,
            pod.deck_building_deadline,
            pod.finished_at,
            pod.paused_from,
            pod.paused_remaining_ms,
        ),
        "seats": [(s.registration_id, piles[s.position], s.last_pick_at, s.is_automatic, s.ready) for s in seats],
        "packs": sorted(
            (
                p.pk,
                position.get(p.holder_id),
                p.queue_seq,
                p.arrived_at,
                p.deadline,
                p.picks_made,
                p.remaining_ms,
                list(p.card_ids),
            )
            for p in Pack.objects.filter(pod_id=pod_id)
        ),
        "picks": sorted(
            (
                position[p.seat_id],
                p.round,
                p.pick_number,
                p.draft_card_id,
                p.kind,
                p.made_at,
                tuple(p.pack_contents),
                p.made_by_id is not None,
            )
            for p in Pick.objects.filter(seat__pod_id=pod_id)
        ),
        "log": sorted(
            (e.at, e.action, repr(sorted(e.details.items()))) for e in PodLogEntry.objects.filter(pod_id=pod_id)
        ),
    }


def model_pod(model: engine_model.Pod) -> dict:
    return {
        "pod": (
            model.state,
            model.round,
            model.version,
            model.queue_seq,
            model.review_deadline,
            model.deck_building_deadline,
            model.finished_at,
            model.paused_from,
            model.paused_remaining_ms,
        ),
        "seats": [(s.holder, s.pile, s.last_pick_at, s.automatic, s.ready) for s in model.seats],
        "packs": sorted(
            (p.id, p.holder, p.queue_seq, p.arrived_at, p.deadline, p.picks_made, p.remaining_ms, p.cards)
            for p in model.packs
        ),
        "picks": sorted(model.picks),
        "log": sorted((at, action, repr(sorted(details.items()))) for at, action, details in model.log),
    }


class PodMachine(RuleBasedStateMachine):
    """One pod, in the database and in the model, driven by the same steps."""

    names: list[str]
    users: list

    @initialize(timer=st.booleans(), seed=st.integers(0, 2**31))
    def start(self, timer, seed):
        event = services.create_event(
            name="model", date=T0.date(), draft_format="cube", cube_list=self.names, pick_timer=timer
        )
        regs = [event_services.register_player(event_id=event.pk, user=u, actor=SYSTEM) for u in self.users]
        seated = regs[:SEATS]
        (pod,) = services.seat_players(event_id=event.pk, seed=seed, pods=[[r.pk for r in seated]], actor=SYSTEM)
        self.pod_id = pod.pk
        self.spares = [r.pk for r in regs[SEATS:]]
        self.names_of = dict(Registration.objects.filter(event=event).values_list("pk", "name"))
        self.users_of = {r.pk: r.user_id for r in regs}
        self.now = T0
        services.start_pod(pod_id=pod.pk, now=T0, actor=SYSTEM)
        self.seats = list(Seat.objects.filter(pod_id=pod.pk).order_by("position"))
        cards = {
            c.pk: engine_model.Card(c.pk, c.rarity, c.card.color_identity, c.card_id)
            for c in DraftCard.objects.filter(pod_id=pod.pk).select_related("card")
        }
        opened: dict[int, list[int]] = {}
        for card in DraftCard.objects.filter(pod_id=pod.pk).order_by("slot", "pk"):
            opened.setdefault(card.opened_in_id, []).append(card.pk)
        position = {s.pk: s.position for s in self.seats}
        packs = [
            engine_model.Pack(p.pk, p.round, position[p.opener_id], opened[p.pk], p.initial_size)
            for p in Pack.objects.filter(pod_id=pod.pk)
        ]
        self.model = engine_model.Pod(
            seats=[engine_model.Seat(s.position, s.registration_id) for s in self.seats],
            packs=packs,
            cards=cards,
            timer=timer,
            deck_building_minutes=event.deck_building_minutes,
            grace=dt.timedelta(seconds=django_settings.PICK_TIMER_GRACE_SECONDS),
        )
        self.model.start(T0, pod.seed)

    @invariant()
    def same_pod(self):
        assert database_pod(self.pod_id) == model_pod(self.model)

    def both(self, database, model, *, rolls_back: bool = True) -> None:
        """One step on each; the same refusal, and a refused control leaves the model as it was."""
        before = copy.deepcopy(self.model) if rolls_back else None
        try:
            database()
            got = None
        except DomainError as error:
            got = error.code
        try:
            model(self.model)
            expected = None
        except engine_model.Refused as refused:
            expected = refused.code
            if before is not None:
                self.model = before
        assert got == expected

    def tick(self, seconds: float = 1) -> dt.datetime:
        self.now += dt.timedelta(seconds=seconds)
        return self.now

    # Picks are most of a draft: three rules draw them (hypothesis picks rules evenly).
    picks: dict[str, Any] = dict(
        position=st.integers(0, SEATS - 1),
        which=st.sampled_from(["front", "front", "front", "other pack", "pile"]),
        index=st.integers(0, 14),
        pile_position=st.none() | st.integers(0, 20),
        early=st.sampled_from([0, 0, 500, 1500, 3000, 9000]),
        pack_choice=st.sampled_from(["head", "head", "none", "stale"]),
        holder=st.sampled_from(["holder", "holder", "holder", "first player"]),
        elapsed=st.sampled_from([0.5, 1, 2, 6]),
    )

    @rule(**picks)
    def pick(self, **step):
        self.one_pick(**step)

    @rule(**picks)
    def another_pick(self, **step):
        self.one_pick(**step)

    @rule(**picks)
    def a_third_pick(self, **step):
        self.one_pick(**step)

    def one_pick(self, position, which, index, pile_position, early, pack_choice, holder, elapsed):
        now = self.tick(elapsed)
        seat = self.model.seats[position]
        head = self.model.head(position)
        others = [c for p in self.model.held() if p is not head for c in p.cards]
        pool = {"front": head.cards if head else [], "other pack": others, "pile": seat.pile}[which] or [0]
        card = pool[index % len(pool)]
        pack_id = {"head": head.id if head else None, "none": None, "stale": (head.id + 1) if head else 1}[pack_choice]
        registration = seat.holder if holder == "holder" else self.seats[position].registration_id
        owner = self.users_of.get(registration)
        received = now - dt.timedelta(milliseconds=early)
        self.both(
            lambda: services.make_pick(
                seat_id=self.seats[position].pk,
                draft_card_id=card,
                position=pile_position,
                pack_id=pack_id,
                owner=owner,
                actor=owner,
                now=now,
                received_at=received,
            ),
            lambda m: m.pick(position, card, pack_id, pile_position, registration, received, now),
            rolls_back=False,
        )

    @rule(seconds=st.sampled_from([1, 3, 10, 38, 41, 45, 61, 91, 600, 1900]))
    def wait(self, seconds):
        now = self.tick(seconds)
        self.both(lambda: services.enforce_deadlines(pod_id=self.pod_id, now=now), lambda m: m.wait(now))

    @rule()
    def pause(self):
        now = self.tick()
        self.both(lambda: services.pause_pod(pod_id=self.pod_id, now=now, actor=SYSTEM), lambda m: m.pause(now))

    @rule(seconds=st.sampled_from([1, 30, 120]))
    def resume(self, seconds):
        now = self.tick(seconds)
        self.both(lambda: services.resume_pod(pod_id=self.pod_id, now=now, actor=SYSTEM), lambda m: m.resume(now))

    @rule()
    def advance(self):
        now = self.tick()
        self.both(lambda: services.advance_round(pod_id=self.pod_id, now=now, actor=SYSTEM), lambda m: m.advance(now))

    @rule(position=st.integers(0, SEATS - 1))
    def ready(self, position):
        now = self.tick()
        self.both(
            lambda: services.mark_ready(seat_id=self.seats[position].pk, now=now, actor=SYSTEM),
            lambda m: m.ready(position, now),
            rolls_back=False,
        )

    @rule(position=st.integers(0, SEATS - 1))
    def automatic(self, position):
        now = self.tick()
        self.both(
            lambda: services.replace_with_automatic(seat_id=self.seats[position].pk, now=now, actor=SYSTEM),
            lambda m: m.automatic(position, now),
        )

    @rule(position=st.integers(0, SEATS - 1), spare=st.integers(0, 1))
    def hand(self, position, spare):
        now = self.tick()
        registration = self.spares[spare]
        self.both(
            lambda: services.hand_seat(
                seat_id=self.seats[position].pk, registration_id=registration, now=now, actor=SYSTEM
            ),
            lambda m: m.hand(position, registration, self.names_of, now),
        )


class EngineMatchesItsModel(TestCase):
    @classmethod
    def setUpTestData(cls):
        cards = catalogue("Model", ["W", "U", "B", "R", "G", "WU", ""], transform_every=4)
        PodMachine.names = [c.name for c in cards]
        PodMachine.users = [UserFactory(username=f"model{i}") for i in range(SEATS + 2)]

    def test_every_step_leaves_the_pod_the_model_has(self):
        run_state_machine_as_test(
            PodMachine,
            settings=settings(
                max_examples=12,
                stateful_step_count=50,
                deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
            ),
        )
