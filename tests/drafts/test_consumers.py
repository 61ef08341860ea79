"""The draft websockets: who may open which socket, and that a socket only ever carries a
pod id and a version number (never a card: the page fetches what its viewer may see)."""

from __future__ import annotations

import json
import re

import pytest
import pytest_asyncio
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.db import connections
from django.test import Client
from django.utils import timezone

from drafts import presence, protocol, services
from drafts.models import DraftCard, Pack, Seat
from draftsite.asgi import application
from draftsite.routing import websocket_urlpatterns
from events import services as event_services
from events.access import SYSTEM
from events.models import EventStaff, Registration, StaffRole
from tests.drafts import conftest
from tests.factories import EventStaffFactory, UserFactory

# serialized_rollback: these tests commit for real; data the migrations seed (roles, the IPG
# catalogue) must be there again for the tests after them.
pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True), pytest.mark.asyncio]

router = URLRouter(websocket_urlpatterns)


@pytest_asyncio.fixture(autouse=True)
async def _close_connections_of_the_orm_thread():
    """The consumers' ORM calls run in one worker thread whose connection would otherwise
    outlive the test (and keep the test database busy at teardown)."""
    yield
    await database_sync_to_async(connections.close_all)()


@pytest.fixture
def pod(organiser, players, cube_names):
    return conftest.make_pod(organiser, players, cube_names, now=timezone.now())


@pytest.fixture
def seats(pod):
    seats = list(Seat.objects.filter(pod=pod).order_by("position"))
    # Presence may live in a shared Redis or cache: no entry left from an earlier run counts.
    presence.forget([s.pk for s in seats])
    return seats


@pytest.fixture
def judge(pod):
    user = UserFactory(username="judy")
    EventStaffFactory(event=pod.event, user=user, role=StaffRole.JUDGE)
    return user


def socket(path, user=None):
    communicator = WebsocketCommunicator(router, path)
    communicator.scope["user"] = user if user is not None else AnonymousUser()
    return communicator


async def opened(path, user=None):
    communicator = socket(path, user)
    connected, _ = await communicator.connect(timeout=5)
    assert connected, path
    return communicator


@database_sync_to_async
def hand_to_newcomer(seat, organiser, username="rita") -> None:
    """The organiser hands the seat to a newly registered player (seat replacement)."""
    newcomer = event_services.register_player(
        event_id=seat.pod.event_id, user=UserFactory(username=username), actor=SYSTEM
    )
    services.hand_seat(seat_id=seat.pk, registration_id=newcomer.pk, actor=organiser)


async def refused(path, user=None) -> bool:
    communicator = socket(path, user)
    connected, _ = await communicator.connect(timeout=5)
    if connected:
        await communicator.disconnect()
    return not connected


@database_sync_to_async
def pick_first(seat):
    pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
    card = DraftCard.objects.in_pack(pack).first()
    return services.make_pick(seat_id=seat.pk, draft_card_id=card.pk, pack_id=pack.pk, actor=SYSTEM)


@database_sync_to_async
def version_of(pod):
    pod.refresh_from_db()
    return pod.version


async def test_player_socket_says_hello_then_only_versions(pod, seats, players):
    ws = await opened(f"/ws/seats/{seats[0].pk}/", players[0])
    assert await ws.receive_json_from(timeout=5) == {"type": "hello", "role": "player"}
    assert await ws.receive_json_from(timeout=5) == {"type": "changed", "pod": pod.pk, "version": await version_of(pod)}
    await pick_first(seats[3])  # somebody else picks: the pod changed
    message = await ws.receive_json_from(timeout=5)
    assert message == {"type": "changed", "pod": pod.pk, "version": await version_of(pod)}
    assert set(message) == {"type", "pod", "version"}  # no card data, ever
    assert await ws.receive_nothing(timeout=0.2)
    await ws.disconnect()


async def test_a_player_may_open_only_their_own_seat(pod, seats, players):
    assert await refused(f"/ws/seats/{seats[1].pk}/", players[0])
    assert await refused(f"/ws/seats/{seats[0].pk}/")  # anonymous
    assert await refused("/ws/seats/999999/", players[0])
    assert await refused(f"/ws/events/{pod.event_id}/", players[0])  # the dashboard is staff only


