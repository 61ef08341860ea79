"""drafts.state: a pod's document read in one statement, and each viewer's view of it, hold
exactly what the selectors show that viewer (R15-R17), and a delta carries only what changed."""

from __future__ import annotations

import random

import orjson
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from drafts import aio, live, protocol, selectors, services, state
from drafts.models import DraftCard, Pack, Pod, Seat
from drafts.services import fastpath
from drafts.services.picks import PickOrder, Reading, read_answer
from events.access import SYSTEM
from tests.drafts.conftest import T0, seconds
from tests.places import held, piled

pytestmark = [pytest.mark.django_db]


def view(document: state.Document, viewer: state.Viewer) -> dict:
    shown = state.pieces(document, viewer)
    return orjson.loads(orjson.dumps(state.snapshot_state(shown)))


def pick_some(seats, rounds: int, rng: random.Random, now=T0) -> None:
    for step in range(rounds):
        for seat in seats:
            pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
            if pack is None:
                continue
            cards = list(DraftCard.objects.in_pack(pack))
            services.make_pick(
                seat_id=seat.pk,
                draft_card_id=rng.choice(cards).pk,
                position=rng.choice([None, 0]),
                now=now + seconds(step),
                actor=SYSTEM,
            )


def live_pick(
    *, seat_id: int, card_id: int, now, pack_id: int | None = None, position: int | None = None, known=True
) -> tuple[Reading, str | None, state.Document | None]:
    """A seat socket's pick as ``aio.amake_pick`` sends it (``drafts_pick_live`` with the
    version of this process's copy of the pod's document, or ``known=False``: no copy), on
    Django's connection; its reading, the answer's document text, and the document the live
    pages get from it (the copy patched, or the whole document answered)."""
    order = PickOrder.of(
        seat_id=seat_id, draft_card_id=card_id, actor=SYSTEM, position=position, pack_id=pack_id, now=now
    )
    args = order.function_arguments()
    pod_id = Seat.objects.values_list("pod_id", flat=True).get(pk=seat_id)
    topic = live.state_topic(pod_id)
    copy = state.known(topic) if known else None
    params = [args[name] for name in ("seat_id", "draft_card_id", "pack_id", "position", "actor_id", "owner_id")]
    params += [args["received_at"], args["now"], args["cutoff"], pod_id, False]
    params.append(copy.version if copy is not None else aio.NO_COPY)
    with connection.cursor() as cursor:
        cursor.execute(aio.PICK_LIVE_KNOWN_SQL, params)
        answer, text = cursor.fetchone()
    reading = read_answer(fastpath.decoded(answer), order)
    document = None
    if reading.notice is not None and text is not None:
        document = state.shared_document(topic, reading.notice[1], text)
    return reading, text, document


def same_document(a: state.Document, b: state.Document) -> bool:
    """Whether two documents say the same of the pod: its header and seats, each seat's queue
    (in order) and pile (the document lists packs by queue, a patched one by seat)."""

    def piles(document):
        return {seat: cards for seat, cards in document.data["piles"].items() if cards}

    return (
        a.data["pod"] == b.data["pod"]
        and a.data["seats"] == b.data["seats"]
        and {k: v for k, v in a.held.items() if v} == {k: v for k, v in b.held.items() if v}
        and piles(a) == piles(b)
    )


def is_patch(text: str | None) -> bool:
    return text is not None and state.PATCH_FROM in orjson.loads(text)


def test_a_live_pick_answers_a_patch_that_makes_the_copy_the_pods_document(pod, seats):
    """``drafts_pick_live`` answers only what the pick wrote (ids), and this process's copy
    patched with it is the document read afresh; chained over every seat's picks, including a
    pack's last card taken by the seat it was passed to, and with the timer's deadlines."""
    topic = live.state_topic(pod.pk)
    state._shared.pop(topic, None)
    state.remember(topic, state.read(pod.pk))
    patched = 0
    rng = random.Random(4)
    for step in range(14):
        for seat in seats:
            pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
            if pack is None:
                continue
            card = rng.choice(list(DraftCard.objects.in_pack(pack)))
            reading, text, document = live_pick(
                seat_id=seat.pk,
                card_id=card.pk,
                pack_id=pack.pk,
                position=rng.choice([None, 0]),
                now=T0 + seconds(step),
            )
            assert reading.refusal is None
            assert document is not None and same_document(document, state.read(pod.pk)), (step, seat.pk)
            assert state.known(topic) is document
            if is_patch(text):
                patched += 1
                assert document.patch == text  # what is published to the other processes
                assert '"cards"' not in text and "document_entry" not in text  # ids, no card entries
    assert patched > 8 * 10  # most picks are patches; a round's end is a whole document
    assert Pod.objects.get(pk=pod.pk).state != "drafting" or Pod.objects.get(pk=pod.pk).round == 2


