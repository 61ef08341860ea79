"""The engine's stored functions as they run: one statement per pick or sweep, the clock
tables equal to ``drafts.core.timing``'s, the automatic card equal to ``drafts.core.autopick.choose``.
The model-based oracle of whole pods is ``tests/drafts/services/test_engine_model.py``."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from cards.models import Card, CardFace
from cards.name_folding import normalize_name
from drafts import services
from drafts.core.autopick import Candidate, choose
from drafts.core.timing import pick_seconds, review_seconds
from drafts.models import DraftCard, Pack, Pick, Pod, Seat
from draftsite.errors import DomainError
from events import services as event_services
from events.access import SYSTEM
from tests.drafts.conftest import T0, make_pod, seconds
from tests.factories import UserFactory
from tests.places import held


def statements(captured) -> list[str]:
    """The SQL a block sent, without the test transaction's savepoints."""
    return [q["sql"] for q in captured if "SAVEPOINT" not in q["sql"]]


@pytest.mark.django_db
def test_the_database_clock_tables_are_the_python_ones():
    with connection.cursor() as cursor:
        for cards_left in range(-1, 21):
            cursor.execute("SELECT drafts_pick_seconds(%s)", [cards_left])
            assert cursor.fetchone()[0] == pick_seconds(cards_left), cards_left
        for finished in range(0, 5):
            cursor.execute("SELECT drafts_review_seconds(%s)", [finished])
            assert cursor.fetchone()[0] == review_seconds(finished), finished


@pytest.mark.django_db
def test_a_pick_is_one_round_trip(organiser, players, cube_names):
    pod = make_pod(organiser, players, cube_names)
    right = Seat.objects.get(pod=pod, position=7)  # round 1 passes left: seat 8 -> seat 1
    services.make_pick(
        seat_id=right.pk,
        draft_card_id=DraftCard.objects.filter(pk__in=held(holder=right)).first().pk,
        now=T0 + seconds(2),
        actor=SYSTEM,
    )
    seat = Seat.objects.get(pod=pod, position=0)
    pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
    card = DraftCard.objects.in_pack(pack).first()
    with CaptureQueriesContext(connection) as captured:
        result = services.make_pick(
            seat_id=seat.pk, draft_card_id=card.pk, pack_id=pack.pk, owner=players[0], now=T0 + seconds(3), actor=SYSTEM
        )
    sent = statements(captured)
    assert len(sent) == 1 and sent[0].startswith("SELECT drafts_pick(")
    # The answer carries the next screen: the pack that seat 8 passed, in full.
    front = result.answer()["queue"][0]
    assert front["pack_id"] == Pack.objects.get(round=1, pod=pod, opener=right).pk
    assert len(front["cards"]) == front["cards_left"] == 14


@pytest.mark.django_db
def test_a_pick_by_someone_who_no_longer_holds_the_seat_is_refused(organiser, players, cube_names):
    pod = make_pod(organiser, players, cube_names)
    seat = Seat.objects.get(pod=pod, position=0)
    card = DraftCard.objects.filter(pk__in=held(holder=seat)).first()
    with pytest.raises(DomainError) as refused:
        services.make_pick(seat_id=seat.pk, draft_card_id=card.pk, owner=players[1], now=T0 + seconds(1), actor=SYSTEM)
    assert refused.value.code == "not_your_seat" and refused.value.status_code == 403
    assert not Pick.objects.filter(seat=seat).exists()


def catalogue(prefix: str, identities: list[str], transform_every: int = 0) -> list[Card]:
    """A cube's 360 made-up cards, colour identities taken in turn (every nth one a DFC)."""
    cards = Card.objects.bulk_create(
        Card(
            name=f"{prefix} {i}",
            search_name=normalize_name(f"{prefix} {i}"),
            layout="transform" if transform_every and i % transform_every == 0 else "normal",
            color_identity=identities[i % len(identities)],
        )
        for i in range(360)
    )
    CardFace.objects.bulk_create(CardFace(card=c, position=0, name=c.name, search_name=c.search_name) for c in cards)
    return cards


# --- clocks, automatic drafters and last cards in one statement ---------------------------


