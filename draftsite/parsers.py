"""The API's JSON parser: bad JSON of every kind is a 400 with a stable code, never a 500.

DRF's parser turns ``ValueError`` into a 400, but not what the standard library lets through:
a body nested 100,000 levels deep raises ``RecursionError``, and ``"\\ud800"`` (a lone UTF-16
surrogate) decodes to a string that cannot be encoded again (the database, hashing and
templates then fail). NUL characters are refused too: PostgreSQL cannot store them in text.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser as DRFJSONParser

JSON_TOO_DEEP = "json_too_deep"
INVALID_TEXT = "invalid_text"
MALFORMED_REQUEST = "malformed_request"

# Deeper than any body this API accepts (a deck with checklist cards is 4 levels).
MAX_DEPTH = 32


def bad_text(value: str) -> bool:
    """A NUL character or a lone surrogate: text no database column or encoder accepts."""
    if "\x00" in value:
        return True
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def check_json_value(data: Any, max_depth: int = MAX_DEPTH) -> None:
    """Walk a decoded value without recursion; raise ParseError on depth or bad text."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            if bad_text(value):
                raise ParseError(
                    _("Text in the request contains a NUL character or an invalid Unicode code point."),
                    code=INVALID_TEXT,
                )
            continue
        if isinstance(value, (dict, list)):
            if depth > max_depth:
                raise ParseError(
                    _("The request is nested more than %(depth)d levels deep.") % {"depth": max_depth},
                    code=JSON_TOO_DEEP,
                )
            items = value.items() if isinstance(value, dict) else ((None, v) for v in value)
            for key, item in items:
                if key is not None:
                    stack.append((key, depth + 1))
                stack.append((item, depth + 1))


def _nesting_exceeds(raw: bytes | str, max_depth: int) -> bool:
    """Cheap scan before decoding: brackets outside strings deeper than ``max_depth``."""
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > max_depth:
                return True
        elif char in "]}":
            depth -= 1
    return False


def loads(raw: bytes | str) -> Any:
    """``json.loads`` for untrusted bodies: ParseError with a stable code on anything bad."""
    if _nesting_exceeds(raw, MAX_DEPTH):
        raise ParseError(
            _("The request is nested more than %(depth)d levels deep.") % {"depth": MAX_DEPTH}, code=JSON_TOO_DEEP
        )
    try:
        data = json.loads(raw, parse_constant=_refuse_constant)
    except RecursionError as exc:
        raise ParseError(_("The request is nested too deeply."), code=JSON_TOO_DEEP) from exc
    except (ValueError, UnicodeDecodeError) as exc:
        raise ParseError(
            _("The request body is not valid JSON: %(error)s") % {"error": exc}, code=MALFORMED_REQUEST
        ) from exc
    check_json_value(data)
    return data


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not JSON")


class JSONParser(DRFJSONParser):
    """DRF's JSON parser with the checks above (used for every API view)."""

    def parse(self, stream, media_type=None, parser_context=None):
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        raw = stream.read() if stream is not None else b""
        try:
            text = raw.decode(encoding)
        except (UnicodeDecodeError, LookupError) as exc:
            raise ParseError(
                _("The request body is not valid %(encoding)s text.") % {"encoding": encoding}, code=MALFORMED_REQUEST
            ) from exc
        return loads(text)
