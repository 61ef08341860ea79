"""Live updates of the judge-call queue and of the caller's pages (no data on the socket): the
services call these once their change commits."""

from __future__ import annotations

from draftsite.groups import send_to_group
from judgecalls.protocol import CALLER_MESSAGE_TYPE, CHANGED_MESSAGE_TYPE


def queue_group(event_id: int) -> str:
    return f"judgecalls-event-{event_id}"


def notify_queue(event_id: int, call_id: int) -> None:
    send_to_group(queue_group(event_id), {"type": CHANGED_MESSAGE_TYPE, "event": event_id, "call": call_id})


def caller_group(registration_id: int) -> str:
    """The caller's own pages (the draft page's call box): their registration's calls only."""
    return f"judgecalls-caller-{registration_id}"


def notify_caller(registration_id: int) -> None:
    send_to_group(caller_group(registration_id), {"type": CALLER_MESSAGE_TYPE})
