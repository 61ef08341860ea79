"""Translation at the edge of the plain-Python cores.

The rules core, the decklist parsers and the deck check build their messages with
``cards.rules.text.gettext`` (no Django there); :func:`localize` turns such a message into
the active language (the request's, set by LocaleMiddleware) right where it leaves for a
person: an API error, a rules-desk step, a deck-check problem.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from cards.rules.text import Msg


def localize(text: Any) -> Any:
    """``text`` in the active language; anything that is not text comes back unchanged."""
    if isinstance(text, Msg):
        params = {key: localize(value) for key, value in text.params.items()}
        translated = gettext(text.template)
        try:
            return translated % params if text.params else translated
        except (KeyError, ValueError, TypeError):  # a broken translation never hides the message
            return str(text)
    return text


def localize_problems(problems: list[dict]) -> list[dict]:
    """Deck-check errors or warnings with their ``message`` in the active language."""
    return [{**problem, "message": localize(problem.get("message"))} for problem in problems]
