"""ws/judgecalls/events/<event_id>/: the judge-call queue of an event (its judges only).

Frames are typed in judgecalls/frames.py. Like the match pages, a frame only says "the queue
changed" (and which call); the page fetches its panel, which checks who is asking.
"""

from __future__ import annotations

from channels.db import database_sync_to_async
from django.utils import timezone

from drafts import permissions
from draftsite.frames import GuardedJsonConsumer
from judgecalls import error_codes, frames
from judgecalls.tasks import queue_group


def _may_listen(user, event_id: int) -> bool:
    return permissions.sees_everything(user, event_id)


class JudgeQueueSocket(GuardedJsonConsumer):
    """ws/judge-calls/events/<id>/: staff hear the queue change; frames read by draftsite.frames."""

    async def connect(self):
        event_id = int(self.scope["url_route"]["kwargs"]["event_id"])
        user = self.scope.get("user")
        if not await database_sync_to_async(_may_listen)(user, event_id):
            await self.close()
            return
        self.event_id = event_id
        await self.channel_layer.group_add(queue_group(event_id), self.channel_name)
        await self.accept()
        await self.send_json(frames.hello())
        await self.send_json(frames.changed(event_id))

    async def disconnect(self, code):
        if hasattr(self, "event_id"):
            await self.channel_layer.group_discard(queue_group(self.event_id), self.channel_name)

    async def receive_json(self, content, **kwargs):
        if isinstance(content, dict) and content.get("type") == "heartbeat":
            await self.send_json(frames.heartbeat(timezone.now().isoformat()))
        else:
            await self.send_json(frames.error(error_codes.UNKNOWN_MESSAGE))

    async def judgecalls_changed(self, message):
        await self.send_json(frames.call(self.event_id, int(message["call"])))
