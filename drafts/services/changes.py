"""What every draft write does around its change: log it, bump the pod's version, note which
seats a pack reached, and tell live pages once the transaction commits. Shared by the engine
(``picks``) and the organiser controls (``control``)."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import transaction

from drafts.access import recorded_user
from drafts.models import Pod, PodLogEntry


def log_action(pod: Pod, at: dt.datetime, action: str, actor, **details) -> None:
    """Log ``action`` on the pod, by ``actor``: a user, or ``SYSTEM`` (the row names no user)."""
    PodLogEntry.objects.create(pod=pod, at=at, actor=recorded_user(actor), action=action, details=details)


def touch(pod: Pod) -> None:
    pod.version += 1


def arrived(pod: Pod, seat_id: int) -> None:
    """A pack reached the front of the seat's queue: its page is sent the pack (no request)."""
    if not hasattr(pod, "_arrivals"):
        pod._arrivals = {}
    pod._arrivals[seat_id] = None  # None: read the queue when telling the page


def after_commit(pod: Pod) -> None:
    """Tell live pages once the write is committed."""
    after_commit_version(pod.pk, pod.version, getattr(pod, "_arrivals", None) or {})
    pod._arrivals = {}


def after_commit_version(pod_id: int, version: int, arrivals: dict[int, list | None]) -> None:
    from drafts import live

    transaction.on_commit(lambda: live.notify_pod(pod_id, version, arrivals))


def grace_cutoff(now: dt.datetime) -> dt.datetime:
    """Clocks that ran out by this moment are enforced: the grace period lets a pick the
    server received in time, still on its way to the pod, arrive first."""
    return now - dt.timedelta(seconds=settings.PICK_TIMER_GRACE_SECONDS)
