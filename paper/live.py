"""Live updates of the called paper draft, and the booking of its one timer.

Pages never need the server to move from one call to the next (they tick through the
timeline they were given); they hear only that a pod changed, then fetch the call. The
services call :func:`call_changed` and :func:`close_followers` once their transaction
commits. The one Celery task (``paper.tasks.settle_call``) only mirrors the end of the draft
into the pod's state (deck building, done) when no page happens to read the pod then; reads
settle it too, so a dead worker changes nothing a page shows. It is booked here by its name,
so the services never import the tasks (the tasks call the services).
"""

from __future__ import annotations

import logging

from celery import current_app
from django.conf import settings
from django.utils import timezone

from drafts.live import notify_pod
from drafts.models import Pod
from draftsite.groups import send_to_group
from paper import schedule, selectors

logger = logging.getLogger(__name__)

# The settle task's name (``paper.tasks.settle_call`` is registered under it).
SETTLE_CALL_TASK = "paper.settle_call"


def paper_group(pod_id: int) -> str:
    return f"paper-pod-{pod_id}"


def call_changed(pod_id: int, version: int) -> None:
    """Side effects of a committed change: caller, phone and follower pages, the dashboard."""
    send_to_group(paper_group(pod_id), {"type": "paper.changed", "version": version})
    notify_pod(pod_id, version)  # the event dashboard listens on the pod's draft group
    book_settle(pod_id)


def close_followers(pod_id: int) -> None:
    """The follow link was replaced or turned off: open follower pages are closed."""
    send_to_group(paper_group(pod_id), {"type": "paper.followers_revoked"})


def book_settle(pod_id: int) -> None:
    """Book the next moment time alone changes the pod's state (deck building starts, ends)."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return  # no worker to wait; reads settle the pod instead
    pod = Pod.objects.select_related("event").filter(pk=pod_id).first()
    called = selectors.called_pod(pod) if pod else None
    if pod is None or called is None:
        return
    now = timezone.now()
    due = []
    for segment in selectors.scheduled(schedule.timeline, pod, selectors.call_inputs(called), now):
        if segment.step.phase == schedule.DECK_BUILDING:
            due += [t for t in (segment.begins_at, segment.ends_at) if t > now]
    try:
        for eta in due:
            current_app.send_task(SETTLE_CALL_TASK, args=(pod_id,), eta=eta)
    except Exception:  # broker down: reads still settle the pod
        logger.warning("Could not book the settle check of pod %s", pod_id, exc_info=True)
