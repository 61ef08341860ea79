"""The paper draft's one Celery task: a thin, idempotent wrapper that takes an id and calls
a service (``paper.live.book_settle`` books it by name; publishing is ``paper.live``'s)."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from drafts.models import Pod
from paper import live, services


@shared_task(name=live.SETTLE_CALL_TASK, ignore_result=True, acks_late=True)
def settle_call(pod_id: int) -> bool:
    if not Pod.objects.filter(pk=pod_id).exists():
        return False
    return services.settle(pod_id=pod_id, now=timezone.now())
