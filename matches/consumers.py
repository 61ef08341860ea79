"""Live match pages: one group per event; messages say "something changed", never what.

The frames are typed in matches/protocol.py. The page fetches its own panel on ``changed``,
which shows what that viewer may see. Pairings, results, standings and clocks are public, so
anyone may listen; nothing private ever travels on the socket.
"""

from __future__ import annotations

from channels.db import database_sync_to_async
from django.utils import timezone

from draftsite.frames import GuardedJsonConsumer
from events.models import Event
from matches import protocol
from matches.live import event_group


class EventMatchesSocket(GuardedJsonConsumer):
    async def connect(self):
        self.event_id = int(self.scope["url_route"]["kwargs"]["event_id"])
        exists = await database_sync_to_async(lambda: Event.objects.filter(pk=self.event_id).exists())()
        if not exists:
            await self.close()
            return
        await self.channel_layer.group_add(event_group(self.event_id), self.channel_name)
        await self.accept()
        await self.send_json(protocol.hello())
        await self.send_json(protocol.changed(self.event_id))

    async def disconnect(self, code):
        if hasattr(self, "event_id"):
            await self.channel_layer.group_discard(event_group(self.event_id), self.channel_name)

    async def receive_json(self, content, **kwargs):
        if await self.parsed(content, protocol.parse_client_frame) is None:  # a heartbeat: all a client sends
            return
        await self.send_json(protocol.heartbeat(timezone.now().isoformat()))

    async def matches_changed(self, message):
        await self.send_json(protocol.changed(self.event_id))
