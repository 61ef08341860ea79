"""The one decoder of what a browser or API client sends over any of the site's websockets.

A client frame is a JSON object in a text frame. Anything else (an empty text frame, a binary
frame, text that is not JSON, JSON nested deeper than any message of the protocols, a JSON
value that is not an object, text with a NUL or a lone surrogate) is answered with
``{"type": "error", "code": "invalid_frame"}`` and the socket stays open: a bad frame never
reaches a handler, never closes the socket and never fills the log with a traceback. Every
consumer of the site (drafts, paper, matches, ping) reads its frames through
:class:`GuardedJsonConsumer`; a frame it decodes is then the consumer's to answer (an object of
an unknown ``type`` is ``unknown_message``, each app's own code).
"""

from __future__ import annotations

from typing import Any

import orjson
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from rest_framework.exceptions import ParseError

from draftsite.parsers import check_json_value

INVALID_FRAME = "invalid_frame"

# Deeper than any message a page or client sends (a pick is one level).
MAX_FRAME_DEPTH = 8


def decode_frame(text_data: str | None, bytes_data: bytes | None = None) -> dict[str, Any] | None:
    """The frame's JSON object, or None when it is anything else (see the module)."""
    if bytes_data is not None or not text_data:
        return None
    try:
        content = orjson.loads(text_data)  # orjson refuses deep nesting with a ValueError, never a RecursionError
        check_json_value(content, max_depth=MAX_FRAME_DEPTH)
    except (ValueError, ParseError):
        return None
    return content if isinstance(content, dict) else None


class GuardedJsonConsumer(AsyncJsonWebsocketConsumer):
    """A JSON websocket consumer whose ``receive_json`` only ever gets a decoded object."""

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        content = decode_frame(text_data, bytes_data)
        if content is None:
            await self.send_json({"type": "error", "code": INVALID_FRAME})
            return
        await self.receive_json(content, **kwargs)

    @classmethod
    async def encode_json(cls, content):
        return orjson.dumps(content).decode()  # pick answers carry whole packs: a fast encoder
