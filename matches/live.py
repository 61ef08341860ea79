"""Live updates of match pages: a "changed" message to the event's group (no data on it).

Services call :func:`notify_event` once their transaction commits (``matches.services.common.notify``);
the socket (``matches.consumers``) listens on :func:`event_group`. Publishing is not a Celery task:
the app has none.
"""

from __future__ import annotations

from draftsite.groups import send_to_group


def event_group(event_id: int) -> str:
    return f"matches-event-{event_id}"


def notify_event(event_id: int) -> None:
    send_to_group(event_group(event_id), {"type": "matches.changed", "event": event_id})
