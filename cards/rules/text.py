"""Translatable messages for the plain-Python cores (rules, decklist parsing, deck checks).

The cores may not import Django, yet what they explain reaches players in their own
language. ``gettext`` here marks a message for ``makemessages`` and returns a :class:`Msg`:
English text (a ``str``, so every caller keeps working) that remembers its template and
parameters, so the web layer (``draftsite.i18n.localize``) can translate it into the
request's language.
"""

from __future__ import annotations

from typing import Any


class Msg(str):
    """An English message that can still be translated: ``template % params``."""

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, params: dict[str, Any] | None = None) -> Msg:
        text = template % params if params else template
        self = super().__new__(cls, text)
        self.template = template
        self.params = dict(params or {})
        return self

    def __mod__(self, params: Any) -> Msg:
        return Msg(self.template, params)

    def __reduce__(self):  # pickles (Celery, cache) keep the template
        return (Msg, (self.template, self.params))


def gettext(template: str) -> Msg:
    """Mark ``template`` for translation; ``gettext("... %(x)s") % {"x": 1}`` fills it in."""
    return Msg(template)