async def test_staff_may_follow_any_seat_pod_and_the_event(pod, seats, judge, organiser):
    for path in (f"/ws/seats/{seats[5].pk}/", f"/ws/pods/{pod.pk}/", f"/ws/events/{pod.event_id}/"):
        for user in (judge, organiser):
            ws = await opened(path, user)
            assert (await ws.receive_json_from(timeout=5))["role"] == "staff"
            await ws.disconnect()
    # Staff watching a seat do not count as the seat's player being there.
    ws = await opened(f"/ws/seats/{seats[5].pk}/", judge)
    assert (await database_sync_to_async(presence.status)([seats[5].pk]))[seats[5].pk]["connections"] == 0
    await ws.disconnect()


async def test_pod_socket_for_members_not_outsiders(pod, players):
    ws = await opened(f"/ws/pods/{pod.pk}/", players[4])
    assert (await ws.receive_json_from(timeout=5))["role"] == "member"
    await ws.disconnect()
    outsider = await database_sync_to_async(lambda: UserFactory(username="stranger"))()
    assert await refused(f"/ws/pods/{pod.pk}/", outsider)
    assert await refused(f"/ws/pods/{pod.pk}/")


async def test_event_socket_hears_every_pod(pod, seats, organiser):
    ws = await opened(f"/ws/events/{pod.event_id}/", organiser)
    await ws.receive_json_from(timeout=5)
    assert (await ws.receive_json_from(timeout=5))["pod"] == pod.pk
    await database_sync_to_async(services.pause_pod)(pod_id=pod.pk, actor=organiser)
    assert await ws.receive_json_from(timeout=5) == {"type": "changed", "pod": pod.pk, "version": await version_of(pod)}
    await ws.disconnect()


async def test_spectator_token_and_its_revocation(pod, organiser):
    token = pod.spectator_token
    assert await refused("/ws/watch/not-the-token/")
    ws = await opened(f"/ws/watch/{token}/")
    assert await ws.receive_json_from(timeout=5) == {"type": "hello", "role": "spectator"}
    await ws.receive_json_from(timeout=5)
    await database_sync_to_async(services.regenerate_spectator_token)(pod_id=pod.pk, actor=organiser)
    # The version bump arrives, then the socket is closed: the link is revoked.
    assert (await ws.receive_json_from(timeout=5))["type"] == "changed"
    assert await ws.receive_output(timeout=5) == {"type": "websocket.close", "code": 4403}
    assert await refused(f"/ws/watch/{token}/")
    await database_sync_to_async(pod.refresh_from_db)()
    fresh = await opened(f"/ws/watch/{pod.spectator_token}/")
    await fresh.disconnect()


async def test_heartbeat_presence_and_bad_messages(pod, seats, players):
    ws = await opened(f"/ws/seats/{seats[2].pk}/", players[2])
    await ws.receive_json_from(timeout=5)
    await ws.receive_json_from(timeout=5)
    status = await database_sync_to_async(presence.status)([seats[2].pk])
    assert status[seats[2].pk]["connections"] == 1
    await ws.send_json_to({"type": "heartbeat"})
    reply = await ws.receive_json_from(timeout=5)
    assert reply["type"] == "heartbeat" and reply["server_time"]
    await ws.send_json_to({"type": "shout", "card": 1})  # not a message of the protocol
    assert await ws.receive_json_from(timeout=5) == {"type": "error", "code": "unknown_message"}
    # Frames that are no JSON object at all: draftsite.frames (tests/test_fuzz_sockets.py has every class).
    await ws.send_to(text_data="{not json")
    assert await ws.receive_json_from(timeout=5) == {"type": "error", "code": "invalid_frame"}
    await ws.send_to(bytes_data=b"\x00\x01")
    assert await ws.receive_json_from(timeout=5) == {"type": "error", "code": "invalid_frame"}
    await ws.send_json_to(["heartbeat"])
    assert await ws.receive_json_from(timeout=5) == {"type": "error", "code": "invalid_frame"}
    await ws.disconnect()
    status = await database_sync_to_async(presence.status)([seats[2].pk])
    assert status[seats[2].pk]["connections"] == 0 and status[seats[2].pk]["last_seen"]


