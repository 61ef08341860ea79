"""Picks over the seat websocket (drafts.consumers.SeatSocket.pick; the protocol is in the
consumers' docstring): the answer, the pushes to the neighbour and to every page of the pod,
refusals with stable codes, and the races of the new path (socket against HTTP, a pick
against its own timer on a slow database).

Transactional tests: the consumers' picks run on pool threads with their own connections.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import threading
import time

import pytest
import pytest_asyncio
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.db import connection, connections, transaction
from django.test import Client
from django.utils import timezone

from drafts import aio, presence, services
from drafts.locking import lock_pod
from drafts.models import DraftCard, Pack, Pick, PickKind, Pod, Seat
from drafts.services import settle_pod_for_reading
from drafts.simulation import check_conservation
from drafts.tasks import sweep_due_pods
from draftsite.errors import DomainError
from draftsite.routing import websocket_urlpatterns
from events import services as event_services
from events.access import SYSTEM
from events.models import EventStaff, StaffRole
from tests.drafts import conftest
from tests.factories import TokenFactory, UserFactory
from tests.races import race

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True), pytest.mark.asyncio]

router = URLRouter(websocket_urlpatterns)
REFUSED_RACE_CODES = {"already_picked", "wrong_pack", "no_pack", "card_not_in_pack"}


@pytest_asyncio.fixture(autouse=True)
async def _close_connections_of_the_orm_thread():
    yield
    await database_sync_to_async(connections.close_all)()


@pytest.fixture
def pod(organiser, players, cube_names):
    return conftest.make_pod(organiser, players, cube_names, now=timezone.now())


@pytest.fixture
def seats(pod):
    seats = list(Seat.objects.filter(pod=pod).order_by("position"))
    presence.forget([s.pk for s in seats])
    return seats


async def opened(path: str, user) -> WebsocketCommunicator:
    """An open socket past its greeting (hello, then the current version)."""
    communicator = WebsocketCommunicator(router, path)
    communicator.scope["user"] = user
    connected, _ = await communicator.connect(timeout=10)
    assert connected, path
    assert (await communicator.receive_json_from(timeout=10))["type"] == "hello"
    assert (await communicator.receive_json_from(timeout=10))["type"] == "changed"
    return communicator


async def drain(communicator, quiet: float = 0.3) -> list[dict]:
    """Everything the socket sent (including what waiting for an answer skipped) until it has
    been quiet for ``quiet`` seconds."""
    messages, communicator.skipped = getattr(communicator, "skipped", []), []
    while not await communicator.receive_nothing(timeout=quiet):
        messages.append(await communicator.receive_json_from(timeout=10))
    return messages


async def answer_to(communicator, frame: dict) -> dict:
    """Send a pick; return its answer (``picked`` or ``pick_refused``), keeping the pushes
    heard meanwhile for ``drain``."""
    await communicator.send_json_to(frame)
    return await answer_to_pending(communicator)


async def answer_to_pending(communicator) -> dict:
    while True:
        message = await communicator.receive_json_from(timeout=30)
        if message["type"] in ("picked", "pick_refused"):
            return message
        communicator.skipped = [*getattr(communicator, "skipped", []), message]


@database_sync_to_async
def head(seat: Seat) -> tuple[Pack | None, list[int]]:
    pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
    cards = list(DraftCard.objects.in_pack(pack).values_list("pk", flat=True))
    return pack, cards


@database_sync_to_async
def service_pick(seat: Seat) -> None:
    pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
    card = DraftCard.objects.in_pack(pack).first()
    services.make_pick(seat_id=seat.pk, draft_card_id=card.pk, pack_id=pack.pk, actor=SYSTEM)


@database_sync_to_async
def picks_of(seat: Seat) -> int:
    return Pick.objects.filter(seat=seat).count()


@database_sync_to_async
def http(user, method: str, url: str, body: dict | None = None) -> tuple[int, dict]:
    client = Client()
    client.force_login(user)
    if method == "GET":
        response = client.get(url)
    else:
        response = client.post(url, data=body, content_type="application/json")
    return response.status_code, response.json()


@database_sync_to_async
def conservation(pod: Pod) -> list[str]:
    return check_conservation(pod)


def shape(value):
    """The keys of a JSON body, recursively (lists by their first element)."""
    if isinstance(value, dict):
        return {key: shape(item) for key, item in value.items()}
    if isinstance(value, list):
        return [shape(value[0])] if value else []
    return type(value).__name__ if value is not None else None


# --- the answer -------------------------------------------------------------------------------


async def test_a_socket_pick_answers_the_http_body_with_the_next_pack(pod, seats, players):
    ws7 = await opened(f"/ws/seats/{seats[7].pk}/", players[7])
    ws0 = await opened(f"/ws/seats/{seats[0].pk}/", players[0])
    own_pack, own_cards = await head(seats[7])
    answer = await answer_to(ws7, {"type": "pick", "card": own_cards[3], "pack": own_pack.pk, "ref": "r-1"})
    assert answer["type"] == "picked" and answer["ref"] == "r-1"
    pick = await database_sync_to_async(Pick.objects.get)(seat=seats[7])
    current = await database_sync_to_async(lambda: Pod.objects.get(pk=pod.pk).version)()
    assert answer["pick"] == {
        "id": pick.pk,
        "card": own_cards[3],
        "round": 1,
        "pick_number": 1,
        "kind": PickKind.MANUAL,
        "pod_version": current,
    }
    assert answer["pod"]["id"] == pod.pk and answer["pod"]["version"] == current
    assert answer["pod"]["state"] == "drafting" and answer["pod"]["round"] == 1
    # Seat 7 held only its own pack: nothing is waiting for it now.
    assert answer["queue"] == []
    # Round 1 passes left: seat 0 now holds its own pack and, behind it, seat 7's.
    pushed = await drain(ws0)
    assert [m["type"] for m in pushed] == ["changed"]  # seat 7's pack is not in front of seat 0

    front, front_cards = await head(seats[0])
    answer = await answer_to(ws0, {"type": "pick", "card": front_cards[0], "pack": front.pk, "ref": 42})
    assert answer["type"] == "picked" and answer["ref"] == 42
    assert [entry["pack_id"] for entry in answer["queue"]] == [own_pack.pk]
    nxt = answer["queue"][0]
    assert [card["id"] for card in nxt["cards"]] == [c for c in own_cards if c != own_cards[3]]
    assert nxt["pick_number"] == 2 and nxt["cards_left"] == 14 and "waiting" not in nxt
    assert all(card["name"] for card in nxt["cards"])  # full cards, not bare ids
    # The page needs no second request: the answer is what GET .../queue/ says now.
    status, queue_now = await http(players[0], "GET", f"/api/seats/{seats[0].pk}/queue/")
    assert status == 200 and answer["queue"] == queue_now["queue"]
    assert answer["pod"] == queue_now["pod"]

    # Over HTTP the same body (201), without the socket's type and ref.
    front, front_cards = await head(seats[1])
    status, body = await http(
        players[1], "POST", f"/api/seats/{seats[1].pk}/picks/", {"card": front_cards[0], "pack": front.pk}
    )
    assert status == 201
    assert body["queue"], "seat 1 now holds seat 0's pack"
    socket_body = {key: value for key, value in answer.items() if key not in ("type", "ref")}
    assert shape(body) == shape(socket_body)
    for ws in (ws0, ws7):
        await ws.disconnect()


async def test_the_neighbour_is_pushed_its_pack_when_it_reaches_the_front(pod, seats, players):
    await service_pick(seats[1])  # seat 1's queue is now empty
    ws1 = await opened(f"/ws/seats/{seats[1].pk}/", players[1])
    ws2 = await opened(f"/ws/seats/{seats[2].pk}/", players[2])
    ws0 = await opened(f"/ws/seats/{seats[0].pk}/", players[0])
    pack, cards = await head(seats[0])
    answer = await answer_to(ws0, {"type": "pick", "card": cards[5], "pack": pack.pk})
    assert answer["type"] == "picked" and answer["ref"] is None
    version = answer["pick"]["pod_version"]
    heard = await drain(ws1)
    pushes = [m for m in heard if m["type"] == "queue"]
    assert len(pushes) == 1
    push = pushes[0]
    assert push["seat"] == seats[1].pk and push["version"] == version
    assert [entry["pack_id"] for entry in push["queue"]] == [pack.pk]
    assert [card["id"] for card in push["queue"][0]["cards"]] == [c for c in cards if c != cards[5]]
    assert [m for m in heard if m["type"] == "changed"] == [{"type": "changed", "pod": pod.pk, "version": version}]
    # The push is the seat's queue as the API shows it.
    status, queue_now = await http(players[1], "GET", f"/api/seats/{seats[1].pk}/queue/")
    assert push["queue"] == queue_now["queue"]
    # Seat 2 already had a pack in front: the one passed to it waits, so no push.
    await drain(ws2)
    await service_pick(seats[1])
    heard = await drain(ws2)
    assert [m["type"] for m in heard] == ["changed"]
    for ws in (ws0, ws1, ws2):
        await ws.disconnect()


async def test_every_socket_of_the_pod_hears_each_pick_version_exactly_once(pod, seats, players, organiser):
    judge = await database_sync_to_async(get_user_model().objects.create_user)("judy", password="pw")
    await database_sync_to_async(EventStaff.objects.create)(event_id=pod.event_id, user=judge, role=StaffRole.JUDGE)
    listeners = [await opened(f"/ws/seats/{seat.pk}/", player) for seat, player in zip(seats, players)]
    listeners += [
        await opened(f"/ws/seats/{seats[4].pk}/", judge),
        await opened(f"/ws/pods/{pod.pk}/", players[3]),
        await opened(f"/ws/pods/{pod.pk}/", organiser),
        await opened(f"/ws/events/{pod.event_id}/", organiser),
        await opened(f"/ws/watch/{pod.spectator_token}/", None),
    ]
    versions = []
    for position in (2, 5, 3, 6):
        pack, cards = await head(seats[position])
        answer = await answer_to(listeners[position], {"type": "pick", "card": cards[0], "pack": pack.pk})
        assert answer["type"] == "picked"
        versions.append(answer["pick"]["pod_version"])
    status, body = await http(
        players[0], "POST", f"/api/seats/{seats[0].pk}/picks/", {"card": (await head(seats[0]))[1][0]}
    )
    assert status == 201
    versions.append(body["pick"]["pod_version"])
    assert versions == sorted(set(versions))
    for index, communicator in enumerate(listeners):
        heard = [m for m in await drain(communicator) if m["type"] == "changed"]
        assert [m["version"] for m in heard] == versions, index  # each once, in order, none missing
        assert all(m == {"type": "changed", "pod": pod.pk, "version": m["version"]} for m in heard)
        await communicator.disconnect()


# --- refusals ---------------------------------------------------------------------------------


async def test_refusals_come_back_with_stable_codes_and_the_ref(pod, seats, players, organiser):
    ws = await opened(f"/ws/seats/{seats[0].pk}/", players[0])
    pack, cards = await head(seats[0])
    other_pack, other_cards = await head(seats[1])

    picks_before = 0

    async def refused(frame: dict, status: int, code: str) -> None:
        answer = await answer_to(ws, {"type": "pick", **frame})
        assert answer["type"] == "pick_refused", (frame, answer)
        assert answer["status"] == status and [e["code"] for e in answer["errors"]] == [code], (frame, answer)
        assert answer["ref"] == frame.get("ref") and answer["detail"]
        assert await picks_of(seats[0]) == picks_before  # nothing stored on refusal

    await refused({"card": cards[0], "pack": other_pack.pk, "ref": "a"}, 409, "wrong_pack")
    await refused({"card": other_cards[0], "ref": 7}, 400, "card_not_in_pack")
    await refused({"card": other_cards[0], "pack": pack.pk, "ref": "b"}, 400, "card_not_in_pack")
    await refused({"card": 2**31 - 1, "ref": "c"}, 400, "card_not_in_pack")  # no such card
    await refused({"card": 2**40, "ref": "c"}, 400, "card_not_in_pack")  # ids are bigint (drafts.pick_input)
    for bad in (
        {"card": str(cards[0])},
        {"card": cards[0], "position": -1},
        {},
        {"card": None},
        {"card": True},
        {"card": 1.5},
        {"card": 0},
        {"card": cards[0], "pack": "x"},
        {"card": cards[0], "pack": 0},
        {"card": cards[0], "position": 1001},
        {"card": cards[0], "position": "0"},
        {"card": 2**63},
        {"card": [cards[0]]},
    ):
        await refused({**bad, "ref": "bad"}, 400, "invalid_pick")
    # A ref that is not a short string or a number is not echoed (a page never gets its own junk back).
    answer = await answer_to(ws, {"type": "pick", "card": "x", "ref": {"a": 1}})
    assert answer["type"] == "pick_refused" and answer["ref"] is None
    answer = await answer_to(ws, {"type": "pick", "card": "x", "ref": "r" * 101})
    assert answer["ref"] is None
    assert await picks_of(seats[0]) == 0

    answer = await answer_to(ws, {"type": "pick", "card": cards[0], "pack": pack.pk, "ref": "ok"})
    assert answer["type"] == "picked"
    picks_before = 1
    await refused({"card": cards[0], "pack": pack.pk, "ref": "again"}, 409, "already_picked")
    await refused({"card": cards[0], "ref": "again"}, 409, "already_picked")
    await refused({"card": cards[1], "ref": "next"}, 409, "no_pack")  # the pack moved on, none waits
    assert await picks_of(seats[0]) == 1

    await database_sync_to_async(services.pause_pod)(pod_id=pod.pk, actor=organiser)
    _, cards_1 = await head(seats[1])
    ws1 = await opened(f"/ws/seats/{seats[1].pk}/", players[1])
    answer = await answer_to(ws1, {"type": "pick", "card": cards_1[0], "ref": "paused"})
    assert answer["status"] == 409 and answer["errors"][0]["code"] == "pod_paused"
    assert await picks_of(seats[1]) == 0
    for communicator in (ws, ws1):
        await communicator.disconnect()


async def test_a_database_out_of_reach_is_a_503_refusal_and_the_socket_stays(pod, seats, players, monkeypatch):
    """Overload (the pool's wait timed out) or an outage: the page is told, never a dropped
    socket or a server error; the heartbeat still answers while the database is away."""
    from django.db import OperationalError

    from drafts.consumers import SeatSocket

    ws = await opened(f"/ws/seats/{seats[0].pk}/", players[0])
    pack, cards = await head(seats[0])

    def unreachable(*args, **kwargs):
        raise OperationalError("couldn't get a connection after 10.00 sec")

    monkeypatch.setattr(services, "make_pick", unreachable)
    monkeypatch.setattr(aio, "amake_pick", unreachable)
    monkeypatch.setattr(SeatSocket, "still_allowed", unreachable)
    answer = await answer_to(ws, {"type": "pick", "card": cards[0], "pack": pack.pk, "ref": "busy"})
    assert answer["type"] == "pick_refused" and answer["status"] == 503 and answer["ref"] == "busy"
    assert answer["errors"][0]["code"] == "service_unavailable" and answer["detail"]
    await ws.send_json_to({"type": "heartbeat"})
    assert (await ws.receive_json_from(timeout=5))["type"] == "heartbeat"
    monkeypatch.undo()
    answer = await answer_to(ws, {"type": "pick", "card": cards[0], "pack": pack.pk, "ref": "again"})
    assert answer["type"] == "picked"
    assert await picks_of(seats[0]) == 1
    await ws.disconnect()


async def test_staff_watching_a_seat_cannot_pick_for_it(pod, seats, organiser):
    ws = await opened(f"/ws/seats/{seats[2].pk}/", organiser)
    pack, cards = await head(seats[2])
    answer = await answer_to(ws, {"type": "pick", "card": cards[0], "pack": pack.pk, "ref": "staff"})
    assert answer["type"] == "pick_refused" and answer["status"] == 403 and answer["ref"] == "staff"
    assert answer["errors"][0]["code"] == "not_your_seat"
    assert await picks_of(seats[2]) == 0 and (await head(seats[2]))[0].pk == pack.pk
    await ws.disconnect()


INVALID_PICK = "A pick names a card (a whole number), and optionally the pack and a pile position from 0 to 1000."
NOT_THE_PLAYER = "Only the seat's player may pick."


async def test_a_pick_the_parser_refuses_is_answered_as_the_socket_answers_a_pick(pod, seats, players, organiser):
    """drafts.protocol.parse_client_frame refuses a pick whose card, pack or position is not a
    whole number in its range; the socket answers it as it answers any pick of that viewer:
    the seat's player 400 invalid_pick with the frame's ref, a read-only viewer of the seat
    (staff) 403 not_your_seat, its fields unread; a socket that takes no pick (a spectator's)
    and a frame of no type the protocol declares, unknown_message. The answers are the ones
    the page scripts read (static/js/draft.js: ref, status, detail, errors[0].message)."""
    pack, cards = await head(seats[0])
    player = await opened(f"/ws/seats/{seats[0].pk}/", players[0])
    for bad in ({"card": "seven"}, {"card": cards[0], "pack": pack.pk, "position": 1001}, {}):
        assert await answer_to(player, {"type": "pick", **bad, "ref": "p1"}) == {
            "type": "pick_refused",
            "ref": "p1",
            "status": 400,
            "detail": INVALID_PICK,
            "errors": [{"code": "invalid_pick", "message": INVALID_PICK}],
        }
    staff = await opened(f"/ws/seats/{seats[0].pk}/", organiser)
    for bad in ({"card": "seven"}, {"card": 0, "position": -1}, {}, {"card": cards[0], "pack": pack.pk}):
        assert await answer_to(staff, {"type": "pick", **bad, "ref": 7}) == {
            "type": "pick_refused",
            "ref": 7,
            "status": 403,
            "detail": NOT_THE_PLAYER,
            "errors": [{"code": "not_your_seat", "message": NOT_THE_PLAYER}],
        }
    answer = await answer_to(staff, {"type": "pick", "card": "seven", "ref": ["not", "echoed"]})
    assert answer["status"] == 403 and answer["ref"] is None
    spectator = await opened(f"/ws/watch/{pod.spectator_token}/", players[3])
    unknown = {"type": "error", "code": "unknown_message"}
    for garbage in ({"type": "pick!", "card": 1}, {"type": 5}, {"card": cards[0]}, {"type": ["pick"]}, {"type": None}):
        for communicator in (player, staff, spectator):
            await communicator.send_json_to(garbage)
            assert await communicator.receive_json_from(timeout=5) == unknown, garbage
    for pick in ({"card": "seven"}, {"card": cards[0], "pack": pack.pk}):  # a spectator's socket takes no pick
        await spectator.send_json_to({"type": "pick", **pick, "ref": "w"})
        assert await spectator.receive_json_from(timeout=5) == unknown
    assert await picks_of(seats[0]) == 0 and (await head(seats[0]))[0].pk == pack.pk
    for communicator in (player, staff, spectator):
        await communicator.disconnect()


async def test_the_old_owners_open_socket_is_closed_when_the_seat_is_handed_over(pod, seats, players, organiser):
    ws = await opened(f"/ws/seats/{seats[1].pk}/", players[1])

    @database_sync_to_async
    def hand_over():
        newcomer = event_services.register_player(
            event_id=pod.event_id, user=UserFactory(username="rita"), actor=SYSTEM
        )
        services.hand_seat(seat_id=seats[1].pk, registration_id=newcomer.pk, actor=organiser)

    await hand_over()
    # The hand-over's change closes the socket (no heartbeat needed). A pick sent before the
    # socket heard it is refused inside the pod's lock (the race test below).
    assert await ws.receive_output(timeout=5) == {"type": "websocket.close", "code": 4403}
    assert await picks_of(seats[1]) == 0


# --- races on the new path --------------------------------------------------------------------


async def test_the_same_pick_sent_20_times_over_socket_and_http_takes_one_card(pod, seats, players):
    seat = seats[0]
    token = await database_sync_to_async(lambda: TokenFactory(user=players[0]).key)()
    pack, cards = await head(seat)
    frame = {"type": "pick", "card": cards[4], "pack": pack.pk}
    sockets = [await opened(f"/ws/seats/{seat.pk}/", players[0]) for _ in range(10)]
    go = threading.Event()
    http_answers: list = [None] * 10

    def post(index: int) -> None:
        client = Client(HTTP_AUTHORIZATION=f"Token {token}")
        try:
            go.wait(timeout=30)
            response = client.post(
                f"/api/seats/{seat.pk}/picks/",
                data={"card": cards[4], "pack": pack.pk},
                content_type="application/json",
            )
            http_answers[index] = (response.status_code, response.json())
        finally:
            connection.close()

    threads = [threading.Thread(target=post, args=(i,)) for i in range(10)]
    for thread in threads:
        thread.start()
    go.set()
    await asyncio.gather(*(ws.send_json_to({**frame, "ref": i}) for i, ws in enumerate(sockets)))
    socket_answers = []
    for i, ws in enumerate(sockets):
        answer = await answer_to_pending(ws)
        assert answer["ref"] == i
        socket_answers.append(answer)
    await asyncio.get_running_loop().run_in_executor(None, lambda: [t.join(timeout=60) for t in threads])

    successes = [a for a in socket_answers if a["type"] == "picked"] + [b for s, b in http_answers if s == 201]
    refusals = [a["errors"][0]["code"] for a in socket_answers if a["type"] == "pick_refused"] + [
        b["errors"][0]["code"] for s, b in http_answers if s != 201
    ]
    assert len(successes) == 1, (socket_answers, http_answers)
    assert len(refusals) == 19 and set(refusals) <= REFUSED_RACE_CODES, refusals
    assert all(s in (201, 400, 409) for s, _ in http_answers)
    assert await picks_of(seat) == 1
    assert successes[0]["pick"]["card"] == cards[4]
    assert await conservation(pod) == []
    for ws in sockets:
        await ws.disconnect()


async def test_a_socket_pick_received_before_its_deadline_beats_the_timer_on_a_slow_database(
    organiser, players, cube_names
):
    """The timer rule: the time the server received the pick counts. The database is slow (the
    pod's row is held by another transaction) from before the deadline until well after it;
    meanwhile the sweep and a page read run after the deadline. The pick wins."""
    pod = await database_sync_to_async(conftest.make_pod)(organiser, players, cube_names, now=timezone.now())
    seat = await database_sync_to_async(Seat.objects.get)(pod=pod, position=0)
    ws = await opened(f"/ws/seats/{seat.pk}/", players[0])

    @database_sync_to_async
    def clocks_run_out_soon() -> dt.datetime:
        """The first clocks run out in 1.5 s (as if the pod had started 38.5 s ago)."""
        deadline = timezone.now() + dt.timedelta(seconds=1.5)
        Pack.objects.filter(pod=pod, holder__isnull=False).update(deadline=deadline)
        return deadline

    deadline = await clocks_run_out_soon()
    pack, cards = await head(seat)
    held, release = threading.Event(), threading.Event()

    def slow_database() -> None:
        try:
            with transaction.atomic():
                lock_pod(pod.pk)
                held.set()
                release.wait(timeout=30)
        finally:
            connection.close()

    def after_the_deadline(call) -> threading.Thread:
        def run():
            try:
                call()
            finally:
                connection.close()

        thread = threading.Thread(target=run)
        thread.start()
        return thread

    locker = threading.Thread(target=slow_database)
    locker.start()
    assert held.wait(timeout=10)
    assert timezone.now() < deadline
    await ws.send_json_to({"type": "pick", "card": cards[-1], "pack": pack.pk, "ref": "in time"})
    sent_at = timezone.now()
    assert sent_at < deadline, "the machine was too slow to send the pick in time"
    await asyncio.sleep((deadline - timezone.now()).total_seconds() + 0.3)
    others = [
        after_the_deadline(sweep_due_pods),
        after_the_deadline(lambda: settle_pod_for_reading(pod.pk)),
        after_the_deadline(lambda: services.enforce_deadlines(pod_id=pod.pk, grace=True)),
    ]
    await asyncio.sleep(0.5)
    release.set()
    answer = await answer_to_pending(ws)
    await asyncio.get_running_loop().run_in_executor(None, lambda: [t.join(timeout=60) for t in (locker, *others)])
    assert answer["type"] == "picked", answer
    assert answer["pick"]["kind"] == PickKind.MANUAL and answer["pick"]["card"] == cards[-1]
    pick = await database_sync_to_async(Pick.objects.get)(seat=seat, round=1, pick_number=1)
    assert pick.kind == PickKind.MANUAL and pick.draft_card_id == cards[-1]
    assert pick.made_at < deadline  # recorded at its receipt, not when the database got to it
    assert await conservation(pod) == []
    await ws.disconnect()


@pytest.mark.parametrize("sweeper", ["enforce_deadlines", "sweep_due_pods", "page read"])
async def test_a_pick_received_just_before_the_deadline_races_the_sweep_and_wins(
    organiser, players, cube_names, sweeper
):
    """Service level, both orders: the pick was received 5 ms before the deadline and reaches
    the database 500 ms after it, at the same moment as the worker's sweep (or a page's read)."""

    @database_sync_to_async
    def run() -> None:
        start = timezone.now() - dt.timedelta(seconds=40.5)  # the deadline passed 0.5 s ago
        pod = conftest.make_pod(organiser, players, cube_names, now=start)
        seat = Seat.objects.get(pod=pod, position=0)
        pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
        card = DraftCard.objects.in_pack(pack).first()
        received = pack.deadline - dt.timedelta(milliseconds=5)
        connection.close()
        sweep = {
            "enforce_deadlines": lambda: services.enforce_deadlines(pod_id=pod.pk, grace=True),
            "sweep_due_pods": sweep_due_pods,
            "page read": lambda: settle_pod_for_reading(pod.pk),
        }[sweeper]
        results = race(
            lambda: services.make_pick(
                seat_id=seat.pk, draft_card_id=card.pk, pack_id=pack.pk, received_at=received, actor=SYSTEM
            ),
            sweep,
        )
        assert not isinstance(results[0], Exception), results
        assert not isinstance(results[1], Exception), results
        pick = Pick.objects.get(seat=seat, round=1, pick_number=1)
        assert pick.kind == PickKind.MANUAL and pick.draft_card_id == card.pk and pick.made_at == received
        assert check_conservation(pod) == []
        # Control: once the grace is over, the clocks are enforced (the others' timeout picks).
        services.enforce_deadlines(pod_id=pod.pk, now=timezone.now() + dt.timedelta(seconds=3), grace=True)
        assert Pick.objects.filter(seat__pod=pod, kind=PickKind.TIMEOUT, round=1, pick_number=1).count() == 7
        assert check_conservation(pod) == []

    for _attempt in range(2):
        await run()


async def test_a_pick_received_in_time_is_not_replaced_by_a_timeout_that_another_pick_settles(
    organiser, players, cube_names
):
    """The timer rule, for two players: both picks were received 5 ms before the deadline and
    reach the (slow) database 500 ms after it, one after the other. The first one's settling
    must not take a timeout pick for the second player, whose pick the server received in time
    (the enforcers grant the grace period; a pick's own settling must too)."""

    @database_sync_to_async
    def run() -> None:
        start = timezone.now() - dt.timedelta(seconds=40.5)  # the deadline passed 0.5 s ago
        pod = conftest.make_pod(organiser, players, cube_names, now=start)
        first, second = Seat.objects.filter(pod=pod, position__in=(0, 1)).order_by("position")
        picks = []
        for seat in (first, second):
            pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
            card = DraftCard.objects.in_pack(pack).first()
            picks.append((seat, pack, card, pack.deadline - dt.timedelta(milliseconds=5)))
        outcomes = []
        for seat, pack, card, received in picks:
            try:
                services.make_pick(
                    seat_id=seat.pk, draft_card_id=card.pk, pack_id=pack.pk, received_at=received, actor=SYSTEM
                )
                outcomes.append("ok")
            except DomainError as error:
                outcomes.append(error.code)
        assert outcomes == ["ok", "ok"]
        for seat, _pack, card, _received in picks:
            pick = Pick.objects.get(seat=seat, round=1, pick_number=1)
            assert (pick.kind, pick.draft_card_id) == (PickKind.MANUAL, card.pk)
        assert check_conservation(pod) == []

    await run()


async def test_the_old_owner_cannot_pick_while_the_seat_is_being_handed_over(pod, seats, players, organiser):
    """The hand-over and the old owner's pick race: the organiser's transaction holds the pod
    while the pick arrives. The pick must be judged against the owner once it has the pod."""
    pack, cards = await head(seats[1])
    newcomer = await database_sync_to_async(
        lambda: event_services.register_player(event_id=pod.event_id, user=UserFactory(username="rita"), actor=SYSTEM)
    )()
    handing, results = threading.Event(), {}

    def hand_over() -> None:
        try:
            with transaction.atomic():
                services.hand_seat(seat_id=seats[1].pk, registration_id=newcomer.pk, actor=organiser)
                handing.set()
                time.sleep(1.0)  # the old owner's pick arrives meanwhile and waits for the pod
        finally:
            connection.close()

    def old_owner_picks() -> None:
        handing.wait(timeout=10)
        try:
            services.make_pick(
                seat_id=seats[1].pk, draft_card_id=cards[0], pack_id=pack.pk, actor=players[1], owner=players[1]
            )
            results["pick"] = "ok"
        except Exception as error:  # asserted below
            results["pick"] = getattr(error, "code", repr(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=hand_over), threading.Thread(target=old_owner_picks)]
    for thread in threads:
        thread.start()
    await asyncio.get_running_loop().run_in_executor(None, lambda: [t.join(timeout=60) for t in threads])
    assert results["pick"] == "not_your_seat"
    assert await picks_of(seats[1]) == 0