@pytest.mark.django_db
def test_clocks_that_ran_out_are_enforced_in_one_statement(organiser, players, cube_names):
    pod = make_pod(organiser, players, cube_names)
    with CaptureQueriesContext(connection) as captured:
        assert services.enforce_deadlines(pod_id=pod.pk, now=T0 + seconds(41))
    assert [sql.split("(")[0] for sql in statements(captured)] == ["SELECT drafts_settle"]
    timeouts = Pick.objects.filter(seat__pod=pod, kind="timeout")
    assert timeouts.count() == 8 and {p.made_at for p in timeouts} == {T0 + seconds(40)}
    with CaptureQueriesContext(connection) as captured:  # idempotent: nothing more is due
        assert not services.enforce_deadlines(pod_id=pod.pk, now=T0 + seconds(41))
    assert len(statements(captured)) == 1 and timeouts.count() == 8


@pytest.mark.django_db
def test_a_pick_that_finds_other_clocks_run_out_is_still_one_round_trip(organiser, players, cube_names):
    """The timeout picks due before the pick was received are made first, in the same call."""
    pod = make_pod(organiser, players, cube_names)
    seat = Seat.objects.get(pod=pod, position=0)
    pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
    card = DraftCard.objects.in_pack(pack).first()
    # The picker's pick was received in time; the other seats' clocks ran out a grace period ago.
    with CaptureQueriesContext(connection) as captured:
        result = services.make_pick(
            seat_id=seat.pk, draft_card_id=card.pk, received_at=T0 + seconds(39), now=T0 + seconds(45), actor=SYSTEM
        )
    assert [sql.split("(")[0] for sql in statements(captured)] == ["SELECT drafts_pick"]
    assert result.kind == "manual" and Pick.objects.get(draft_card=card).made_at == T0 + seconds(39)
    assert Pick.objects.filter(seat__pod=pod, kind="timeout").count() == 7
    # Seat 8's timer pick passed its pack to seat 1: the answer shows it, 14 cards.
    assert [len(p["cards"]) for p in result.answer()["queue"]] == [14]


@pytest.mark.django_db
def test_a_refused_pick_still_tells_pages_what_fell_due_first(
    organiser, players, cube_names, monkeypatch, django_capture_on_commit_callbacks
):
    from drafts import live
    from drafts.models import Pod

    told = []
    monkeypatch.setattr(live, "notify_pod", lambda pod_id, version, arrivals: told.append((version, arrivals)))
    pod = make_pod(organiser, players, cube_names)
    seat = Seat.objects.get(pod=pod, position=0)
    pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
    card = DraftCard.objects.in_pack(pack).order_by("-place").first()  # not the timer's choice
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(DomainError) as refused:
        # received after its own clock ran out: the timer's pick is made and committed first
        services.make_pick(
            seat_id=seat.pk, draft_card_id=card.pk, pack_id=pack.pk, now=T0 + seconds(40.5), actor=SYSTEM
        )
    assert refused.value.code in {"wrong_pack", "no_pack"}
    assert Pick.objects.get(seat=seat).kind == "timeout"
    assert told == [(Pod.objects.get(pk=pod.pk).version, {})]  # seat 2 had a pack: no arrival


def python_choice(pack: Pack, seat: Seat) -> int:
    """The card ``drafts.core.autopick.choose`` takes from the pack for the seat."""
    cards = list(DraftCard.objects.in_pack(pack).select_related("card"))
    pile = Card.objects.filter(pk__in=DraftCard.objects.in_pile(seat).values("card_id"))
    candidates = [Candidate(c.pk, c.rarity, c.card.color_identity) for c in cards]
    best, _reason = choose(candidates, list(pile.values_list("color_identity", flat=True)))
    return best.key