async def test_a_handed_over_seat_closes_the_old_players_socket_at_the_change(pod, seats, players, organiser):
    """The change that hands the seat over closes the old player's socket before any frame of
    it is made, in both dialects: no heartbeat is needed, and nothing of the new holder's
    draft (the versions dialect's queue push, the state dialect's delta) reaches them."""
    old_versions = await opened(f"/ws/seats/{seats[1].pk}/", players[1])
    await old_versions.receive_json_from(timeout=5)  # hello
    await old_versions.receive_json_from(timeout=5)  # the version
    old_state = await opened(f"/ws/seats/{seats[2].pk}/?protocol=state", players[2])
    await old_state.receive_json_from(timeout=5)  # hello
    assert (await old_state.receive_json_from(timeout=5))["type"] == "snapshot"
    await hand_to_newcomer(seats[1], organiser)
    before_second = await version_of(pod)
    await hand_to_newcomer(seats[2], organiser, "sam")
    assert await old_versions.receive_output(timeout=5) == {"type": "websocket.close", "code": 4403}
    while (frame := await old_state.receive_output(timeout=5))["type"] == "websocket.send":
        # Only the first hand-over (the board shows another seat's new player) reaches it.
        assert max(d["version"] for d in json.loads(frame["text"])["deltas"]) <= before_second
    assert frame == {"type": "websocket.close", "code": 4403}
    assert await refused(f"/ws/seats/{seats[1].pk}/", players[1])
    assert await refused(f"/ws/seats/{seats[2].pk}/?protocol=state", players[2])


async def frames_until(ws, kind: str) -> list[dict]:
    """The frames a socket receives up to and including the first of type ``kind``."""
    frames: list[dict] = []
    while not frames or frames[-1]["type"] != kind:
        frames.append(await ws.receive_json_from(timeout=5))
    return frames


async def test_a_player_is_told_at_once_that_their_seat_is_drafted_automatically(pod, seats, players, organiser):
    """Issue 46 item 2: the organiser gives a seat to an automatic drafter; the player's page
    hears it in its own frame (both dialects), and the state says it too; others hear nothing."""
    state_ws = await opened(f"/ws/seats/{seats[1].pk}/?protocol=state", players[1])
    await frames_until(state_ws, "snapshot")
    versions_ws = await opened(f"/ws/seats/{seats[1].pk}/", players[1])
    await versions_ws.receive_json_from(timeout=5)  # hello
    await versions_ws.receive_json_from(timeout=5)  # the version
    neighbour = await opened(f"/ws/seats/{seats[2].pk}/?protocol=state", players[2])
    await frames_until(neighbour, "snapshot")

    await database_sync_to_async(services.replace_with_automatic)(seat_id=seats[1].pk, actor=organiser)

    told = await frames_until(state_ws, "automatic")
    assert told[-1] == {"type": "automatic", "seat": seats[1].pk}
    protocol.check_server_frame(told[-1])

    def says_automatic(frames) -> bool:
        changes = [d.get("seats", {}).get(str(seats[1].pk), {}) for f in frames for d in f.get("deltas", [])]
        return any(change.get("info", {}).get("is_automatic") for change in changes)

    while not says_automatic(told):  # the delta follows the frame
        told.append(await state_ws.receive_json_from(timeout=5))
    assert (await frames_until(versions_ws, "automatic"))[-1] == {"type": "automatic", "seat": seats[1].pk}
    # Once: a later change of the pod tells nothing again; the neighbour was never told.
    await pick_first(seats[3])
    await neighbour.send_json_to({"type": "heartbeat"})
    assert all(f["type"] != "automatic" for f in await frames_until(neighbour, "heartbeat"))
    await state_ws.send_json_to({"type": "heartbeat"})
    assert all(f["type"] != "automatic" for f in await frames_until(state_ws, "heartbeat"))
    for ws in (state_ws, versions_ws, neighbour):
        await ws.disconnect()


