"""Socket picks awaited on the event loop (``drafts.aio.amake_pick``, the production path on PostgreSQL):
the same answer, pushes and refusals as the threaded path, and the same state."""

from __future__ import annotations

import pytest
import pytest_asyncio
from channels.db import database_sync_to_async
from django.db import connections
from django.utils import timezone

from drafts import aio
from drafts.models import DraftCard, Pack, Pick, PickKind, Seat
from drafts.services import fastpath
from drafts.simulation import check_conservation
from tests.drafts import conftest
from tests.drafts.test_consumers import hand_to_newcomer, opened

pytestmark = [
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
    pytest.mark.asyncio,
]


@pytest_asyncio.fixture(autouse=True)
async def _async_picks(settings):
    settings.DRAFT_ASYNC_PICKS = True
    yield
    await aio.aclose()  # this test's loop ends with the test
    await database_sync_to_async(connections.close_all)()


@pytest.fixture
def pod(organiser, players, cube_names):
    return conftest.make_pod(organiser, players, cube_names, now=timezone.now())


@database_sync_to_async
def front(seat_id):
    pack = Pack.objects.filter(holder_id=seat_id).order_by("queue_seq").first()
    return pack, list(DraftCard.objects.in_pack(pack).values_list("pk", flat=True))


async def test_an_awaited_socket_pick_answers_pushes_and_refuses_like_the_threaded_one(pod, players):
    seats = await database_sync_to_async(lambda: list(Seat.objects.filter(pod=pod).order_by("position")))()
    picker = await opened(f"/ws/seats/{seats[0].pk}/", players[0])
    neighbour = await opened(f"/ws/seats/{seats[1].pk}/", players[1])
    for ws in (picker, neighbour):
        await ws.receive_json_from(timeout=5)  # hello
        await ws.receive_json_from(timeout=5)  # changed (current version)
    # Seat 2 picks first so that the pack seat 1 passes is the one in front of it when it arrives.
    _, cards2 = await front(seats[1].pk)
    await neighbour.send_json_to({"type": "pick", "card": cards2[0], "ref": "n"})
    while (await neighbour.receive_json_from(timeout=5))["type"] != "picked":
        pass
    pack, cards = await front(seats[0].pk)
    await picker.send_json_to({"type": "pick", "card": cards[2], "pack": pack.pk, "ref": 7})
    while (answer := await picker.receive_json_from(timeout=5))["type"] != "picked":
        pass
    assert answer["ref"] == 7 and answer["pick"]["card"] == cards[2] and answer["pick"]["kind"] == PickKind.MANUAL
    assert answer["queue"] == [] and answer["pod"]["version"] == answer["pick"]["pod_version"]
    # The neighbour is sent the pack it now has in front of it, its cards in full.
    while (push := await neighbour.receive_json_from(timeout=5))["type"] != "queue":
        pass
    assert push["queue"][0]["pack_id"] == pack.pk
    assert sorted(c["id"] for c in push["queue"][0]["cards"]) == sorted(set(cards) - {cards[2]})
    # The same pick again: refused with the threaded path's code, nothing stored.
    await picker.send_json_to({"type": "pick", "card": cards[2], "pack": pack.pk, "ref": "again"})
    while (refusal := await picker.receive_json_from(timeout=5))["type"] != "pick_refused":
        pass
    assert refusal["ref"] == "again" and refusal["errors"][0]["code"] == "already_picked"
    assert await database_sync_to_async(lambda: Pick.objects.filter(seat=seats[0]).count())() == 1
    assert await database_sync_to_async(check_conservation)(pod) == []
    await picker.disconnect()
    await neighbour.disconnect()


async def test_a_heartbeat_on_the_loop_marks_the_seat_present_and_closes_a_handed_over_seat(
    pod, players, organiser, private_redis, settings
):
    """The production heartbeat: the holder checked by one pooled statement (no document heard
    since the last heartbeat), presence written to Redis from the loop; a seat handed to
    someone else closes the old player's socket."""
    from drafts import presence

    settings.PRESENCE_URL = private_redis["url"]
    seats = await database_sync_to_async(lambda: list(Seat.objects.filter(pod=pod).order_by("position")))()
    ws = await opened(f"/ws/seats/{seats[4].pk}/", players[4])
    await ws.receive_json_from(timeout=5)  # hello
    await ws.receive_json_from(timeout=5)  # changed
    await database_sync_to_async(presence.forget)([seats[4].pk])
    await ws.send_json_to({"type": "heartbeat"})
    assert (await ws.receive_json_from(timeout=5))["type"] == "heartbeat"
    assert (await database_sync_to_async(presence.status)([seats[4].pk]))[seats[4].pk]["connections"] == 1
    await hand_to_newcomer(seats[4], organiser)
    # The change itself closes the socket, before any frame of it (``SeatSocket.may_follow``).
    assert await ws.receive_output(timeout=5) == {"type": "websocket.close", "code": 4403}
    await ws.disconnect()
    assert (await database_sync_to_async(presence.status)([seats[4].pk]))[seats[4].pk]["connections"] == 0


