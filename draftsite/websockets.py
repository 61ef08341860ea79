"""The websocket side of the ASGI application, around Channels' origin, session and auth stack.

``SocketGuard`` does two things for every socket:

- It refuses a handshake cleanly when the database is out of reach. Looking up the session and
  user, or the consumer's own permission check, may find the connection pool exhausted
  (overload) or the database restarting. Without the guard that error escaped the application
  as "Exception in ASGI application" with a traceback per socket; now the handshake is refused
  (close code 1013, try again later) and one line is logged. The page reconnects, as it does
  after any closed socket.
- It hands the consumers the server's own ``send`` as ``scope["frame_send"]``. Channels' session
  middleware wraps ``send`` to save the session on HTTP responses only, yet checks the session on
  every message; with 1,000 draft pages each pick's ~10 frames paid that check
  (``drafts.consumers`` sends its frames through it).
"""

from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError

logger = logging.getLogger(__name__)

CLOSE_TRY_AGAIN_LATER = 1013


class SocketGuard:
    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        opened = False

        async def tracked_send(message):
            nonlocal opened
            if message["type"] == "websocket.accept":
                opened = True
            await send(message)

        try:
            return await self.app(dict(scope, frame_send=send), receive, tracked_send)
        except (OperationalError, InterfaceError) as error:
            stage = "closed" if opened else "refused"
            logger.warning("Websocket %s %s without the database: %s", scope.get("path"), stage, error)
            try:
                await send({"type": "websocket.close", "code": CLOSE_TRY_AGAIN_LATER})
            except Exception:  # the client had gone already: nothing left to close
                logger.debug("Websocket %s gone before its close", scope.get("path"), exc_info=True)
