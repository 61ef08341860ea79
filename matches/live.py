"""Live updates of match pages: a "changed" message to the event's group (no data on it).

Services call :func:`notify_event` once their transaction commits (``matches.services.common.notify``);
the socket (``matches.consumers``) listens on :func:`event_group`. Publishing is not a Celery task:
the app has none.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)


def event_group(event_id: int) -> str:
    return f"matches-event-{event_id}"


def notify_event(event_id: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(event_group(event_id), {"type": "matches.changed", "event": event_id})
    except Exception:  # a live page refreshes on its own timer; never fail the write for it
        logger.warning("could not notify match pages of event %s", event_id, exc_info=True)
