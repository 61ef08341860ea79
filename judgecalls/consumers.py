"""ws/judgecalls/events/<event_id>/: the judge-call queue of an event (its judges only);
ws/judgecalls/seats/<seat_id>/: the seat's player hears their own call change (the call box).

Frames are typed in judgecalls/protocol.py. Like the match pages, a frame only says "the queue
changed" (and which call); the page fetches its panel, which checks who is asking.
"""

from __future__ import annotations

from channels.db import database_sync_to_async

from drafts import permissions
from drafts.models import Seat
from draftsite.sockets import LiveSocket
from events import permissions as event_permissions
from events.live import staff_group
from judgecalls import protocol
from judgecalls.live import caller_group, queue_group


def _may_listen(user, event_id: int) -> bool:
    return event_permissions.sees_everything(user, event_id)


def _callers_registration(user, seat_id: int) -> int | None:
    """The seat's registration when ``user`` is its player (nobody else: not even staff, the
    box is the player's own)."""
    seat = Seat.objects.select_related("registration").filter(pk=seat_id).first()
    return seat.registration_id if seat is not None and permissions.owns_seat(user, seat) else None


class JudgeQueueSocket(LiveSocket):
    """ws/judge-calls/events/<id>/: staff hear the queue change (heartbeats only from them)."""

    protocol = protocol

    async def connect(self):
        event_id = int(self.scope["url_route"]["kwargs"]["event_id"])
        if not await database_sync_to_async(_may_listen)(self.user, event_id):
            await self.close()
            return
        self.event_id = event_id
        await self.join(queue_group(event_id), staff_group(event_id))
        await self.accept()
        await self.send_json(protocol.hello())
        await self.send_json(protocol.changed(event_id))

    async def judgecalls_changed(self, message):
        await self.send_json(protocol.call(self.event_id, int(message["call"])))

    async def staff_changed(self, message):
        """events.live.notify_staff_changed: a judge removed from the event's staff stops
        hearing the queue at the change, not at their next heartbeat."""
        if message.get("user") == getattr(self.user, "pk", None) and not message.get("allowed"):
            await self.forbid()


class CallerSocket(LiveSocket):
    """ws/judgecalls/seats/<id>/: the seat's player hears "your call box changed" (no data)."""

    protocol = protocol

    async def connect(self):
        seat_id = int(self.scope["url_route"]["kwargs"]["seat_id"])
        registration_id = await database_sync_to_async(_callers_registration)(self.user, seat_id)
        if registration_id is None:
            await self.close()
            return
        self.registration_id = registration_id
        await self.join(caller_group(registration_id))
        await self.accept()
        await self.send_json(protocol.caller_hello())
        await self.send_json(protocol.call_box())  # the page may have missed a change before this

    async def judgecalls_caller(self, message):
        await self.send_json(protocol.call_box())
