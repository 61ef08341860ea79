"""The one reader of whole numbers a client writes: query strings, form fields, path tails.

Only ASCII digits make a number here. ``str.isdigit()`` also accepts "²" (which ``int()``
refuses: a 500) and ``int()`` also accepts "٣", "１２" and "1_000": none of them is what a form
or a link sends, so each is refused the same way as "abc" (issue 46, item 11). A value past
the column's range (``draftsite.bounds``) is refused too, before PostgreSQL sees it.

:func:`parse` answers ``None`` for a value that is not a number; :func:`from_request` raises
:class:`InvalidNumber`, a 400 with code ``invalid_number``: the API's JSON error through the
API's handler, the 400 page (or the JSON error for a JSON view) through
``draftsite.middleware.ResilienceMiddleware``. tests/test_whole_numbers.py keeps every reader
of request data on this module.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext

from draftsite.bounds import ID_MAX
from draftsite.errors import DomainError

INVALID_NUMBER = "invalid_number"

_UNSIGNED = re.compile(r"[0-9]+", re.ASCII)
_SIGNED = re.compile(r"-?[0-9]+", re.ASCII)


class InvalidNumber(DomainError):
    """A request value that should be a whole number is not one (400 ``invalid_number``)."""


def parse(value: Any, *, minimum: int = 0, maximum: int = ID_MAX) -> int | None:
    """``value`` as an int when it is written in ASCII digits (a leading "-" when ``minimum``
    is negative; spaces around are ignored) and lies in ``[minimum, maximum]``; else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        number = value
    else:
        if not isinstance(value, str):
            return None
        text = value.strip()
        if not (_SIGNED if minimum < 0 else _UNSIGNED).fullmatch(text) or len(text) > 20:
            return None
        number = int(text)
    return number if minimum <= number <= maximum else None


def from_request(
    data: Mapping[str, Any], name: str, *, minimum: int = 0, maximum: int = ID_MAX, field: str | None = None
) -> int | None:
    """The whole number ``data[name]`` holds (``request.GET``, ``request.POST``,
    ``request.query_params``); None when it is absent or empty; :class:`InvalidNumber` when it
    holds anything else."""
    raw = data.get(name)
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    number = parse(raw, minimum=minimum, maximum=maximum)
    if number is None:
        raise invalid(field or name)
    return number


def invalid(name: str) -> InvalidNumber:
    """The refusal for ``name``, a field or query parameter that holds no whole number."""
    return InvalidNumber(
        INVALID_NUMBER,
        gettext("%(name)s must be a whole number written with the digits 0-9.") % {"name": name},
        field=name,
    )
