"""Every websocket of the site, fed every class of bad frame an outside run found: each is
answered with an error frame (``invalid_frame``, draftsite.frames) and the socket stays open
(the next heartbeat is answered), never closed with 1006 and a traceback.

The sockets: a seat (its player), a pod and an event (the organiser), a spectator link, the
matches board (no login), a paper pod's call (its player), a paper follow link, and ping.
"""

from __future__ import annotations

import pytest
import pytest_asyncio
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.db import connections
from django.utils import timezone

from drafts.models import Seat
from draftsite.routing import websocket_urlpatterns
from tests.drafts import conftest
from tests.drafts.conftest import cube_names, organiser, players  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True), pytest.mark.asyncio]

router = URLRouter(websocket_urlpatterns)

# What the frame carries: ("text", str) or ("bytes", bytes), exactly as an ASGI server hands it on.
BAD_FRAMES = {
    "empty text": ("text", ""),
    "whitespace": ("text", "  \n"),
    "malformed JSON": ("text", "{not json"),
    "truncated JSON": ("text", '{"type": "heartbeat"'),
    "deep array": ("text", "[" * 100_000 + "]" * 100_000),
    "deep object": ("text", '{"a":' * 50_000 + "1" + "}" * 50_000),
    "nested past the protocol": ("text", '{"type": "heartbeat", "x": ' + "[" * 20 + "]" * 20 + "}"),
    "binary": ("bytes", b"\x00\x01\xff"),
    "binary JSON": ("bytes", b'{"type": "heartbeat"}'),
    "a list": ("text", '["heartbeat"]'),
    "a number": ("text", "1e999999"),
    "a string": ("text", '"heartbeat"'),
    "null": ("text", "null"),
    "NUL in text": ("text", '{"type": "heartbeat\\u0000"}'),
    "lone surrogate": ("text", '{"type": "\\ud800"}'),
}


@pytest_asyncio.fixture(autouse=True)
async def _close_connections_of_the_orm_thread():
    yield
    await database_sync_to_async(connections.close_all)()


def draft_world(organiser, players, cube_names):  # noqa: F811
    from drafts import services

    pod = conftest.make_pod(organiser, players, cube_names, now=timezone.now())
    seat = Seat.objects.select_related("registration__user").get(pod=pod, position=0)
    token = services.regenerate_spectator_token(pod_id=pod.pk, actor=organiser).spectator_token
    return [
        (f"/ws/seats/{seat.pk}/", seat.registration.user),
        (f"/ws/seats/{seat.pk}/?protocol=state", seat.registration.user),
        (f"/ws/pods/{pod.pk}/", organiser),
        (f"/ws/events/{pod.event_id}/", organiser),
        (f"/ws/watch/{token}/", None),
        (f"/ws/matches/events/{pod.event_id}/", None),
        (f"/ws/judgecalls/seats/{seat.pk}/", seat.registration.user),
    ]


def paper_world():
    from events import roles
    from paper import services
    from tests.paper.conftest import make_paper_event, user

    caller = user("paperorg", roles.ORGANISER)
    event, (pod,) = make_paper_event(caller, pods=1, per_pod=2, prefix="pp")
    member = Seat.objects.select_related("registration__user").get(pod=pod, position=0).registration.user
    services.start_call(pod_id=pod.pk, actor=caller)
    services.set_followers_allowed(event_id=event.pk, allowed=True, actor=caller)
    pod.refresh_from_db()
    return [(f"/ws/paper/pods/{pod.pk}/", member), (f"/ws/paper/follow/{pod.spectator_token}/", None)]


async def opened(path, user):
    communicator = WebsocketCommunicator(router, path)
    communicator.scope["user"] = user or AnonymousUser()
    connected, _ = await communicator.connect(timeout=5)
    assert connected, path
    while not await communicator.receive_nothing(timeout=0.3):  # hello, snapshot, versions
        await communicator.receive_from()
    return communicator


async def answers_a_heartbeat(communicator) -> bool:
    await communicator.send_json_to({"type": "heartbeat"})
    while True:
        frame = await communicator.receive_json_from(timeout=5)
        if frame["type"] == "heartbeat":
            return True
        if frame["type"] not in ("changed", "delta", "queue"):  # live pushes may come in between
            return False


async def fed_every_bad_frame(path, user) -> list[str]:
    """What went wrong on one socket: frames not answered with invalid_frame, or a closed socket."""
    problems = []
    communicator = await opened(path, user)
    for name, (kind, data) in BAD_FRAMES.items():
        await communicator.send_input({"type": "websocket.receive", kind: data})
        answer = await communicator.receive_output(timeout=5)
        if answer.get("type") != "websocket.send" or '"invalid_frame"' not in answer.get("text", ""):
            problems.append(f"{path} {name}: {answer}")
            break
        if not await answers_a_heartbeat(communicator):
            problems.append(f"{path} {name}: no heartbeat after it")
    await communicator.disconnect()
    return problems


async def test_every_socket_answers_every_bad_frame_and_stays_open(organiser, players, cube_names):  # noqa: F811
    sockets = await database_sync_to_async(draft_world)(organiser, players, cube_names)
    sockets += await database_sync_to_async(paper_world)()
    problems = []
    for path, user in sockets:
        problems += await fed_every_bad_frame(path, user)
    assert problems == []
    assert await ping_answers_every_bad_frame()


async def ping_answers_every_bad_frame() -> bool:
    communicator = WebsocketCommunicator(router, "/ws/ping/")
    assert (await communicator.connect(timeout=5))[0]
    for kind, data in BAD_FRAMES.values():
        await communicator.send_input({"type": "websocket.receive", kind: data})
        if await communicator.receive_json_from(timeout=5) != {"type": "error", "code": "invalid_frame"}:
            return False
    await communicator.send_json_to({"type": "ping"})
    pong = await communicator.receive_json_from(timeout=5)
    await communicator.disconnect()
    return pong == {"type": "pong"}


PAST_THE_RANGE = [2**31, 2**63, 10**30, -(2**63) - 1]


async def test_a_socket_pick_past_the_integer_range_is_refused_and_the_socket_stays(
    organiser,  # noqa: F811
    players,  # noqa: F811
    cube_names,  # noqa: F811
):
    """The seat socket bounds a pick's numbers as the API does (drafts.pick_input): ids are
    bigint, so an id past integer's range is looked for and not found (the engine's refusal);
    past bigint's, or a position past the rules', it is ``invalid_pick``."""
    sockets = await database_sync_to_async(draft_world)(organiser, players, cube_names)
    path, user = sockets[0]
    communicator = await opened(path, user)
    for field in ("card", "pack", "position"):
        for number in PAST_THE_RANGE:
            await communicator.send_json_to({"type": "pick", "ref": "r", "card": 1, field: number})
            answer = await communicator.receive_json_from(timeout=5)
            code = answer["errors"][0]["code"]
            assert answer["type"] == "pick_refused" and answer["ref"] == "r", (field, number)
            if field != "position" and number == 2**31:  # an id in bigint's range: no such card or pack
                assert answer["status"] in (400, 409) and code != "invalid_pick", (field, number, code)
            else:
                assert answer["status"] == 400 and code == "invalid_pick", (field, number)
    assert await answers_a_heartbeat(communicator)
    await communicator.disconnect()