class AutomaticChoiceMatchesTheRule(TestCase):
    """``drafts_automatic_card`` (SQL) against ``drafts.core.autopick.choose`` (the pure rule)."""

    identities = ["", "W", "U", "B", "R", "G", "WU", "BRG", "WUBRG", "UR"]

    @classmethod
    def setUpTestData(cls):
        cards = catalogue("Choice", cls.identities)
        cls.cards = [c.pk for c in cards]
        users = [UserFactory(username=f"choice{i}") for i in range(8)]
        event = services.create_event(
            name="choice", date=T0.date(), draft_format="cube", cube_list=[c.name for c in cards]
        )
        regs = [event_services.register_player(event_id=event.pk, user=u, actor=SYSTEM) for u in users]
        (pod,) = services.seat_players(event_id=event.pk, seed=3, pods=[[r.pk for r in regs]], actor=SYSTEM)
        services.start_pod(pod_id=pod.pk, now=T0, actor=SYSTEM)
        cls.seat = Seat.objects.get(pod=pod, position=0)
        cls.pack = Pack.objects.filter(holder=cls.seat).order_by("queue_seq").first()
        cls.spare = held(pod=pod, round=3)

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        rarities=st.lists(
            st.sampled_from(["mythic", "rare", "special", "bonus", "uncommon", "common", "", "odd"]),
            min_size=15,
            max_size=15,
        ),
        pile=st.lists(st.integers(0, 359), max_size=20),
    )
    def test_the_same_card_is_chosen(self, rarities, pile):
        pack_cards = list(DraftCard.objects.in_pack(self.pack))
        for card, rarity in zip(pack_cards, rarities, strict=True):
            DraftCard.objects.filter(pk=card.pk).update(rarity=rarity)
        # The pile may hold the same catalogue card twice: it counts once, as in the reference.
        piled = self.spare[: len(pile)]
        for draft_card_id, index in zip(piled, pile, strict=True):
            DraftCard.objects.filter(pk=draft_card_id).update(card_id=self.cards[index])
        Seat.objects.filter(pk=self.seat.pk).update(pile_ids=piled)
        with connection.cursor() as cursor:
            cursor.execute("SELECT drafts_automatic_card(%s, %s)", [self.pack.pk, self.seat.pk])
            (chosen,) = cursor.fetchone()
        assert chosen == python_choice(self.pack, self.seat)


@pytest.mark.django_db
def test_a_live_pick_answers_the_document_and_no_queue_it_does_not_need(organiser, players, cube_names):
    """``drafts_pick_live``: the pick and what it wrote (a patch of the pod's document: the
    document as the pick left it once applied), in one call; with p_queues false the answer
    carries no queue's cards and names the arrivals' seats only (the pages draw them from the
    document), the same pick either way."""
    import orjson

    from drafts import state
    from drafts.services import fastpath

    pod = make_pod(organiser, players, cube_names)
    before = state.read(pod.pk)
    seat = Seat.objects.get(pod=pod, position=0)
    neighbour = Seat.objects.get(pod=pod, position=1)  # round 1 passes left
    pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
    card = DraftCard.objects.in_pack(pack).first()
    at = T0 + seconds(3)
    with connection.cursor() as cursor:
        cursor.execute(fastpath.PICK_LIVE_SQL, [seat.pk, card.pk, pack.pk, None, None, None, at, at, at, pod.pk, False])
        answer, text = cursor.fetchone()
    answer = fastpath.decoded(answer)
    assert answer["status"] == "ok" and answer["pick"]["card"] == card.pk
    assert answer["queue"] == [] and fastpath.arrivals(answer) == {}  # seat 2 still has its own pack in front
    document = before.patched(orjson.loads(text))
    assert document is not None
    assert document.version == answer["pod"]["version"] == Pod.objects.get(pk=pod.pk).version
    assert [c[0] for c in document.pile(seat.pk)] == [card.pk]  # read after the pick, in its transaction
    assert [p["pack_id"] for p in document.held[neighbour.pk]] == [
        Pack.objects.get(round=1, pod=pod, opener=neighbour).pk,
        pack.pk,
    ]
    # Every seat picks once more through the same call, queues on: the arrivals carry cards.
    nxt = Pack.objects.filter(holder=neighbour).order_by("queue_seq").first()
    with connection.cursor() as cursor:
        cursor.execute(
            fastpath.PICK_LIVE_SQL,
            [
                neighbour.pk,
                DraftCard.objects.in_pack(nxt).first().pk,
                nxt.pk,
                None,
                None,
                None,
                at,
                at,
                at,
                None,
                True,
            ],
        )
        answer, text = cursor.fetchone()
    answer = fastpath.decoded(answer)
    assert text is None and answer["queue"][0]["pack_id"] == pack.pk and len(answer["queue"][0]["cards"]) == 14
