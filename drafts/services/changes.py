"""The one path of every write to a pod: lock the pod, authorize, settle, change, log, and tell
live pages once the transaction commits. Shared by the engine (``picks``) and the organiser
controls (``control``).

The engine's state is written by the engine only (``drafts.sql.ENGINE_COLUMNS``): a control is
one stored function (``drafts.sql.CONTROLS``) that settles what fell due, checks, changes the
clocks, queues or seats, logs and moves the pod's version; ``control`` builds its order and
reads its answer, as ``make_pick`` does for a pick. What is not the engine's (the spectator
link, a pile's cover) is written by ``write``, through the same lock and publishing.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from django.conf import settings
from django.db import transaction

from drafts.locking import lock_pod
from drafts.models import Pod, PodLogEntry
from drafts.services import fastpath
from draftsite.errors import DomainError
from events.access import SYSTEM, Permission, authorize, recorded_user


def locked(pod_id: int, actor, permission: Permission | None = Permission.ORGANISER) -> Pod:
    """The pod, its row locked for the transaction (``lock_pod``: unknown and paper pods are
    refused), once ``actor`` has ``permission`` on its event (``None``: the caller checked)."""
    pod = lock_pod(pod_id)
    if permission is not None:
        authorize(actor, pod.event, permission)
    return pod


def control(
    pod: Pod,
    function: str,
    *,
    actor,
    now: dt.datetime,
    refusal: Callable[[dict], DomainError],
    **arguments,
) -> Pod:
    """Run one control's stored function on ``pod`` (``locked``): what fell due by the grace
    cutoff is settled first, inside the function. A refusal is raised as ``refusal(answer)``
    (the transaction, settling included, rolls back); otherwise live pages hear the new version
    after the commit, and the pod is returned as the function left it."""
    answer = fastpath.control(
        function,
        pod_id=pod.pk,
        actor_id=None if actor is SYSTEM else getattr(actor, "pk", None),
        now=now,
        cutoff=grace_cutoff(now),
        arguments=arguments,
    )
    if answer["status"] != "ok":
        raise refusal(answer)
    after_commit_version(pod.pk, answer["version"], dict.fromkeys(answer["arrivals"]))
    pod.refresh_from_db()
    return pod


def write(pod: Pod, fields: list[str], *, actor, now: dt.datetime | None = None, action: str = "") -> Pod:
    """Save ``fields`` of ``pod`` (``locked``), none of them the engine's, move its version, log
    ``action`` (if any) and tell live pages after the commit."""
    if action:
        assert now is not None
        log_action(pod, now, action, actor)
    touch(pod)
    pod.save(update_fields=[*fields, "version"])
    after_commit(pod)
    return pod


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
