"""The queue's socket: judges only; frames as typed in judgecalls/protocol.py."""

from __future__ import annotations

import typing

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from draftsite.routing import websocket_urlpatterns
from judgecalls import protocol as frames
from judgecalls import services
from tests.judgecalls.conftest import T0, Floor


def keys_of(frame_type) -> set[str]:
    return set(typing.get_type_hints(frame_type))


def connect(path, user):
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), path)
    communicator.scope["user"] = user
    return communicator


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_judge_hears_a_new_call_in_typed_frames_and_nothing_private():
    floor = Floor()

    async def scenario():
        communicator = connect(f"ws/judgecalls/events/{floor.event.pk}/", floor.judge)
        connected, _ = await communicator.connect()
        assert connected
        hello = await communicator.receive_json_from()
        first = await communicator.receive_json_from()
        call = await database_sync_to_async(services.call_from_match)(
            match_id=floor.match.pk, actor=floor.player_a(), reason="SECRET reason", now=T0
        )
        after_call = await communicator.receive_json_from(timeout=5)
        await communicator.send_json_to({"type": "heartbeat"})
        beat = await communicator.receive_json_from()
        await communicator.send_json_to({"type": "pick"})
        error = await communicator.receive_json_from()
        await communicator.disconnect()
        return call, hello, first, after_call, beat, error

    call, hello, first, after_call, beat, error = async_to_sync(scenario)()
    assert hello == frames.hello() and set(hello) == keys_of(frames.HelloFrame)
    assert first == frames.changed(floor.event.pk) and set(first) == keys_of(frames.ChangedFrame)
    assert after_call == frames.call(floor.event.pk, call.pk) and set(after_call) == keys_of(frames.CallFrame)
    assert after_call == {"type": "call", "event": floor.event.pk, "call": call.pk}
    assert set(beat) == keys_of(frames.HeartbeatFrame) and beat["type"] == "heartbeat"
    assert error == {"type": "error", "code": "unknown_message"} and set(error) == keys_of(frames.ErrorFrame)
    assert "SECRET" not in repr([first, after_call])


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_players_outsiders_and_the_anonymous_are_refused_the_queue_socket():
    floor = Floor()

    async def attempt(user):
        communicator = connect(f"ws/judgecalls/events/{floor.event.pk}/", user)
        connected, _ = await communicator.connect()
        await communicator.disconnect()
        return connected

    for user in (floor.player_a(), floor.outsider, AnonymousUser()):
        assert async_to_sync(attempt)(user) is False
    assert async_to_sync(attempt)(floor.head_judge) is True
