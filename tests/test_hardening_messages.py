"""The messages issue 46 items 11-14 added read in every language of the site (a refusal in
English on a translated page is what a new user tripped over)."""

from __future__ import annotations

import pytest
from django.utils import translation
from django.utils.translation import gettext

NEW_MESSAGES = [
    "%(name)s must be a whole number written with the digits 0-9.",
    "%(card)s: “%(value)s” is not a whole number.",
    "%(land)s: “%(value)s” is not a number of lands between 0 and %(limit)s.",
    "The request body must be a JSON object, like {}.",
    "Write at most %(limit)s characters; this text has %(length)s.",
    "A display name needs at least one visible letter, digit or symbol.",
    "A display name has at most %(limit)s characters.",
    "A name needs at least one visible letter, digit or symbol.",
    "A name has at most %(limit)s characters.",
    "A finding's description has at most %(limit)s characters.",
    "A finding names at most %(limit)s cards, each at most %(name_limit)s characters long.",
    "Deck check notes have at most %(limit)s characters.",
]


@pytest.mark.parametrize("language", ["pt-br", "es", "it", "ru"])
def test_every_new_message_is_translated(language):
    with translation.override(language):
        untranslated = [m for m in NEW_MESSAGES if gettext(m) == m]
    assert untranslated == []


def test_the_messages_are_the_ones_the_code_uses():
    """Each listed msgid appears in the source, so the list cannot drift from the code."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    source = "".join(
        p.read_text(encoding="utf-8")
        for app in ("accounts", "decks", "drafts", "draftsite", "events", "judgecalls")
        for p in (root / app).rglob("*.py")
    )
    assert [m for m in NEW_MESSAGES if m not in source] == []
