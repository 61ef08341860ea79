"""Decklist files and pasted text -> sections of (name, count), in plain Python.

Formats are told apart by their content, never the file name:

* ``mtgo_dek``  MTGO's XML (``<Deck><Cards Quantity="4" Sideboard="false" Name="..."/>``);
* ``csv``       a header row with a count/quantity column and a name column, optionally a
  section/board column (main, sideboard, commander);
* ``arena``     Arena exports: ``Deck``/``Sideboard``/``Commander``/``Companion`` headers and
  lines such as ``4 Gatstaf Shepherd (ISD) 182``;
* ``text``      ``4 Card Name`` lines (``4x`` too) with a ``Sideboard`` header, ``SB:``
  prefixes, or the sideboard as the block after a blank line (MTGO .txt).

Every problem is a :class:`ParseError` with a stable code; nothing is guessed silently.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

from cards.rules.text import gettext
from decks.error_codes import (  # plain constants: this module stays plain Python
    EMPTY_DECKLIST,
    FILE_TOO_LARGE,
    INVALID_CHECKLIST_LINE,
    INVALID_COUNT,
    INVALID_DECKLIST,
    TOO_MANY_ENTRIES,
    UNREADABLE_FILE,
)

MAX_BYTES = 256 * 1024
MAX_LINES = 1000  # card lines in one list
MAX_COUNT = 1000  # copies on one line
MAX_TOTAL = 5000  # cards in one list

TEXT, ARENA, MTGO_DEK, CSV = "text", "arena", "mtgo_dek", "csv"
FORMATS = (TEXT, ARENA, MTGO_DEK, CSV)
MAIN, SIDEBOARD, COMMANDER = "main", "sideboard", "commander"


class ParseError(Exception):
    def __init__(self, code: str, message: str, **extra):
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra


@dataclass
class ParsedList:
    format: str
    main: list[tuple[str, int]] = field(default_factory=list)
    sideboard: list[tuple[str, int]] = field(default_factory=list)
    commander: list[tuple[str, int]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def section(self, name: str) -> list[tuple[str, int]]:
        return {MAIN: self.main, SIDEBOARD: self.sideboard, COMMANDER: self.commander}[name]

    def as_dict(self) -> dict:
        def rows(lines):
            return [{"name": name, "count": count} for name, count in lines]

        return {
            "format": self.format,
            "main": rows(self.main),
            "sideboard": rows(self.sideboard),
            "commander": rows(self.commander),
            "warnings": list(self.warnings),
            "summary": {
                "main": sum(c for _, c in self.main),
                "sideboard": sum(c for _, c in self.sideboard),
                "commander": sum(c for _, c in self.commander),
            },
        }


# --- bytes -> text ---------------------------------------------------------------------


def decode(data: bytes) -> str:
    """Uploaded bytes as text: UTF-8 (with or without BOM) or UTF-16 with a BOM."""
    if len(data) > MAX_BYTES:
        raise ParseError(
            FILE_TOO_LARGE,
            gettext("The file is %(count)s KB; decklists are limited to %(MAX_BYTES_1024)s KB.")
            % {"count": len(data) // 1024, "MAX_BYTES_1024": MAX_BYTES // 1024},
            limit_bytes=MAX_BYTES,
        )
    try:
        if data.startswith((b"\xff\xfe", b"\xfe\xff")):
            text = data.decode("utf-16")
        else:
            if b"\x00" in data:
                raise UnicodeDecodeError("utf-8", data, 0, 1, "NUL byte")
            text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ParseError(
            UNREADABLE_FILE, gettext("The file is not a text decklist (it is binary or not UTF-8 text).")
        ) from None
    _refuse_unsafe_text(text)
    return text


def _refuse_unsafe_text(text: str) -> None:
    """Control, surrogate, private-use and replacement characters mean this is not a text list."""
    for ch in text:
        if ch in "\t\n\r":
            continue
        if unicodedata.category(ch) in ("Cc", "Cs", "Co") or ch == "\ufffd":
            raise ParseError(
                UNREADABLE_FILE,
                gettext(
                    "The decklist contains control or undecodable characters; it does not look like a text decklist."
                ),
            )


# --- detection -------------------------------------------------------------------------

_HEADERS = {
    "deck": MAIN,
    "main": MAIN,
    "maindeck": MAIN,
    "main deck": MAIN,
    "mainboard": MAIN,
    "sideboard": SIDEBOARD,
    "side": SIDEBOARD,
    "side board": SIDEBOARD,
    "companion": SIDEBOARD,
    "commander": COMMANDER,
    "commanders": COMMANDER,
    "about": "about",
    "maybeboard": "ignore",
    "maybe": "ignore",
    "considering": "ignore",
    "tokens": "ignore",
}
_COUNT_LINE = re.compile(r"^(\d+)\s*[xX]?\s+(\S.*)$")
_BAD_COUNT = re.compile(r"^(?:[-+]\s*\d|\d+[.,/]\d)")
_COUNT_ONLY = re.compile(r"^\d+\s*[xX]?$")
_SET_SUFFIX = re.compile(r"\s+\(([A-Za-z0-9_]{2,8})\)(?:\s+[A-Za-z0-9★\-]+)?(?:\s+\*[A-Z]\*)*\s*$")
_FOIL_SUFFIX = re.compile(r"(?:\s+\*[A-Z]\*)+\s*$")
_CSV_COUNT = ("count", "quantity", "qty", "amount", "copies", "number")
_CSV_NAME = ("name", "card", "card name", "cardname", "card_name")
_CSV_SECTION = ("section", "board", "zone", "category", "sideboard", "deck")


def detect_format(text: str) -> str:
    stripped = text.lstrip("\ufeff \t\r\n")
    if stripped.startswith("<"):
        return MTGO_DEK
    first = next((line for line in stripped.splitlines() if line.strip()), "")
    if "," in first or ";" in first:
        cells = [c.strip().strip('"').lower() for c in re.split(r"[,;]", first)]
        if any(c in _CSV_COUNT for c in cells) and any(c in _CSV_NAME for c in cells):
            return CSV
    for line in stripped.splitlines():
        line = line.strip()
        if line.lower() in ("deck", "commander", "companion", "about"):
            return ARENA
        if _COUNT_LINE.match(line) and _SET_SUFFIX.search(line):
            return ARENA
    return TEXT


def parse_bytes(data: bytes) -> ParsedList:
    return parse_decklist(decode(data))


def parse_decklist(text: str) -> ParsedList:
    """Parse pasted text or a decoded file; the format is read from the content."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise ParseError(
            FILE_TOO_LARGE,
            gettext("Decklists are limited to %(MAX_BYTES_1024)s KB.") % {"MAX_BYTES_1024": MAX_BYTES // 1024},
            limit_bytes=MAX_BYTES,
        )
    _refuse_unsafe_text(text)
    text = text.lstrip("\ufeff")
    if not text.strip():
        raise ParseError(EMPTY_DECKLIST, gettext("The decklist is empty."))
    fmt = detect_format(text)
    if fmt == MTGO_DEK:
        parsed = _parse_dek(text)
    elif fmt == CSV:
        parsed = _parse_csv(text)
    else:
        parsed = _parse_lines(text, fmt)
    entries = len(parsed.main) + len(parsed.sideboard) + len(parsed.commander)
    if not entries:
        raise ParseError(EMPTY_DECKLIST, gettext("The decklist has no cards."))
    if entries > MAX_LINES:
        raise ParseError(
            TOO_MANY_ENTRIES, gettext("A decklist has at most %(MAX_LINES)s lines of cards.") % {"MAX_LINES": MAX_LINES}
        )
    total = sum(c for section in (parsed.main, parsed.sideboard, parsed.commander) for _, c in section)
    if total > MAX_TOTAL:
        raise ParseError(
            TOO_MANY_ENTRIES,
            gettext("A decklist has at most %(MAX_TOTAL)s cards; this one has %(total)s.")
            % {"MAX_TOTAL": MAX_TOTAL, "total": total},
        )
    return parsed


