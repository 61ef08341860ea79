"""One message to a Channels group of live pages, once a change has committed.

Used by every app's ``live`` module. A page that misses one (Redis down, no channel layer)
catches up on its own timer or its next version check, so sending never raises: a committed
change must not fail for it.
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
