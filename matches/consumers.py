"""Live match pages: one group per event; messages say "something changed", never what.

The frames are typed in matches/protocol.py. The page fetches its own panel on ``changed``,
which shows what that viewer may see. Pairings, results, standings and clocks are public, so
anyone may listen; nothing private ever travels on the socket.
"""

from __future__ import annotations

from channels.db import database_sync_to_async

from draftsite.sockets import LiveSocket
from events.models import Event
from matches import protocol
from matches.live import event_group


class EventMatchesSocket(LiveSocket):
    """ws/matches/events/<event_id>/: the event's match pages (anyone; heartbeats only)."""

    protocol = protocol

    async def connect(self):
        self.event_id = int(self.scope["url_route"]["kwargs"]["event_id"])
        exists = await database_sync_to_async(lambda: Event.objects.filter(pk=self.event_id).exists())()
        if not exists:
            await self.close()
            return
        await self.join(event_group(self.event_id))
        await self.accept()
        await self.send_json(protocol.hello())
        await self.send_json(protocol.changed(self.event_id))

    async def matches_changed(self, message):
        await self.send_json(protocol.changed(self.event_id))
