"""Translation at the edge of the plain-Python cores.

The rules core, the decklist parsers and the deck check build their messages with
``cards.rules.text.gettext`` (no Django there); :func:`localize` turns such a message into
the active language (the request's, set by LocaleMiddleware) right where it leaves for a
person: an API error, a rules-desk step, a deck-check problem. Stored problems keep their
English text plus the template and parameters (:func:`freeze_problems`), so a judge reading
a list later sees it in the judge's own language.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from cards.rules.text import Msg

_I18N_KEY = "message_i18n"


def localize(text: Any) -> Any:
    """``text`` in the active language; anything that is not a core message comes back unchanged."""
    if isinstance(text, Msg):
        params = {key: localize(value) for key, value in text.params.items()}
        translated = gettext(text.template)
        try:
            return translated % params if text.params else translated
        except (KeyError, ValueError, TypeError):  # a broken translation never hides the message
            return str(text)
    return text


def _freeze(value: Any) -> Any:
    if isinstance(value, Msg):
        return {"template": value.template, "params": {k: _freeze(v) for k, v in value.params.items()}}
    return value if isinstance(value, (int, float)) else str(value)


def _thaw(value: Any) -> Any:
    if isinstance(value, dict) and "template" in value:
        return Msg(str(value["template"]), {k: _thaw(v) for k, v in (value.get("params") or {}).items()})
    return value


def freeze_problems(problems: list[dict]) -> list[dict]:
    """Problems as stored: English ``message`` plus what it takes to translate it later."""
    out = []
    for problem in problems:
        message = problem.get("message")
        frozen = {**problem, "message": str(message)}
        if isinstance(message, Msg):
            frozen[_I18N_KEY] = _freeze(message)
        out.append(frozen)
    return out


def localize_problems(problems: list[dict]) -> list[dict]:
    """Deck-check errors or warnings (fresh or stored) with ``message`` in the active language."""
    out = []
    for problem in problems:
        problem = dict(problem)
        frozen = problem.pop(_I18N_KEY, None)
        message = _thaw(frozen) if isinstance(frozen, dict) else problem.get("message")
        problem["message"] = localize(message)
        out.append(problem)
    return out
