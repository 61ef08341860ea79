"""Enqueue a push once the caller's transaction commits. The services of the apps below push
tell it of their changes through ``drafts.extensions.notice_on_commit`` (push/apps.py listens);
push's own services call ``send_on_commit``. It only books a Celery task by name (services
import no tasks): the push service's speed never reaches a pick or a pairing."""

from __future__ import annotations

import logging

from celery import current_app
from django.conf import settings
from django.db import transaction

logger = logging.getLogger(__name__)

FAN_OUT_TASK = "push.fan_out"
# The kinds a service books are push.models.Trigger's values (drafts.extensions names those
# of the apps below push; the sweep books the timed ones).


def enqueue(kind: str, object_id: int) -> None:
    """Book the fan-out now (outside a transaction: a timer's sweep). A broker that is down
    costs the notice, never the caller's answer."""
    if not (settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY):
        return  # push is off: nothing to book
    try:
        current_app.tasks[FAN_OUT_TASK].delay(kind, object_id)
    except Exception:
        logger.warning("could not book the %s push of %s", kind, object_id, exc_info=True)


def send_on_commit(kind: str, object_id: int) -> None:
    """Tell the players concerned by ``kind`` about ``object_id`` after the commit."""
    transaction.on_commit(lambda: enqueue(kind, object_id))