def _count(raw: str, where: str) -> int:
    value = raw.strip()
    if not re.fullmatch(r"[0-9]+", value):  # ASCII digits only (draftsite.whole_numbers)
        raise ParseError(
            INVALID_COUNT,
            gettext("%(where)s: “%(strip)s” is not a whole number of copies.") % {"where": where, "strip": raw.strip()},
            value=raw.strip(),
        )
    count = int(value)
    if count < 1 or count > MAX_COUNT:
        raise ParseError(
            INVALID_COUNT,
            gettext("%(where)s: the number of copies must be between 1 and %(MAX_COUNT)s, not %(count)s.")
            % {"where": where, "MAX_COUNT": MAX_COUNT, "count": count},
            value=count,
        )
    return count


def _add(parsed: ParsedList, section: str, name: str, count: int) -> None:
    lines = parsed.section(section)
    for index, (existing, have) in enumerate(lines):
        if existing.casefold() == name.casefold():
            lines[index] = (existing, have + count)
            return
    lines.append((name, count))


def _clean_name(name: str) -> str:
    name = _SET_SUFFIX.sub("", name)
    name = _FOIL_SUFFIX.sub("", name)
    return " ".join(name.split())


# --- text and Arena --------------------------------------------------------------------


def _raise_count_problems(problems: list[ParseError]) -> None:
    """Every bad quantity in the list at once, so the player fixes them in one go."""
    if not problems:
        return
    if len(problems) == 1:
        raise problems[0]
    raise ParseError(
        INVALID_COUNT,
        f"{len(problems)} lines have a bad number of copies: " + " ".join(p.message for p in problems),
        lines=[p.extra.get("line") for p in problems],
        values=[str(p.extra.get("value")) for p in problems],
    )


