"""Whether a name a person chose can be seen: a display name or a guest's name made only of
right-to-left overrides, zero-width or invisible characters, combining marks or spaces shows
as nothing (or turns the text around it backwards) on pairings, standings and slips."""

from __future__ import annotations

import unicodedata

# Format (U+202E RIGHT-TO-LEFT OVERRIDE, U+200B ZERO WIDTH SPACE, U+2066..U+2069 isolates),
# controls, surrogates, private use, unassigned, combining marks and separators.
_INVISIBLE_CATEGORIES = frozenset({"Cf", "Cc", "Cs", "Co", "Cn", "Mn", "Mc", "Me", "Zs", "Zl", "Zp"})
# Letters and symbols that are drawn as blanks (Hangul fillers, the blank Braille pattern).
_BLANK_CHARACTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def has_visible_character(text: str) -> bool:
    return any(ch not in _BLANK_CHARACTERS and unicodedata.category(ch) not in _INVISIBLE_CATEGORIES for ch in text)
