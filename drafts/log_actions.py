"""The pod log's actions: the draft engine's own (``PodAction``, registered by
``DraftsConfig.ready``) and those other apps register (paper's calls), through
``drafts.extensions``. ``drafts.models`` reads the choices from here, which imports nothing of
the app: the registry and the models import no cycle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from django.db.models import TextChoices

_log_actions: list[type[TextChoices]] = []


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