@dataclass
class _Reading:
    """Where the text parser is: the current section, whether the list said where its sideboard
    is (a header or an SB: prefix), the untagged main lines split at blank lines, and the bad
    counts found so far."""

    section: str = MAIN
    explicit: bool = False
    blocks: list[list[tuple[str, int]]] = field(default_factory=lambda: [[]])
    count_problems: list[ParseError] = field(default_factory=list)


def _parse_lines(text: str, fmt: str) -> ParsedList:
    parsed = ParsedList(format=fmt)
    reading = _Reading()
    for number, raw in enumerate(text.splitlines(), start=1):
        _read_line(parsed, reading, number, raw.strip())
    _raise_count_problems(reading.count_problems)
    _place_blocks(parsed, reading)
    return parsed


def _read_line(parsed: ParsedList, reading: _Reading, number: int, line: str) -> None:
    """One stripped line: a blank, a comment, a section header or a card line."""
    if not line:
        if reading.blocks[-1]:
            reading.blocks.append([])
        return
    if line.startswith(("//", "#")):
        return
    header = line.rstrip(":").strip().lower()
    if header in _HEADERS:
        reading.section = _HEADERS[header]
        reading.explicit = True
        if reading.section == "ignore":
            parsed.warnings.append(
                f"Line {number}: the “{line.rstrip(':')}” section is not part of the deck and was left out."
            )
        return
    if reading.section == "about":
        return  # "Name My Deck" lines of an Arena export
    target = reading.section
    if line[:3].upper() == "SB:":
        line = line[3:].strip()
        target = SIDEBOARD
        reading.explicit = True
    entry = _card_line(line, number, reading.count_problems)
    if entry is None or target == "ignore":
        return
    if target == MAIN and not reading.explicit:
        reading.blocks[-1].append(entry)
    else:
        _add(parsed, target, *entry)


def _card_line(line: str, number: int, count_problems: list[ParseError]) -> tuple[str, int] | None:
    """``4 Card Name`` as (name, count); a bad count is kept in ``count_problems`` (None)."""
    match = _COUNT_LINE.match(line)
    if not match:
        if _COUNT_ONLY.match(line):
            raise ParseError(
                INVALID_DECKLIST,
                gettext("Line %(number)s: the card name is missing.") % {"number": number},
                line=number,
            )
        if _BAD_COUNT.match(line):
            bad = line.split()[0]
            count_problems.append(
                ParseError(
                    INVALID_COUNT,
                    gettext("Line %(number)s: “%(bad)s” is not a whole number of copies (1 or more).")
                    % {"number": number, "bad": bad},
                    line=number,
                    value=bad,
                )
            )
            return None
        raise ParseError(
            INVALID_DECKLIST,
            gettext(
                "Line %(number)s: “%(line)s” is not a card line; expected a count and a name, like “4 Gatstaf Shepherd”."
            )
            % {"number": number, "line": line[:80]},
            line=number,
        )
    try:
        count = _count(match.group(1), f"Line {number}")
    except ParseError as exc:
        exc.extra.setdefault("line", number)
        count_problems.append(exc)
        return None
    name = _clean_name(match.group(2))
    if not name:
        raise ParseError(
            INVALID_DECKLIST, gettext("Line %(number)s: the card name is missing.") % {"number": number}, line=number
        )
    return name, count


