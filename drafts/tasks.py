"""Celery tasks of the draft engine: thin, idempotent wrappers around services."""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from celery import shared_task
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

logger = logging.getLogger(__name__)


def pod_group(pod_id: int) -> str:
    return f"pod-{pod_id}"


def _check_key(pod_id: int) -> str:
    return f"pod-check:{pod_id}"


@shared_task(name="drafts.enforce_pod_deadlines", ignore_result=True, acks_late=True)
def enforce_pod_deadlines(pod_id: int) -> bool:
    """Apply whatever is due in a pod, then book the next check. Idempotent: safe to run
    any number of times, early or late (a duplicate finds nothing due)."""
    from drafts.models import Pod
    from drafts.services import enforce_deadlines

    cache.delete(_check_key(pod_id))
    if not Pod.objects.filter(pk=pod_id).exists():
        return False  # the pod was deleted (re-seated, or a restored backup): nothing to do
    changed = enforce_deadlines(pod_id=pod_id, now=timezone.now())
    if not changed:  # a change books its own next check on commit
        schedule_deadline_check(pod_id)
    return changed


@shared_task(name="drafts.sweep_due_pods", ignore_result=True)
def sweep_due_pods() -> int:
    """Enforce every pod with a deadline already past (Celery beat, every few seconds).

    The per-pod checks booked at each deadline are the fast path; this sweep is the safety
    net that makes a restarted worker catch up even when a booked check died with the old
    worker. Returns how many pods changed.
    """
    from django.db.models import Q

    from drafts.models import Pack, Pod, PodState
    from drafts.services import enforce_deadlines

    now = timezone.now()
    due = set(Pack.objects.filter(holder__isnull=False, deadline__lte=now,
                                  pod__state=PodState.DRAFTING).values_list("pod_id", flat=True))
    due |= set(Pod.objects.filter(Q(state=PodState.REVIEWING, review_deadline__lte=now)
                                  | Q(state=PodState.DECK_BUILDING, deck_building_deadline__lte=now))
               .values_list("pk", flat=True))
    return sum(bool(enforce_deadlines(pod_id=pod_id, now=now)) for pod_id in sorted(due))


def schedule_deadline_check(pod_id: int) -> None:
    """Ask a worker to enforce the pod's next deadline on time.

    Without a broker (eager mode) there is no one to wait until then; reads of the pod
    enforce deadlines instead, which keeps the embedded site correct.
    """
    from drafts.models import Pod
    from drafts.services.picks import next_due_at

    if settings.CELERY_TASK_ALWAYS_EAGER:
        return
    pod = Pod.objects.select_related("event").filter(pk=pod_id).first()
    due = next_due_at(pod) if pod else None
    if due is None:
        return
    try:
        # One pending check per pod is enough: every pick moves deadlines, and booking a
        # task for each would flood the broker. A check booked for an earlier moment
        # books the next one when it runs; the cache entry expires if that task is lost.
        booked = cache.get(_check_key(pod_id))
        if booked is not None and booked <= due.timestamp():
            return
        eta = max(due, timezone.now())
        cache.set(_check_key(pod_id), due.timestamp(), timeout=max(60, int((eta - timezone.now()).total_seconds()) + 60))
        enforce_pod_deadlines.apply_async((pod_id,), eta=eta)
    except Exception:  # broker down: reads still enforce deadlines; never fail the request
        logger.warning("Could not schedule the deadline check of pod %s", pod_id, exc_info=True)


def notify_pod(pod_id: int, version: int) -> None:
    """Tell every live page of the pod that it changed (they fetch what they may see)."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(pod_group(pod_id), {"type": "pod.changed", "version": version})
    except Exception:  # Redis down: pages fall back to polling; the database has the truth
        logger.warning("Could not notify pod %s", pod_id, exc_info=True)


def pod_changed(pod_id: int, version: int) -> None:
    """Side effects of a committed change to a pod."""
    schedule_deadline_check(pod_id)
    notify_pod(pod_id, version)


def event_group(event_id: int) -> str:
    return f"event-{event_id}"


def notify_event(event_id: int) -> None:
    """Tell the event's dashboards that its pods or settings changed (they re-read them)."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(event_group(event_id), {"type": "event.changed"})
    except Exception:  # Redis down: dashboards fall back to polling
        logger.warning("Could not notify event %s", event_id, exc_info=True)
