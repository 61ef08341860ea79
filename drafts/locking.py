"""Row locks for contended draft rows. Always lock the pod first: one order, no deadlocks."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext

from drafts import error_codes
from drafts.models import Pod
from draftsite.errors import ConflictError, NotFoundError
from events.models import DraftFormat


def lock_pod(pod_id: int) -> Pod:
    """Lock a pod row for the rest of the current transaction (every draft write does this).

    A pod is the unit of contention: its eight seats pass packs to each other, so every
    write that moves a card, starts a round or changes a clock takes this one lock.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("lock_pod() must run inside transaction.atomic()")
    # ``of``: the pod row only. A bare FOR UPDATE would also lock the joined event row and
    # make every pod of an event wait for every other.
    pod = Pod.objects.select_for_update(of=("self",)).select_related("event").filter(pk=pod_id).first()
    if pod is None:
        raise NotFoundError(error_codes.UNKNOWN_POD, gettext("No pod has id %(pod_id)s.") % {"pod_id": pod_id})
    if pod.event.draft_format == DraftFormat.PAPER:
        # Every engine write locks here first: a paper pod has no packs to open or pass.
        raise ConflictError(
            error_codes.PAPER_POD, gettext("This pod drafts paper boosters: call it from its caller page.")
        )
    return pod
