"""Live updates of the judge-call queue and of the caller's pages (no data on the socket): the
services call these once their change commits."""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from judgecalls.frames import CALLER_MESSAGE_TYPE, CHANGED_MESSAGE_TYPE

logger = logging.getLogger(__name__)


def queue_group(event_id: int) -> str:
    return f"judgecalls-event-{event_id}"


def notify_queue(event_id: int, call_id: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(
            queue_group(event_id), {"type": CHANGED_MESSAGE_TYPE, "event": event_id, "call": call_id}
        )
    except Exception:  # the queue page refreshes on its own timer; never fail the write for it
        logger.warning("could not notify the judge-call queue of event %s", event_id, exc_info=True)


def caller_group(registration_id: int) -> str:
    """The caller's own pages (the draft page's call box): their registration's calls only."""
    return f"judgecalls-caller-{registration_id}"


def notify_caller(registration_id: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(caller_group(registration_id), {"type": CALLER_MESSAGE_TYPE})
    except Exception:  # the box is redrawn on the next page load; never fail the write for it
        logger.warning("could not notify the caller of registration %s", registration_id, exc_info=True)
