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
  their labels.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from django.db.models import TextChoices

    from drafts.models import Event


@dataclass(frozen=True)
class EventDashboard:
    """How the event dashboard reads an event whose pods another app runs."""

    settle: Callable[..., None]  # settle(event=, now=): brings the event's pods up to date first
    rows: Callable[[Event, dt.datetime], list[dict]]  # the dashboard's lines, one per pod


_dashboards: dict[str, EventDashboard] = {}
_demo_parts: list[Callable[[Event], str]] = []
_log_actions: list[type[TextChoices]] = []


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


def register_log_actions(actions: type[TextChoices]) -> None:
    if actions not in _log_actions:
        _log_actions.append(actions)


def log_action_choices() -> list[tuple[str, str]]:
    """``PodLogEntry.action``'s choices: the draft engine's own (``PodAction``, registered by
    ``DraftsConfig.ready``) and every other app's."""
    return [choice for actions in _log_actions for choice in actions.choices]


def log_action_label(action: str) -> str:
    """What the pod log says of an action with no text of its own; an unknown action is a bug (KeyError)."""
    return str(dict(log_action_choices())[action])