async def test_an_awaited_pick_on_a_paused_pod_is_refused_in_one_call(pod, organiser, players, monkeypatch):
    """``drafts_pick`` refuses a pick on a paused pod itself, awaited once; it is never called
    again (neither awaited nor in a thread)."""
    from drafts import services
    from draftsite.errors import ConflictError

    await database_sync_to_async(services.pause_pod)(pod_id=pod.pk, actor=organiser)
    seat = await database_sync_to_async(lambda: Seat.objects.get(pod=pod, position=0))()
    _, cards = await front(seat.pk)
    calls, acall = [], aio.acall

    async def counted(**kwargs):
        calls.append(kwargs)
        return await acall(**kwargs)

    def never(**kwargs):
        raise AssertionError("drafts_pick called a second time")

    monkeypatch.setattr(aio, "acall", counted)
    monkeypatch.setattr(fastpath, "call", never)
    with pytest.raises(ConflictError) as refused:
        await aio.amake_pick(
            pod_id=pod.pk,
            seat_id=seat.pk,
            draft_card_id=cards[0],
            actor_id=players[0].pk,
            owner_id=players[0].pk,
            position=None,
            pack_id=None,
            received_at=timezone.now(),
        )
    assert refused.value.code == "pod_paused" and len(calls) == 1
    assert not await database_sync_to_async(lambda: Pick.objects.exists())()


async def test_a_socket_pick_reads_the_pods_document_in_its_own_round_trip(pod, players, monkeypatch):
    """The state pages' document comes back with the pick (one round trip, the same
    transaction): it is the pod exactly as that pick left it, and no second read is made."""
    from drafts import aio, state

    seats = await database_sync_to_async(lambda: list(Seat.objects.filter(pod=pod).order_by("position")))()
    page = await opened(f"/ws/seats/{seats[0].pk}/?protocol=state", players[0])
    await page.receive_json_from(timeout=5)  # hello
    await page.receive_json_from(timeout=5)  # snapshot
    told, reads = [], []
    real_notify, real_read = aio.anotify_pod, aio.aread_document

    async def notify(pod_id, version, arrivals=None, *, document=None):
        told.append((version, document))
        await real_notify(pod_id, version, arrivals, document=document)

    async def aread(pod_id):
        reads.append(pod_id)
        return await real_read(pod_id)

    monkeypatch.setattr(aio, "anotify_pod", notify)
    monkeypatch.setattr(aio, "aread_document", aread)
    pack, cards = await front(seats[0].pk)
    await page.send_json_to({"type": "pick", "card": cards[0], "pack": pack.pk, "ref": 1})
    while (frame := await page.receive_json_from(timeout=5))["type"] != "picked":
        pass  # the picker's own delta rides in its answer (protocol.Picked)
    ((version, document),) = told
    assert reads == []
    fresh = await database_sync_to_async(state.read)(pod.pk)
    assert document.version == version == fresh.version
    # The patched copy lists the packs the pick wrote after the others; each seat's queue keeps
    # its order, which is what a page reads (a stable sort by holder compares just that).
    assert by_holder(document.data) == by_holder(fresh.data)
    assert frame["deltas"][-1]["version"] == version
    assert cards[0] in [card[0] for card in frame["deltas"][-1]["seats"][str(seats[0].pk)]["pile"]]
    await page.disconnect()


async def test_an_awaited_ready_is_refused_for_a_seat_not_the_players_and_a_pod_not_between_rounds(pod, players):
    """``aio.amark_ready`` (the seat socket's "ready"): ``drafts_ready`` checks the holder in
    the pod's lock, and its refusals read as ``services.mark_ready``'s."""
    from draftsite.errors import ConflictError, ForbiddenError, NotFoundError

    seat = await database_sync_to_async(lambda: Seat.objects.get(pod=pod, position=0))()
    with pytest.raises(ForbiddenError) as not_theirs:  # a socket opened before a hand-over
        await aio.amark_ready(pod_id=pod.pk, seat_id=seat.pk, owner_id=players[1].pk, now=timezone.now())
    assert not_theirs.value.code == "not_your_seat"
    with pytest.raises(NotFoundError) as unknown:
        await aio.amark_ready(pod_id=pod.pk, seat_id=10**12, owner_id=players[0].pk, now=timezone.now())
    assert unknown.value.code == "unknown_seat"
    with pytest.raises(ConflictError) as drafting:
        await aio.amark_ready(pod_id=pod.pk, seat_id=seat.pk, owner_id=players[0].pk, now=timezone.now())
    assert drafting.value.code == "pod_not_reviewing"
    assert not await database_sync_to_async(lambda: Seat.objects.filter(pod=pod, ready=True).exists())()


def by_holder(data: dict) -> dict:
    """The document with its packs grouped by holder, each seat's queue in its order."""
    return {**data, "packs": sorted(data["packs"], key=lambda row: row[1])}
