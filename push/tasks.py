"""Celery tasks of push notifications: thin wrappers taking ids (push.services does the work)."""

from __future__ import annotations

from celery import shared_task
from django.core.cache import cache
from django.utils import timezone

from push.dispatch import FAN_OUT_TASK

DELIVER_TASK = "push.deliver"
# A sweep books a warning's fan-out once; the per-user PushSent row is what guarantees it.
BOOKED_SECONDS = 3600


@shared_task(name=FAN_OUT_TASK, ignore_result=True)
def fan_out(kind: str, object_id: int) -> int:
    """One delivery task per user concerned, so one slow browser delays nobody else's."""
    from push import services

    users = services.fan_out(kind, object_id)
    for user_id in users:
        deliver.delay(kind, object_id, user_id)
    return len(users)


@shared_task(name=DELIVER_TASK, ignore_result=True)
def deliver(kind: str, object_id: int, user_id: int) -> int:
    from push import services

    return services.deliver(kind, object_id, user_id).sent


@shared_task(name="push.sweep", ignore_result=True)
def sweep() -> int:
    """Celery beat: ten-minute warnings due, and packs waiting for a player whose draft page is
    closed (no live socket: a sleeping phone's page stops its heartbeat). A page that is open
    but hidden notifies by itself (static/js/notify.js). Returns how many notices were booked."""
    from drafts import presence
    from push import config, notices, selectors

    if not config.enabled():
        return 0
    now = timezone.now()
    booked = 0
    for kind, object_id in selectors.due_warnings(now):
        if cache.add(f"push:booked:{kind}:{object_id}", 1, BOOKED_SECONDS):
            fan_out.delay(kind, object_id)
            booked += 1
    seats = selectors.waiting_seats()
    open_pages = presence.status([seat for seat, _, _ in seats])
    for seat, user, picks in seats:
        if open_pages.get(seat, {}).get("connections"):
            continue
        if cache.add(f"push:booked:{notices.Trigger.PACK_WAITING}:{seat}:{picks}", 1, BOOKED_SECONDS):
            deliver.delay(notices.Trigger.PACK_WAITING, seat, user)
            booked += 1
    return booked