def test_a_live_pick_answers_the_whole_document_to_a_copy_of_another_version(pod, seats):
    """A version gap (the copy missed a change) or no copy: the answer is the whole document;
    a patch never applies to a copy of another version."""
    topic = live.state_topic(pod.pk)
    state._shared.pop(topic, None)
    old = state.read(pod.pk)
    seat = seats[0]
    pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
    _reading, text, document = live_pick(
        seat_id=seat.pk, card_id=DraftCard.objects.in_pack(pack).first().pk, now=T0, known=False
    )
    assert not is_patch(text) and same_document(document, state.read(pod.pk))
    state._shared[topic] = old  # the copy is behind by one pick
    seat = seats[1]
    pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
    _reading, text, document = live_pick(seat_id=seat.pk, card_id=DraftCard.objects.in_pack(pack).first().pk, now=T0)
    assert not is_patch(text) and same_document(document, state.read(pod.pk))
    # A patch heard from another process that does not start from the copy's version: a gap.
    state._shared[topic] = old
    seat = seats[2]
    pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
    with connection.cursor() as cursor:
        cursor.execute(
            fastpath.PICK_LIVE_SQL,
            [seat.pk, DraftCard.objects.in_pack(pack).first().pk, None, None, None, None, T0, T0, T0, pod.pk, False],
        )
        _answer, text = cursor.fetchone()
    patch = orjson.loads(text)
    assert patch[state.PATCH_FROM] == old.version + 2
    assert old.patched(patch) is None
    assert state.shared_document(topic, patch["version"], orjson.loads(text)) is None
    assert state.known(topic) is old  # kept until the whole document is read


def test_the_document_is_one_statement(pod):
    with CaptureQueriesContext(connection) as queries:
        document = state.read(pod.pk)
    assert len(queries) == 1
    assert document.version == pod.version and document.pod_id == pod.pk


ENTRY_SQL = (
    "SELECT document_entry::jsonb, jsonb_build_array(id, card_id, printing_id, rarity, foil, is_dfc)"
    " FROM drafts_draftcard WHERE pod_id = %s ORDER BY id"
)


def stored_and_made_entries(pod_id: int) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(ENTRY_SQL, [pod_id])
        return cursor.fetchall()


def test_each_cards_entry_in_the_document_follows_its_row(pod, seats):
    """The document copies each card's stored entry (drafts_draftcard_entry): it is made on
    insert and made again whenever a column it shows changes, by any writer."""
    pick_some(seats, 2, random.Random(3))
    rows = stored_and_made_entries(pod.pk)
    assert rows and all(stored == made for stored, made in rows)

    card = DraftCard.objects.filter(pk__in=held(pod=pod)).order_by("pk").first()
    DraftCard.objects.filter(pk=card.pk).update(rarity="mythic", foil=not card.foil, printing=None)
    card.refresh_from_db()
    card.is_dfc = not card.is_dfc
    card.save()
    assert all(stored == made for stored, made in stored_and_made_entries(pod.pk))

    with connection.cursor() as cursor:
        cursor.execute("SELECT drafts_pod_document(%s)", [pod.pk])
        (text,) = cursor.fetchone()
    listed = {entry[0]: entry for pack in orjson.loads(text)["packs"] for entry in pack[7]}
    assert listed[card.pk] == [card.pk, card.card_id, None, "mythic", card.foil, card.is_dfc]


def test_an_unknown_pod_has_no_document(db):
    assert state.read(987654) is None


def test_a_players_view_is_what_the_selectors_show_them(pod, seats):
    """R15-R16: own queue (front pack in full, DFCs of the waiting packs), own pile, and of the
    other seats only pack sizes and DFCs: compared with selectors.seat_view."""
    pick_some(seats[:3], 4, random.Random(3))  # seats 0-2 run ahead: packs queue up behind
    document = state.read(pod.pk)
    for seat in Seat.objects.filter(pod=pod):
        shown = view(document, state.Viewer(seat_ids=(seat.pk,)))
        protocol.check(shown, protocol.State)
        expected = selectors.seat_view(seat)
        mine = shown["seats"][str(seat.pk)]
        assert [(p["pack_id"], [c[0] for c in p["cards"]], p.get("waiting", False)) for p in mine["queue"]] == [
            (p["pack_id"], [c["id"] for c in p["cards"]], p.get("waiting", False)) for p in expected["queue"]
        ]
        assert [c[0] for c in mine["pile"]] == [c["id"] for c in expected["pile"]]
        assert list(shown["seats"]) == [str(seat.pk)]  # no other seat's own cards
        board = expected["board"]["seats"]
        assert [
            (s["position"], [(p["pack_id"], p["cards_left"]) for p in s["packs"]]) for s in shown["board"]["seats"]
        ] == [(s["position"], [(p["pack_id"], p["cards_left"]) for p in s["packs"]]) for s in board]
        for got, want in zip(shown["board"]["seats"], board, strict=True):
            assert sorted(c[0] for p in got["packs"] for c in p["dfcs"]) == sorted(
                c["id"] for p in want["packs"] for c in p["dfcs"]
            )
            assert sorted(c[0] for c in got["pile_dfcs"]) == sorted(c["id"] for c in want["pile_dfcs"])


