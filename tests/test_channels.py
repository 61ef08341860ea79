"""The channel layer is wired: a websocket round trip through the ASGI application."""

import pytest
from channels.testing import WebsocketCommunicator

from draftsite.asgi import application

# The auth middleware may look a session up; the database is there for it.
pytestmark = pytest.mark.django_db


@pytest.mark.asyncio
async def test_ping_round_trip_through_the_channel_layer():
    communicator = WebsocketCommunicator(application, "/ws/ping/", headers=[(b"origin", b"http://testserver")])
    connected, _ = await communicator.connect()
    assert connected
    await communicator.send_json_to({"type": "ping"})
    assert await communicator.receive_json_from(timeout=5) == {"type": "pong"}
    await communicator.send_json_to({"type": "nonsense"})
    assert await communicator.receive_json_from(timeout=5) == {"type": "error", "code": "unknown_message"}
    await communicator.disconnect()


@pytest.mark.asyncio
async def test_foreign_origin_is_refused():
    communicator = WebsocketCommunicator(application, "/ws/ping/", headers=[(b"origin", b"http://evil.example")])
    connected, _ = await communicator.connect()
    assert not connected
