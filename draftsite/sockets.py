"""The site's live-page socket: the one base class of the websockets pages keep open.

Every socket of a page derives from :class:`LiveSocket`: the draft engine's seat, pod,
spectator and dashboard sockets (``drafts.consumers``), the paper caller's and follower's
(``paper.consumers``), the match pages' (``matches.consumers``) and the judge-call queue's and
call box's (``judgecalls.consumers``). What it gives them:

- **Frames**: a client's frame reaches ``receive_json`` only as a decoded JSON object
  (:class:`draftsite.frames.GuardedJsonConsumer`); each socket reads it through its app's
  ``protocol.parse_client_frame`` (the typed frames). A socket whose clients only send
  heartbeats (paper, matches, judge calls) keeps this class's ``receive_json``: the heartbeat
  is answered, anything else is answered with its ``error`` frame.
- **Sending**: text frames go straight to the server (``scope["frame_send"]``,
  ``draftsite.websockets``), past Channels' session wrapper, which checked the session on every
  frame (with 1,000 draft pages, each pick's ~10 frames paid it). Once the viewer lost the
  page (:meth:`forbid`), nothing more is sent and the socket closes with ``CLOSE_FORBIDDEN``.
- **Hearing**: a socket that hears Channels groups (``draftsite.groups.send_to_group``: rare
  page notices) names them with :meth:`join` once authorised, and leaves them when it closes.
  A socket that never hears a group (``uses_channel_layer = False``: the draft pages, which
  hear their pods through ``drafts.live``'s hub) skips Channels' channel-layer loop: each
  message is dispatched in turn, with no channel registered per socket and no task per frame.
  Why two publish paths remain: docs/architecture.md, "Two ways to a page".
- **Dispatch** without Channels' thread hop per message to close stale database connections:
  the handlers reach the database only through ``database_sync_to_async`` (which closes them on
  its own thread) or the event loop's pool (``drafts.aio``).
"""

from __future__ import annotations

import logging
import uuid
from types import ModuleType

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from django.utils import timezone

from draftsite.frames import GuardedJsonConsumer, heartbeat

logger = logging.getLogger(__name__)

# The viewer may no longer follow the page (staff removed, a seat handed over, a link replaced).
CLOSE_FORBIDDEN = 4403


class LiveSocket(GuardedJsonConsumer):
    """A page's websocket (see the module). Subclasses authorise in ``connect`` and set
    ``protocol`` to their app's protocol module."""

    # The app's protocol module: its ``parse_client_frame`` reads every frame a client sends.
    protocol: ModuleType | None = None
    # False: the socket hears no Channels group, and runs without the channel layer.
    uses_channel_layer = True
    # Set by ``forbid``: the viewer lost the page; nothing more reaches it.
    forbidden = False

    @property
    def user(self):
        return self.scope.get("user")

    async def __call__(self, scope, receive, send):
        """Channels' consumer loop, for a socket that needs no channel layer: each message the
        server receives is dispatched in turn. Channels' own loop registers a channel per socket
        and waits on it beside the client with ``asyncio.wait`` and a new task for every frame:
        at 1,000 pages that was per-frame work and a pending task per socket for nothing."""
        if self.uses_channel_layer:
            await super().__call__(scope, receive, send)
            return
        self.scope = scope
        self.channel_layer = None
        self.channel_name = f"page.{uuid.uuid4().hex}"  # this page's name in the presence store
        self.base_send = send
        try:
            while True:
                await self.dispatch(await receive())
        except StopConsumer:
            pass

    async def dispatch(self, message):
        """Channels' dispatch without its thread hop per frame to close stale database
        connections: these handlers reach the database only through ``database_sync_to_async``
        (which closes them on its own thread) or the async pick pool, and at 1,000 pages the
        hop cost more CPU than the pick itself."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def join(self, *groups: str) -> None:
        """Hear these Channels groups until the socket closes (Channels leaves a consumer's
        ``groups`` when it disconnects)."""
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)
            self.groups.append(group)

    async def send(self, text_data=None, bytes_data=None, close=False):
        """Text frames straight to the server (draftsite.websockets: ``frame_send``)."""
        if self.forbidden and not close:  # the viewer lost the page: nothing more reaches it
            return
        frame_send = self.scope.get("frame_send")
        if text_data is not None and bytes_data is None and not close and frame_send is not None:
            try:
                await frame_send({"type": "websocket.send", "text": text_data})
            except (RuntimeError, OSError) as error:
                # The socket closed while this frame was being made (the page left mid-pick):
                # the server refuses frames after a close; the disconnect handler cleans up.
                logger.debug("Frame for a closed socket dropped: %s", error)
            return
        await super().send(text_data=text_data, bytes_data=bytes_data, close=close)

    async def send_json(self, content, close=False):
        """Through ``send`` above (Channels' ``send_json`` calls its parent's ``send``)."""
        await self.send(text_data=await self.encode_json(content), close=close)

    async def forbid(self) -> None:
        """The viewer may no longer follow: stop at once and close."""
        self.forbidden = True
        await self.close(code=CLOSE_FORBIDDEN)

    async def astill_allowed(self) -> bool:
        """Checked at every heartbeat: whether the viewer may still follow the page (a socket
        whose viewer cannot lose it answers True without a look)."""
        return True

    async def receive_json(self, content, **kwargs):
        """A socket whose clients send only heartbeats: the heartbeat is answered (the page
        resyncs its clock) unless the viewer lost the page; any other frame is answered with
        the ``error`` its protocol's parser gives (``unknown_message``)."""
        assert self.protocol is not None, f"{type(self).__name__} names no protocol module"
        if await self.parsed(content, self.protocol.parse_client_frame) is None:
            return
        if not await self.astill_allowed():
            await self.forbid()
            return
        await self.send_json(heartbeat(timezone.now().isoformat()))
