"""One date format per language on a page (issue 27): what a page's dates look like in
Brazilian Portuguese, and the other forms that must not be on it."""

from __future__ import annotations

import re

# pt_BR's DATE_FORMAT and DATETIME_FORMAT: "29 de Novembro de 2026" and "... às 15:00".
PT_BR_DATE = re.compile(r"^\d{1,2} de [A-Za-zç]+ de \d{4}( às \d{2}:\d{2})?$")

# ISO dates, numeric day/month/year, English short months, clock times with seconds.
OTHER_DATE_FORMS = re.compile(
    r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b|\b\d{1,2} (Nov|nov|Dec|dec)\.? 20\d\d\b|\b\d{1,2}:\d{2}:\d{2}\b"
)


def times(html: str) -> list[str]:
    """The text of every ``<time>`` element of the page."""
    return re.findall(r"<time datetime=\"[^\"]+\">([^<]+)</time>", html)


def other_date_forms(html: str) -> list[str]:
    """Dates or clock times in the page's text (tags and their attributes left out) that are
    not in the language's format."""
    text = re.sub(r"<[^>]*>", " ", html)
    return [m.group(0) for m in OTHER_DATE_FORMS.finditer(text)]
