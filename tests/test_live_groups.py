"""``draftsite.groups.send_to_group``: every app's live pages hear a committed change through
it, and a failure to send never fails the change (the pages catch up on their own)."""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from draftsite.groups import send_to_group


def test_a_message_reaches_every_socket_of_the_group():
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)("event-7", channel)
    send_to_group("event-7", {"type": "event.changed"})
    assert async_to_sync(layer.receive)(channel) == {"type": "event.changed"}


def test_a_layer_that_fails_is_logged_and_the_caller_goes_on(monkeypatch, caplog):
    class Broken:
        async def group_send(self, group, message):
            raise ConnectionError("Redis is down")

    monkeypatch.setattr("draftsite.groups.get_channel_layer", lambda: Broken())
    with caplog.at_level(logging.WARNING, logger="draftsite.groups"):
        send_to_group("event-7", {"type": "event.changed"})
    assert "Could not send event.changed to event-7" in caplog.text
