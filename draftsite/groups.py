"""One message to a Channels group of live pages, once a change has committed.

Used by every app's ``live`` module; a page's socket hears a group it joined with
``draftsite.sockets.LiveSocket.join``. The draft engine's pods travel another way, on
``drafts.live``'s hub (docs/architecture.md, "Live pages", says why). A page that misses a
message (Redis down, no channel layer) catches up on its own timer or its next version check,
so sending never raises: a committed change must not fail for it.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)


def send_to_group(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:
        logger.warning("Could not send %s to %s", message.get("type"), group, exc_info=True)