async def test_a_seat_page_whose_pod_stands_still_checks_its_holder_at_the_heartbeat(pod, seats, players):
    """No document heard since the last heartbeat: the heartbeat asks the database, so a seat
    taken away without a change of the pod (as a database edit would) still closes."""
    ws = await opened(f"/ws/seats/{seats[3].pk}/", players[3])
    await ws.receive_json_from(timeout=5)
    await ws.receive_json_from(timeout=5)
    await database_sync_to_async(
        lambda: Registration.objects.filter(pk=seats[3].registration_id).update(user=UserFactory(username="zed"))
    )()
    await ws.send_json_to({"type": "heartbeat"})
    assert await ws.receive_output(timeout=5) == {"type": "websocket.close", "code": 4403}


async def test_a_judge_removed_from_the_event_stops_following_at_the_next_heartbeat(pod, seats, judge, organiser):
    """Seat pages carry the seat's packs: staff who lose their role lose them too."""
    paths = [f"/ws/seats/{seats[3].pk}/", f"/ws/pods/{pod.pk}/", f"/ws/events/{pod.event_id}/"]
    sockets = [await opened(path, judge) for path in paths]
    for ws in sockets:
        assert (await ws.receive_json_from(timeout=5))["type"] == "hello"
    staff_id = await database_sync_to_async(lambda: EventStaff.objects.get(event=pod.event, user=judge).pk)()
    await database_sync_to_async(event_services.remove_event_staff)(
        event_id=pod.event_id, staff_id=staff_id, actor=organiser
    )
    for ws in sockets:
        while True:  # what was queued before the heartbeat's answer
            await ws.send_json_to({"type": "heartbeat"})
            message = await ws.receive_output(timeout=5)
            if message["type"] == "websocket.close":
                break
            assert message["type"] == "websocket.send" and '"heartbeat"' not in message.get("text", "")
        assert message == {"type": "websocket.close", "code": 4403}
    # The organiser's own sockets are unaffected.
    ws = await opened(paths[0], organiser)
    await ws.receive_json_from(timeout=5)
    await ws.receive_json_from(timeout=5)
    await ws.send_json_to({"type": "heartbeat"})
    assert (await ws.receive_json_from(timeout=5))["type"] == "heartbeat"
    await ws.disconnect()


async def test_through_the_real_asgi_stack_with_a_session_cookie(pod, seats, players):
    @database_sync_to_async
    def session_cookie(user):
        client = Client()
        client.force_login(user)
        return client.cookies["sessionid"].value

    cookie = await session_cookie(players[0])
    headers = [(b"origin", b"http://testserver"), (b"cookie", f"sessionid={cookie}".encode())]
    ws = WebsocketCommunicator(application, f"/ws/seats/{seats[0].pk}/", headers=headers)
    connected, _ = await ws.connect(timeout=5)
    assert connected
    assert (await ws.receive_json_from(timeout=5))["role"] == "player"
    await ws.disconnect()
    other = WebsocketCommunicator(application, f"/ws/seats/{seats[1].pk}/", headers=headers)
    connected, _ = await other.connect(timeout=5)
    assert not connected
    foreign = WebsocketCommunicator(
        application, f"/ws/seats/{seats[0].pk}/", headers=[(b"origin", b"http://evil.example"), headers[1]]
    )
    connected, _ = await foreign.connect(timeout=5)
    assert not connected


async def test_event_socket_hears_pods_seated_after_it_connected_at_once(organiser, players, cube_names):
    """The dashboard used to follow only the pods that existed when it connected (new pods
    appeared after a 30 s poll)."""

    @database_sync_to_async
    def new_event():
        event = services.create_event(
            name="Later pods",
            date=timezone.now().date(),
            created_by=organiser,
            draft_format="cube",
            cube_list=cube_names,
            pick_timer=False,
        )
        for user in players:
            event_services.register_player(event_id=event.pk, user=user, actor=SYSTEM)
        return event

    event = await new_event()
    ws = await opened(f"/ws/events/{event.pk}/", organiser)
    assert (await ws.receive_json_from(timeout=5))["type"] == "hello"
    assert await ws.receive_nothing(timeout=0.2)  # no pod yet
    (pod,) = await database_sync_to_async(services.seat_players)(event_id=event.pk, seed=3, actor=SYSTEM)
    assert await ws.receive_json_from(timeout=5) == {"type": "changed", "pod": None, "version": None}
    await database_sync_to_async(services.start_pod)(pod_id=pod.pk, actor=organiser)
    message = await ws.receive_json_from(timeout=5)
    assert message == {"type": "changed", "pod": pod.pk, "version": await version_of(pod)}
    await ws.disconnect()


