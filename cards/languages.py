"""The languages card names are printed in, as the importers and look-ups name them.

Codes follow Django's language codes where the site is translated (``pt-br``, ``es``, ``it``,
``ru``), so a page in Portuguese can ask for the Portuguese printed names directly.
"""

from __future__ import annotations

ENGLISH = "en"

# code -> the language's own name (shown beside a printed name, never translated)
NAMES = {
    "en": "English",
    "de": "Deutsch",
    "es": "Español",
    "fr": "Français",
    "it": "Italiano",
    "ja": "日本語",
    "ko": "한국어",
    "pt-br": "Português (Brasil)",
    "ru": "Русский",
    "zh-hans": "简体中文",
    "zh-hant": "繁體中文",
}

# MTGJSON's foreignData "language" values
MTGJSON = {
    "German": "de",
    "Spanish": "es",
    "French": "fr",
    "Italian": "it",
    "Japanese": "ja",
    "Korean": "ko",
    "Portuguese (Brazil)": "pt-br",
    "Portuguese": "pt-br",
    "Russian": "ru",
    "Chinese Simplified": "zh-hans",
    "Chinese Traditional": "zh-hant",
}

# Scryfall's "lang" values
SCRYFALL = {
    "de": "de",
    "es": "es",
    "fr": "fr",
    "it": "it",
    "ja": "ja",
    "ko": "ko",
    "pt": "pt-br",
    "ru": "ru",
    "zhs": "zh-hans",
    "zht": "zh-hant",
}


def name_of(code: str) -> str:
    return NAMES.get(code, code)