def test_no_view_but_staffs_holds_a_single_faced_card_of_another_seat(pod, seats):
    """R16, by construction: every card id in a member's, spectator's or player's view is a DFC,
    or the viewer's own, or in the pack in front of the viewer."""
    pick_some(seats, 3, random.Random(5))
    document = state.read(pod.pk)
    single = set(DraftCard.objects.filter(pod=pod, is_dfc=False).values_list("pk", flat=True))
    for seat in seats:
        own = set(DraftCard.objects.in_pile(seat).values_list("pk", flat=True))
        front = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
        own |= set(front.card_ids) if front else set()
        ids = set(card_ids_in(view(document, state.Viewer(seat_ids=(seat.pk,)))))
        assert not (ids & single) - own
    assert not set(card_ids_in(view(document, state.Viewer()))) & single
    staff = set(card_ids_in(view(document, state.Viewer(full=True, every_seat=True))))
    assert staff == set(held(pod=pod, holder__isnull=False) + piled(pod=pod))


def card_ids_in(value):
    """The draft card ids of every card row anywhere in a JSON value."""
    if isinstance(value, list) and len(value) == 6 and isinstance(value[0], int) and isinstance(value[5], bool):
        yield value[0]
    elif isinstance(value, list):
        for item in value:
            yield from card_ids_in(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from card_ids_in(item)


def test_a_delta_holds_only_what_changed_for_the_viewer(pod, seats):
    """After one pick by seat 0, seat 4 (across the table) is sent the pod and the board
    seats that changed, and nothing of its own seat (its queue and pile did not change)."""
    viewer = state.Viewer(seat_ids=(seats[4].pk,))
    before = state.pieces(state.read(pod.pk), viewer)
    pick_some(seats[:1], 1, random.Random(1))
    after = state.pieces(state.read(pod.pk), viewer)
    change = orjson.loads(orjson.dumps(state.delta(before, after)))
    protocol.check({"from": 1, "version": 2, **change}, protocol.Delta)
    assert "seats" not in change
    assert set(change["board"]["seats"]) == {"0", "1"}  # the picker, and the neighbour the pack reached
    assert "pod" not in change  # a pick in mid-round changes no clock of the pod: not sent again
    assert state.delta(after, after) == {}


def test_the_dashboards_digest_names_seats_once_and_counts_the_packs_held(pod, seats):
    """A pod's digest: the seats holding two or more packs as [position, packs held], and the
    seats' names by position apart from them, so that a summary (which sends the fields that
    changed) carries the names again only when a seat changes hands, not at every pick."""
    before = state.read(pod.pk).digest
    assert before["holding"] == []
    assert before["names"] == [seat.registration.name for seat in sorted(seats, key=lambda s: s.position)]
    pick_some(seats[:1], 1, random.Random(1))  # seat 0's first pack reaches seat 1: two packs there
    after = state.read(pod.pk).digest
    neighbour = next(seat for seat in seats if seat.position == 1)
    assert after["holding"] == [[neighbour.position, 2]]
    assert after["names"] == before["names"]  # unchanged: the summary leaves it out


def test_the_digest_carries_the_clock_the_dashboard_panel_shows_in_every_state(organiser, pod, seats):
    """The live dashboard draws every pod's clock from its digest (no panel fetch): the same
    clock as the server's panel (``dashboards.pod_glance``) while drafting, paused, between
    rounds and paused between rounds; running, a deadline; paused, the time it had left."""
    from drafts import dashboards
    from tests.drafts.services.test_control import finish_round

    def both(now):
        pod.refresh_from_db()
        digest, panel = state.read(pod.pk).digest, dashboards.pod_glance(pod, now=now)["clock"]
        if panel["deadline"] is not None:
            deadline = panel["deadline"]
            assert digest["deadline"] == int(deadline.timestamp()) + (deadline.microsecond > 0)
            assert digest["frozen"] is None
        else:
            assert digest["deadline"] is None and digest["frozen"] == panel["remaining_ms"]
        return digest["clock"], panel["label"]

    assert both(T0) == ("pick", "Next pick timer")
    services.pause_pod(pod_id=pod.pk, actor=organiser, now=T0 + seconds(5))
    assert both(T0 + seconds(9)) == ("pick", "Next pick timer")
    assert state.read(pod.pk).digest["frozen"] > 0
    services.resume_pod(pod_id=pod.pk, actor=organiser, now=T0 + seconds(20))
    finish_round(pod, T0 + seconds(21))
    assert pod.state == "reviewing"
    assert both(T0 + seconds(22)) == ("review", "Review")
    services.pause_pod(pod_id=pod.pk, actor=organiser, now=T0 + seconds(30))
    assert both(T0 + seconds(40)) == ("review", "Review")
    assert state.read(pod.pk).digest["frozen"] > 0
