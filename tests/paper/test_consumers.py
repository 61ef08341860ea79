"""The paper draft's websockets: who may connect, what they hear (versions, never data), and a
follow link closing when it is replaced."""

from __future__ import annotations

import pytest
import pytest_asyncio
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.db import connections

from drafts.models import Pod, Seat
from draftsite.routing import websocket_urlpatterns
from paper import services
from tests.paper.conftest import make_paper_event, user

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True), pytest.mark.asyncio]

router = URLRouter(websocket_urlpatterns)


@pytest_asyncio.fixture(autouse=True)
async def _close_connections_of_the_orm_thread():
    yield
    await database_sync_to_async(connections.close_all)()


def world():
    from events import roles

    organiser = user("org", roles.ORGANISER)
    event, (pod, other) = make_paper_event(organiser, pods=2, per_pod=2)
    member = Seat.objects.select_related("registration__user").get(pod=pod, position=0).registration.user
    stranger = Seat.objects.select_related("registration__user").get(pod=other, position=0).registration.user
    services.start_call(pod_id=pod.pk, actor=organiser)
    return organiser, event, pod, member, stranger


async def open_socket(path, who):
    communicator = WebsocketCommunicator(router, path)
    communicator.scope["user"] = who or AnonymousUser()
    connected, _ = await communicator.connect()
    return communicator, connected


async def test_a_late_joining_socket_hears_the_current_version_and_each_change():
    organiser, event, pod, member, stranger = await database_sync_to_async(world)()
    communicator, connected = await open_socket(f"ws/paper/pods/{pod.pk}/", member)
    assert connected
    assert await communicator.receive_json_from() == {"type": "hello", "role": "member"}
    changed = await communicator.receive_json_from()
    version = await database_sync_to_async(lambda: Pod.objects.get(pk=pod.pk).version)()
    assert (changed["type"], changed["pod"], changed["version"]) == ("changed", pod.pk, version)
    assert "server_time" in changed
    await communicator.send_json_to({"type": "heartbeat"})
    beat = await communicator.receive_json_from()
    assert beat["type"] == "heartbeat" and "server_time" in beat
    await database_sync_to_async(services.control_pod)(
        pod_id=pod.pk, action="pause", actor=organiser, reason="Secret reason about a player"
    )
    message = await communicator.receive_json_from(timeout=3)
    assert (message["type"], message["version"]) == ("changed", version + 1)
    assert "Secret" not in str(message)  # versions only: pages fetch what they may see
    await communicator.disconnect()


async def test_who_may_connect():
    organiser, event, pod, member, stranger = await database_sync_to_async(world)()
    for who, expected in ((organiser, True), (member, True), (stranger, False), (None, False)):
        communicator, connected = await open_socket(f"ws/paper/pods/{pod.pk}/", who)
        assert connected is expected, who
        if connected:
            await communicator.disconnect()
    token = pod.spectator_token
    communicator, connected = await open_socket(f"ws/paper/follow/{token}/", None)
    assert not connected  # following without an account is off until the organiser allows it
    await database_sync_to_async(services.set_followers_allowed)(event_id=event.pk, allowed=True, actor=organiser)
    communicator, connected = await open_socket(f"ws/paper/follow/{token}/", None)
    assert connected
    assert (await communicator.receive_json_from())["role"] == "follower"
    await communicator.receive_json_from()
    await database_sync_to_async(services.regenerate_follow_link)(pod_id=pod.pk, actor=organiser)
    messages = []
    while True:
        output = await communicator.receive_output(timeout=3)
        messages.append(output)
        if output["type"] == "websocket.close":
            break
    assert messages[-1]["code"] == 4403