async def test_text_frames_skip_the_session_wrapper_through_the_real_stack(pod, seats, players, monkeypatch):
    """Every text frame of a draft socket, ``send_json``'s too (hello, heartbeat answers, pick
    answers), goes to the server's own ``send`` (draftsite.websockets' ``frame_send``): Channels'
    session wrapper checks the session on each message it passes, at 1,000 pages a cost per frame."""
    from channels import sessions

    wrapped_frames = []
    original = sessions.InstanceSessionWrapper.send

    async def counting(self, message):
        if message.get("type") == "websocket.send":
            wrapped_frames.append(message)
        return await original(self, message)

    monkeypatch.setattr(sessions.InstanceSessionWrapper, "send", counting)

    @database_sync_to_async
    def session_cookie(user):
        client = Client()
        client.force_login(user)
        return client.cookies["sessionid"].value

    cookie = await session_cookie(players[0])
    headers = [(b"origin", b"http://testserver"), (b"cookie", f"sessionid={cookie}".encode())]
    ws = WebsocketCommunicator(application, f"/ws/seats/{seats[0].pk}/?protocol=state", headers=headers)
    connected, _ = await ws.connect(timeout=5)
    assert connected
    assert (await ws.receive_json_from(timeout=5))["type"] == "hello"
    assert (await ws.receive_json_from(timeout=5))["type"] == "snapshot"
    await ws.send_json_to({"type": "heartbeat"})
    assert (await ws.receive_json_from(timeout=5))["type"] == "heartbeat"
    await ws.disconnect()
    assert wrapped_frames == []


async def test_a_frame_for_a_socket_that_closed_meanwhile_is_dropped_not_raised():
    """A pick's answer or a heartbeat's reply may be ready after the page left: the server
    refuses frames after a close, and that must not end as "Exception in ASGI application"."""
    from drafts.consumers import SeatSocket

    async def closed(message):
        raise RuntimeError("Unexpected ASGI message 'websocket.send', after sending 'websocket.close'.")

    socket = SeatSocket()
    socket.scope = {"frame_send": closed}
    await socket.send_json({"type": "heartbeat", "server_time": "2026-12-03T00:00:00+00:00"})
    await socket.send(text_data="{}")


@database_sync_to_async
def socket_named_by(url, user=None) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    page = client.get(url)
    assert page.status_code == 200, url
    return re.search(r'<div id="live"[^>]* data-socket="([^"]*)"', page.content.decode()).group(1)


async def test_each_live_draft_page_names_a_socket_that_opens_for_its_viewer(pod, seats, players, organiser):
    """The socket path a page names is followed as static/js/live.js follows it (``protocol=state``
    added). A pod's sockets name the pod for the balancer (``?pod=``, deploy/haproxy.cfg); the
    socket itself ignores it. The dashboard follows every pod and names none."""
    pages = {
        f"/events/seats/{seats[0].pk}/": (players[0], "player", pod.pk),
        f"/events/pods/{pod.pk}/board/": (players[1], "member", pod.pk),
        f"/events/pods/{pod.pk}/": (organiser, "staff", pod.pk),
        f"/events/watch/{pod.spectator_token}/": (None, "spectator", pod.pk),
        f"/events/{pod.event_id}/dashboard/": (organiser, "staff", None),
    }
    first_frame = {url: "summary" if url.endswith("/dashboard/") else "snapshot" for url in pages}
    for url, (user, role, routed_pod) in pages.items():
        path = await socket_named_by(url, user)
        assert path.endswith(f"?pod={routed_pod}") if routed_pod else "?" not in path, (url, path)
        ws = await opened(f"{path}{'&' if '?' in path else '?'}protocol=state", user)
        hello = await ws.receive_json_from(timeout=5)
        assert hello == {"type": "hello", "role": role, "protocol": "state"}, url
        assert (await ws.receive_json_from(timeout=5))["type"] == first_frame[url], url
        await ws.disconnect()
