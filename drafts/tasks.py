"""Celery tasks of the draft engine: thin, idempotent wrappers around services."""

from __future__ import annotations

import datetime as dt
import logging

from celery import shared_task
from django.utils import timezone

logger = logging.getLogger(__name__)


@shared_task(name="drafts.enforce_pod_deadlines", ignore_result=True, acks_late=True)
def enforce_pod_deadlines(pod_id: int) -> bool:
    """Apply whatever is due in one pod (idempotent: a duplicate finds nothing due). Nothing
    books it any more (see ``sweep_due_pods``); it stays so that checks booked before an
    upgrade still run."""
    from drafts.models import Pod
    from drafts.services import enforce_deadlines

    if not Pod.objects.filter(pk=pod_id).exists():
        return False  # the pod was deleted (re-seated, or a restored backup): nothing to do
    return enforce_deadlines(pod_id=pod_id, now=timezone.now(), grace=True)


def pods_past_their_stage(cutoff: dt.datetime):
    """Pods whose review or deck building ended by ``cutoff``: read through the partial indexes
    pod_review_due and pod_building_due (drafts 0029), not every pod the site ever had."""
    from django.db.models import Q

    from drafts.models import Pod, PodState

    return Pod.objects.filter(
        Q(state=PodState.REVIEWING, review_deadline__lte=cutoff)
        | Q(state=PodState.DECK_BUILDING, deck_building_deadline__lte=cutoff)
    )


@shared_task(name="drafts.sweep_due_pods", ignore_result=True)
def sweep_due_pods() -> int:
    """Enforce every pod with a deadline already past (Celery beat, every
    ``DEADLINE_SWEEP_SECONDS``). Returns how many pods changed.

    This is the only timer: two indexed queries a second find the due pods, whatever the
    number of pods. A check booked per pod at its next deadline (the earlier design) fired
    after nearly every pick only to find the player had picked, and cost the worker more CPU
    than the picks cost PostgreSQL. Clocks count as run out ``PICK_TIMER_GRACE_SECONDS`` after
    their deadline anyway, so the sweep's second adds no unfairness.
    """
    from drafts.models import Pack, PodState
    from drafts.services import enforce_deadlines
    from drafts.services.changes import grace_cutoff

    now = timezone.now()
    cutoff = grace_cutoff(now)
    due = set(
        Pack.objects.filter(holder__isnull=False, deadline__lte=cutoff, pod__state=PodState.DRAFTING).values_list(
            "pod_id", flat=True
        )
    )
    due |= set(pods_past_their_stage(cutoff).values_list("pk", flat=True))
    return sum(bool(enforce_deadlines(pod_id=pod_id, now=now, grace=True)) for pod_id in sorted(due))
