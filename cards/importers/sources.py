"""Opening input files (plain or gzip) and telling their format from their content."""

from __future__ import annotations

import gzip
import zlib
from contextlib import contextmanager
from enum import StrEnum

import ijson

from . import errors
from .errors import ImportFormatError

GZIP_MAGIC = b"\x1f\x8b"
_PEEK = 64 * 1024
# How many JSON events detection may read before giving up on finding "data".
_DETECT_EVENT_LIMIT = 200_000
_BOM = "\ufeff"


class Format(StrEnum):
    SCRYFALL = "scryfall"  # JSON array of Scryfall card objects
    SCRYFALL_LIST = "scryfall_list"  # Scryfall API list object {"object": "list", "data": [...]}
    MTGJSON_SET = "mtgjson_set"  # {"meta": ..., "data": {set with cards, tokens, booster}}
    MTGJSON_LIST = "mtgjson_list"  # {"meta": ..., "data": [card or token records]}
    COCKATRICE = "cockatrice"  # Cockatrice card database XML


@contextmanager
def open_binary(path: str):
    """Open ``path`` for reading bytes, decompressing if it starts with the gzip magic."""
    try:
        raw = open(path, "rb")
    except FileNotFoundError:
        raise ImportFormatError("no such file", code=errors.FILE_NOT_FOUND, path=str(path)) from None
    except IsADirectoryError:
        raise ImportFormatError("is a directory", code=errors.FILE_NOT_FOUND, path=str(path)) from None
    try:
        magic = raw.read(2)
        raw.seek(0)
        if magic == GZIP_MAGIC:
            stream = gzip.GzipFile(fileobj=raw, mode="rb")
            try:
                yield stream
            finally:
                stream.close()
        else:
            yield raw
    except (EOFError, gzip.BadGzipFile, zlib.error) as exc:
        raise ImportFormatError(
            f"the gzip data is damaged or truncated ({exc})", code=errors.BAD_GZIP, path=str(path)
        ) from exc
    finally:
        raw.close()


def detect_format(path: str) -> Format:
    """Look at the content, never the file name."""
    path = str(path)
    with open_binary(path) as stream:
        head = stream.read(_PEEK)
    text = head.decode("utf-8", errors="replace").lstrip(_BOM).lstrip()
    if not text:
        raise ImportFormatError("the file is empty", code=errors.EMPTY_FILE, path=path)
    first = text[0]
    if first == "[":
        return Format.SCRYFALL
    if first == "<":
        if "<cockatrice_carddatabase" in text:
            return Format.COCKATRICE
        raise ImportFormatError(
            "XML, but not a Cockatrice card database (no <cockatrice_carddatabase> root)",
            code=errors.UNKNOWN_FORMAT,
            path=path,
        )
    if first == "{":
        return _detect_json_object(path)
    raise ImportFormatError(
        "not a card file: expected a Scryfall JSON array, an MTGJSON file or Cockatrice XML",
        code=errors.UNKNOWN_FORMAT,
        path=path,
    )


def _detect_json_object(path: str) -> Format:
    is_list_object = False
    saw_meta = False
    with open_binary(path) as stream:
        events = ijson.parse(stream)
        try:
            for count, (prefix, event, value) in enumerate(events):
                if count > _DETECT_EVENT_LIMIT:
                    break
                if prefix == "" and event == "map_key":
                    saw_meta = saw_meta or value == "meta"
                elif prefix == "object" and event == "string":
                    is_list_object = value == "list"
                elif prefix == "data" and event in ("start_map", "start_array"):
                    if event == "start_map":
                        return Format.MTGJSON_SET
                    return Format.SCRYFALL_LIST if is_list_object else Format.MTGJSON_LIST
                elif prefix == "" and event == "end_map":
                    break
        except ijson.JSONError as exc:
            raise invalid_json(path, exc) from exc
    hint = ' (it has "meta" but no "data")' if saw_meta else ""
    raise ImportFormatError(
        f'a JSON object without a "data" set or list{hint}: not an MTGJSON file',
        code=errors.UNKNOWN_FORMAT,
        path=path,
    )


def invalid_json(path: str, exc: Exception, where: str = "") -> ImportFormatError:
    detail = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return ImportFormatError(f"invalid or truncated JSON{where}: {detail}", code=errors.INVALID_JSON, path=str(path))
