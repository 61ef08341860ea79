"""ws/judgecalls/events/<event_id>/: the judge-call queue of an event (its judges only);
ws/judgecalls/seats/<seat_id>/: the seat's player hears their own call change (the call box).

Frames are typed in judgecalls/protocol.py. Like the match pages, a frame only says "the queue
changed" (and which call); the page fetches its panel, which checks who is asking.
"""

from __future__ import annotations

from channels.db import database_sync_to_async
from django.utils import timezone

from drafts import permissions
from drafts.consumers import CLOSE_FORBIDDEN
from drafts.models import Seat
from draftsite.frames import GuardedJsonConsumer
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


class _Heartbeats(GuardedJsonConsumer):
    async def receive_json(self, content, **kwargs):
        if await self.parsed(content, protocol.parse_client_frame) is None:  # a heartbeat: all a client sends
            return
        await self.send_json(protocol.heartbeat(timezone.now().isoformat()))


class JudgeQueueSocket(_Heartbeats):
    """ws/judge-calls/events/<id>/: staff hear the queue change; frames read by draftsite.frames."""

    removed = False

    async def connect(self):
        event_id = int(self.scope["url_route"]["kwargs"]["event_id"])
        user = self.scope.get("user")
        if not await database_sync_to_async(_may_listen)(user, event_id):
            await self.close()
            return
        self.event_id = event_id
        await self.channel_layer.group_add(queue_group(event_id), self.channel_name)
        await self.channel_layer.group_add(staff_group(event_id), self.channel_name)
        await self.accept()
        await self.send_json(protocol.hello())
        await self.send_json(protocol.changed(event_id))

    async def disconnect(self, code):
        if hasattr(self, "event_id"):
            await self.channel_layer.group_discard(queue_group(self.event_id), self.channel_name)
            await self.channel_layer.group_discard(staff_group(self.event_id), self.channel_name)

    async def judgecalls_changed(self, message):
        if not self.removed:
            await self.send_json(protocol.call(self.event_id, int(message["call"])))

    async def staff_changed(self, message):
        """events.live.notify_staff_changed: a judge removed from the event's staff stops
        hearing the queue at the change, not at their next heartbeat."""
        user = self.scope.get("user")
        if message.get("user") == getattr(user, "pk", None) and not message.get("allowed"):
            self.removed = True
            await self.close(code=CLOSE_FORBIDDEN)


class CallerSocket(_Heartbeats):
    """ws/judgecalls/seats/<id>/: the seat's player hears "your call box changed" (no data)."""

    async def connect(self):
        seat_id = int(self.scope["url_route"]["kwargs"]["seat_id"])
        registration_id = await database_sync_to_async(_callers_registration)(self.scope.get("user"), seat_id)
        if registration_id is None:
            await self.close()
            return
        self.registration_id = registration_id
        await self.channel_layer.group_add(caller_group(registration_id), self.channel_name)
        await self.accept()
        await self.send_json(protocol.caller_hello())
        await self.send_json(protocol.call_box())  # the page may have missed a change before this

    async def disconnect(self, code):
        if hasattr(self, "registration_id"):
            await self.channel_layer.group_discard(caller_group(self.registration_id), self.channel_name)

    async def judgecalls_caller(self, message):
        await self.send_json(protocol.call_box())