def _place_blocks(parsed: ParsedList, reading: _Reading) -> None:
    """The untagged main lines: with no header and no SB:, the block after the last blank line
    is the sideboard (MTGO .txt)."""
    blocks = [block for block in reading.blocks if block]
    if reading.explicit or len(blocks) < 2:
        main_blocks, sideboard = blocks, []
    else:
        main_blocks, sideboard = blocks[:-1], blocks[-1]
        if len(blocks) > 2:
            parsed.warnings.append(
                "The list has several blocks separated by blank lines; the last one was taken as the sideboard."
            )
    for block in main_blocks:
        for name, count in block:
            _add(parsed, MAIN, name, count)
    for name, count in sideboard:
        _add(parsed, SIDEBOARD, name, count)


# --- CSV -------------------------------------------------------------------------------

_SECTION_VALUES = {
    "": MAIN,
    "main": MAIN,
    "mainboard": MAIN,
    "maindeck": MAIN,
    "main deck": MAIN,
    "deck": MAIN,
    "md": MAIN,
    "false": MAIN,
    "no": MAIN,
    "0": MAIN,
    "side": SIDEBOARD,
    "sideboard": SIDEBOARD,
    "sb": SIDEBOARD,
    "side board": SIDEBOARD,
    "true": SIDEBOARD,
    "yes": SIDEBOARD,
    "1": SIDEBOARD,
    "companion": SIDEBOARD,
    "commander": COMMANDER,
    "commanders": COMMANDER,
    "cmdr": COMMANDER,
    "command zone": COMMANDER,
    "maybe": "ignore",
    "maybeboard": "ignore",
    "considering": "ignore",
}


def _parse_csv(text: str) -> ParsedList:
    parsed = ParsedList(format=CSV)
    rows = _csv_rows(text)
    header = [cell.strip().lower() for cell in rows[0]]

    def column(names: tuple[str, ...]) -> int | None:
        return next((header.index(n) for n in names if n in header), None)

    count_at, name_at = column(_CSV_COUNT), column(_CSV_NAME)
    if count_at is None or name_at is None:
        raise ParseError(INVALID_DECKLIST, gettext("The CSV needs a count (or quantity) column and a name column."))
    columns = count_at, name_at, column(_CSV_SECTION)
    count_problems: list[ParseError] = []
    for number, row in enumerate(rows[1:], start=2):
        entry = _csv_entry(row, number, columns, count_problems)
        if entry is not None and entry[0] != "ignore":
            _add(parsed, *entry)
    _raise_count_problems(count_problems)
    return parsed


def _csv_rows(text: str) -> list[list[str]]:
    """The CSV's non-empty rows (``;`` or ``,`` separated, whichever the first line uses more)."""
    sample = next(line for line in text.splitlines() if line.strip())
    delimiter = ";" if sample.count(";") > sample.count(",") else ","
    try:
        rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    except csv.Error as exc:
        raise ParseError(INVALID_DECKLIST, gettext("The CSV could not be read: %(exc)s.") % {"exc": exc}) from None
    return [row for row in rows if any(cell.strip() for cell in row)]


def _csv_entry(
    row: list[str], number: int, columns: tuple[int, int, int | None], count_problems: list[ParseError]
) -> tuple[str, str, int] | None:
    """One row as (section, name, count); a bad count is kept in ``count_problems`` (None)."""
    count_at, name_at, section_at = columns
    where = f"Row {number}"
    if len(row) <= max(count_at, name_at):
        raise ParseError(
            INVALID_DECKLIST, gettext("%(where)s: missing the count or the name.") % {"where": where}, line=number
        )
    name = _clean_name(row[name_at])
    if not name:
        raise ParseError(
            INVALID_DECKLIST, gettext("%(where)s: the card name is empty.") % {"where": where}, line=number
        )
    try:
        count = _count(row[count_at], where)
    except ParseError as exc:
        exc.extra.setdefault("line", number)
        count_problems.append(exc)
        return None
    raw_section = row[section_at].strip().lower() if section_at is not None and section_at < len(row) else ""
    section = _SECTION_VALUES.get(raw_section)
    if section is None:
        raise ParseError(
            INVALID_DECKLIST,
            gettext("%(where)s: unknown section “%(row)s” (expected main, sideboard or commander).")
            % {"where": where, "row": row[section_at].strip()},
            line=number,
        )
    return section, name, count


