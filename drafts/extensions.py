"""What the apps above the draft engine add to its pages and commands. They register here from
their ``AppConfig.ready()``, so the draft engine imports none of them (the layers contract in
``.importlinter``):

* an event format another app runs (paper's called pods) fills the organiser's event
  dashboard: ``register_dashboard(draft_format, settle=..., rows=...)``;
* ``manage.py load_demo`` adds each app's part of the demo: ``register_demo(add_to_demo)``.
  ``add_to_demo(event)`` sets its part up for the demo's draft event (idempotent) and returns
  the line the command prints; the parts run in the order of ``INSTALLED_APPS``;
* an app that logs its own actions in a pod's log (paper's calls) registers their choices:
  ``register_log_actions(CallAction)``. ``PodLogEntry.action`` takes them, the pod log shows
  their labels (``drafts.log_actions``, read by ``drafts.models``);
* an app that acts once another's change is committed (push books its notices, accounts mails
  a round's players) listens for the change's kind: ``register_listener(kinds, listener)``; the
  services that change a round, a pod or a call say ``notice_on_commit(kind, object_id)`` and
  import neither.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction

# The pod log's registry is its own module (drafts.models reads it: no cycle with this one).
from drafts.log_actions import log_action_choices as log_action_choices
from drafts.log_actions import log_action_label as log_action_label
from drafts.log_actions import register_log_actions as register_log_actions
from events.models import Event


@dataclass(frozen=True)
class EventDashboard:
    """How the event dashboard reads an event whose pods another app runs."""

    settle: Callable[..., None]  # settle(event=, now=): brings the event's pods up to date first
    rows: Callable[[Event, dt.datetime], list[dict]]  # the dashboard's lines, one per pod


_dashboards: dict[str, EventDashboard] = {}
_demo_parts: list[Callable[[Event], str]] = []


def register_dashboard(
    draft_format: str,
    *,
    settle: Callable[..., None],
    rows: Callable[[Event, dt.datetime], list[dict]],
) -> None:
    _dashboards[draft_format] = EventDashboard(settle=settle, rows=rows)


def dashboard_for(draft_format: str) -> EventDashboard | None:
    """The registered dashboard of the format, or None: the draft engine's own pods."""
    return _dashboards.get(draft_format)


def register_demo(add_to_demo: Callable[[Event], str]) -> None:
    if add_to_demo not in _demo_parts:  # a repeated ready() adds no second part
        _demo_parts.append(add_to_demo)


def demo_parts() -> tuple[Callable[[Event], str], ...]:
    return tuple(_demo_parts)


# --- after a commit: what the services tell the apps above them ---------------------------------

# The kinds of change (push.models.Trigger's values, and accounts' round mail).
PAIRINGS = "pairings"  # a round's pairings are posted (the round's id)
PAIRINGS_REPAIRED = "pairings_repaired"  # a round's pairings were repaired (push tells them again)
ROUND_START = "round_start"  # a round has started (the round's id)
DRAFT_START = "draft_start"  # a pod's draft has started, or a player was seated (the pod's id)
JUDGE = "judge"  # a judge took or answered a call (the call's id)

_listeners: list[tuple[frozenset[str], Callable[[str, int], object]]] = []


def register_listener(kinds: set[str], listener: Callable[[str, int], object]) -> None:
    """``listener(kind, object_id)`` runs after the commit of each change of one of ``kinds``."""
    if all(registered is not listener for _, registered in _listeners):  # a repeated ready() adds none
        _listeners.append((frozenset(kinds), listener))


def notice_on_commit(kind: str, object_id: int) -> None:
    """Every listener of ``kind`` hears of ``object_id`` once the caller's transaction commits
    (in the order the apps registered: ``INSTALLED_APPS``); a rolled-back change tells none."""
    for kinds, listener in _listeners:
        if kind in kinds:
            transaction.on_commit(functools.partial(listener, kind, object_id))
