"""Penalty notices for players: in the player's language, whatever language the judge used.

The head judge's copy (and the audit trail) stays in the language of record (LANGUAGE_CODE),
with the infraction's code, so every judge reads the same record.
"""

from __future__ import annotations

from django.conf import settings
from django.utils import translation


def notice_language(request, user) -> str:
    """The language a player's notice is written in: the account's own language when accounts
    have one (a ``profile.language``), else the browser's (the switcher's cookie, then
    Accept-Language). One small function, so an accounts app changes only this."""
    supported = {code for code, _name in settings.LANGUAGES}
    chosen = getattr(getattr(user, "profile", None), "language", "") or ""
    if chosen.lower() in supported:
        return chosen.lower()
    return translation.get_language_from_request(request)


def record_language() -> str:
    return settings.LANGUAGE_CODE
