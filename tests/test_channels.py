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


@pytest.mark.asyncio
async def test_a_handshake_without_the_database_is_refused_cleanly(monkeypatch, caplog):
    """draftsite.websockets.SocketGuard: the session's user lookup finds the pool exhausted."""
    from django.db import OperationalError

    async def unavailable(scope):
        raise OperationalError("couldn't get a connection after 10.00 sec")

    monkeypatch.setattr("channels.auth.get_user", unavailable)
    communicator = WebsocketCommunicator(application, "/ws/ping/", headers=[(b"origin", b"http://testserver")])
    connected, code = await communicator.connect()
    assert (connected, code) == (False, 1013)
    assert "/ws/ping/ refused without the database" in caplog.text


@pytest.mark.asyncio
async def test_a_consumer_losing_the_database_after_the_handshake_closes_with_try_again_later(monkeypatch):
    """The same guard behind the handshake: a draft page's first read finds no database."""
    from django.db import OperationalError

    from drafts.consumers import SeatSocket

    def authorised(self):
        self.role = "player"
        return [1], None

    def unavailable(self):
        raise OperationalError("the database system is starting up")

    monkeypatch.setattr(SeatSocket, "authorise", authorised)
    monkeypatch.setattr(SeatSocket, "arrived", unavailable)
    communicator = WebsocketCommunicator(application, "/ws/seats/1/", headers=[(b"origin", b"http://testserver")])
    connected, _ = await communicator.connect()
    assert connected
    assert await communicator.receive_json_from(timeout=5) == {"type": "hello", "role": "player"}
    assert await communicator.receive_output(timeout=5) == {"type": "websocket.close", "code": 1013}


def test_every_routed_socket_reads_its_frames_through_the_one_guarded_decoder():
    """draftsite.frames: no consumer decodes a client frame on its own (a bad frame must never
    reach a handler; tests/test_fuzz_sockets.py feeds every socket every bad frame)."""
    from draftsite.frames import GuardedJsonConsumer
    from draftsite.routing import websocket_urlpatterns

    consumers = [pattern.callback.consumer_class for pattern in websocket_urlpatterns]
    assert len(consumers) >= 8
    assert [c.__name__ for c in consumers if not issubclass(c, GuardedJsonConsumer)] == []
    own_decoders = [
        c.__name__
        for c in consumers
        if any("decode_json" in vars(k) for k in c.__mro__[: c.__mro__.index(GuardedJsonConsumer)])
    ]
    assert own_decoders == []


def test_every_page_socket_is_the_sites_live_socket_reading_its_apps_protocol():
    """draftsite.sockets.LiveSocket is the one base of the pages' sockets (the ping health check
    aside), and each reads its client frames through its own app's protocol module: a socket
    that keeps the base's heartbeat-only ``receive_json`` names it (``protocol``); the draft
    sockets read ``drafts.protocol`` in their own."""
    import importlib

    from drafts.consumers import _PodSocket
    from draftsite.consumers import PingConsumer
    from draftsite.routing import websocket_urlpatterns
    from draftsite.sockets import LiveSocket

    consumers = [pattern.callback.consumer_class for pattern in websocket_urlpatterns]
    pages = [c for c in consumers if c is not PingConsumer]
    assert len(pages) == len(consumers) - 1 >= 8
    assert [c.__name__ for c in pages if not issubclass(c, LiveSocket)] == []
    for consumer in pages:
        app_protocol = importlib.import_module(f"{consumer.__module__.split('.')[0]}.protocol")
        if issubclass(consumer, _PodSocket):
            assert consumer.receive_json is _PodSocket.receive_json, consumer
        else:
            assert consumer.receive_json is LiveSocket.receive_json, consumer
            assert consumer.protocol is app_protocol, consumer
