"""A minimal consumer that proves the channel layer round trip (used by health checks)."""

from draftsite.frames import GuardedJsonConsumer


class PingConsumer(GuardedJsonConsumer):
    """Echoes ``{"type": "ping"}`` as ``{"type": "pong"}`` through the channel layer."""

    group_name = "ping"

    async def connect(self):
        await self.channel_layer.group_add(self.group_name, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group_name, self.channel_name)

    async def receive_json(self, content, **kwargs):
        if content.get("type") == "ping":
            await self.channel_layer.group_send(self.group_name, {"type": "pong.message"})
        else:
            await self.send_json({"type": "error", "code": "unknown_message"})

    async def pong_message(self, event):
        await self.send_json({"type": "pong"})