# --- MTGO .dek -------------------------------------------------------------------------


def _parse_dek(text: str) -> ParsedList:
    if re.search(r"<!(DOCTYPE|ENTITY)", text, re.IGNORECASE):
        raise ParseError(INVALID_DECKLIST, gettext("The XML declares a DTD or entities; a .dek file has none."))
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise ParseError(
            INVALID_DECKLIST, gettext("The file is not well-formed XML (%(exc)s).") % {"exc": exc}
        ) from None
    if root.tag.rsplit("}", 1)[-1] != "Deck":
        raise ParseError(
            INVALID_DECKLIST,
            gettext("Expected an MTGO .dek file (a <Deck> element), found <%(rsplit)s>.")
            % {"rsplit": root.tag.rsplit("}", 1)[-1]},
        )
    parsed = ParsedList(format=MTGO_DEK)
    entry = 0
    for element in root.iter():
        if element.tag.rsplit("}", 1)[-1] != "Cards":
            continue
        entry += 1
        where = f"Card entry {entry}"
        name = _clean_name(element.get("Name", ""))
        if not name:
            raise ParseError(
                INVALID_DECKLIST, gettext("%(where)s: a <Cards> element without a Name.") % {"where": where}
            )
        count = _count(element.get("Quantity", ""), f"{where} ({name})")
        side = element.get("Sideboard", "false").strip().lower()
        if side not in ("true", "false"):
            raise ParseError(
                INVALID_DECKLIST,
                gettext("%(where)s (%(name)s): Sideboard must be true or false.") % {"where": where, "name": name},
            )
        _add(parsed, SIDEBOARD if side == "true" else MAIN, name, count)
    return parsed


# --- checklist card lines (pages) ------------------------------------------------------

_CHECKLIST_LINE = re.compile(r"^(?:(\d+)\s*[xX]?\s+)?([^:]+?)\s*:\s*(.*)$")


def parse_checklist_lines(text: str) -> list[dict]:
    """``[N] <checklist or substitute card>: <marked name>[; <another>]`` per line.

    ``2 Innistrad Checklist: Delver of Secrets`` is two checklist cards, each marked Delver
    of Secrets; ``Innistrad Checklist:`` is one with nothing marked.
    """
    cards: list[dict] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(("#", "//")):
            continue
        match = _CHECKLIST_LINE.match(line)
        if not match:
            raise ParseError(
                INVALID_CHECKLIST_LINE,
                gettext("Checklist line %(number)s: write “Innistrad Checklist: Delver of Secrets”.")
                % {"number": number},
                line=number,
            )
        copies = _count(match.group(1) or "1", f"Checklist line {number}")
        if copies > 100:
            raise ParseError(
                INVALID_COUNT,
                gettext("Checklist line %(number)s: at most 100 copies.") % {"number": number},
                line=number,
            )
        marked = [m.strip() for m in match.group(3).split(";") if m.strip()]
        cards.extend({"checklist": match.group(2).strip(), "marked": list(marked)} for _ in range(copies))
    return cards


def format_checklist_lines(cards: list[dict]) -> str:
    """The inverse of :func:`parse_checklist_lines` (consecutive equal cards grouped)."""
    lines: list[tuple[int, str]] = []
    for card in cards:
        text = f"{card['checklist']}: {'; '.join(card.get('marked') or [])}".rstrip()
        if lines and lines[-1][1] == text:
            lines[-1] = (lines[-1][0] + 1, text)
        else:
            lines.append((1, text))
    return "\n".join(f"{n} {text}" if n > 1 else text for n, text in lines)


def format_decklist(main: list[dict], sideboard: list[dict] = (), commander: list[dict] = ()) -> str:
    """Rows ``{"name", "count"}`` as a plain text list that :func:`parse_decklist` reads back."""
    parts = []
    if commander:
        parts.append("Commander\n" + "\n".join(f"{r['count']} {r['name']}" for r in commander))
        parts.append("Deck\n" + "\n".join(f"{r['count']} {r['name']}" for r in main))
    else:
        parts.append("\n".join(f"{r['count']} {r['name']}" for r in main))
    if sideboard:
        parts.append("Sideboard\n" + "\n".join(f"{r['count']} {r['name']}" for r in sideboard))
    return "\n\n".join(part for part in parts if part.strip()) + "\n"
