"""CSV cells that a spreadsheet opens as text: a value typed by a person never starts a formula."""

from __future__ import annotations

from typing import Any

# Spreadsheets run a cell starting with one of these as a formula (CSV injection).
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    """``value`` as a CSV cell: text that would start a formula gets a leading apostrophe;
    numbers and None pass through."""
    if isinstance(value, str) and value[:1] in _FORMULA_STARTS:
        return "'" + value
    return value
