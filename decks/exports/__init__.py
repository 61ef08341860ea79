"""Deck and pool exports in the formats clients read, in plain Python (no Django).

The Django side (:mod:`decks.exporting`) turns stored rows into :class:`Entry` values with what
the catalogue knows (a DFC's front name, a printing's set code and collector number); this
package only writes text.

Names: MTG Arena, MTGO and Cockatrice name a multi-faced card (transforming or modal DFC,
meld, flip, adventure) by its front face only; a split card by both halves, ``Fire // Ice``,
except MTGO, which knows it only as ``Fire/Ice``. The plain text keeps the catalogue's full
name, which our own importers read.

MTGO's ``.dek`` is written as MTGO writes it (tests/decks/fixtures/real/README.md): every
``<Cards>`` line carries the printing's ``CatID``; MTGO refuses or crashes on a line without
one, so a list with a card that has no MTGO id is not written as ``.dek`` at all
(:class:`MissingMtgoIds`); MTGO's plain text import (:func:`mtgo_text`) needs names only.
"""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from xml.sax.saxutils import escape as xml_escape

ARENA, MTGO_DEK, MTGO_TEXT, COCKATRICE, TEXT = "arena", "dek", "mtgo", "cod", "txt"


@dataclass(frozen=True)
class Entry:
    name: str  # the catalogue's full name, "Delver of Secrets // Insectile Aberration"
    count: int
    front: str = ""  # what Arena, MTGO and Cockatrice call it, when not ``name``
    set_code: str = ""
    number: str = ""  # collector number in that set
    mtgo_id: int | None = None  # MTGO's CatID of the printing
    mtgo_foil_id: int | None = None
    foil: bool = False  # drafted as a foil (the .dek then names the foil CatID when known)

    @property
    def client_name(self) -> str:
        return self.front or self.name

    @property
    def mtgo_name(self) -> str:
        """MTGO's name: the front face; a split card's halves joined by one slash (``Fire/Ice``)."""
        return self.front or self.name.replace(" // ", "/")

    @property
    def cat_id(self) -> int | None:
        return (self.mtgo_foil_id or self.mtgo_id) if self.foil else self.mtgo_id


class MissingMtgoIds(ValueError):
    """The list has cards without an MTGO id: no ``.dek`` can name them."""

    def __init__(self, names: list[str]):
        super().__init__(", ".join(names))
        self.names = names


def missing_mtgo_ids(deck: Decklist) -> list[str]:
    """The MTGO names of the cards that have no MTGO id, each once, in list order."""
    names: list[str] = []
    for e in (*deck.main, *deck.sideboard):
        if e.count > 0 and e.cat_id is None and e.mtgo_name not in names:
            names.append(e.mtgo_name)
    return names


@dataclass(frozen=True)
class Decklist:
    main: tuple[Entry, ...]
    sideboard: tuple[Entry, ...] = ()
    title: str = ""


@dataclass(frozen=True)
class Format:
    key: str
    extension: str
    content_type: str
    write: Callable[[Decklist], str]


def _lines(entries: Iterable[Entry], name: Callable[[Entry], str]) -> list[str]:
    return [f"{e.count} {name(e)}" for e in entries if e.count > 0]


def arena(deck: Decklist) -> str:
    """MTG Arena's import text: ``Deck``/``Sideboard`` blocks, ``1 Delver of Secrets (ISD) 51``."""

    def name(e: Entry) -> str:
        if e.set_code and e.number:
            return f"{e.client_name} ({e.set_code.upper()}) {e.number}"
        return e.client_name

    parts = ["Deck\n" + "\n".join(_lines(deck.main, name))]
    if deck.sideboard:
        parts.append("Sideboard\n" + "\n".join(_lines(deck.sideboard, name)))
    return "\n\n".join(parts) + "\n"


def plain_text(deck: Decklist) -> str:
    """``4 Name`` lines, a blank line, ``Sideboard`` and its lines (full catalogue names)."""
    parts = ["\n".join(_lines(deck.main, lambda e: e.name))]
    if deck.sideboard:
        parts.append("Sideboard\n" + "\n".join(_lines(deck.sideboard, lambda e: e.name)))
    return "\n\n".join(parts) + "\n"


def _xml(root: ET.Element) -> str:
    ET.indent(root, space="  ")
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


_DEK_HEAD = (
    '<?xml version="1.0" encoding="utf-8"?>',
    '<Deck xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">',
    "  <NetDeckID>0</NetDeckID>",
    "  <PreconstructedDeckID>0</PreconstructedDeckID>",
)


def _attribute(value: str) -> str:
    return xml_escape(value, {'"': "&quot;"})


def mtgo_dek(deck: Decklist) -> str:
    """MTGO's .dek XML, line for line as MTGO saves one (Windows line ends, two-space indent,
    ``<Cards CatID Quantity Sideboard Name Annotation />``). Raises :class:`MissingMtgoIds`
    when a card has no MTGO id."""
    missing = missing_mtgo_ids(deck)
    if missing:
        raise MissingMtgoIds(missing)
    lines = list(_DEK_HEAD)
    for side, entries in (("false", deck.main), ("true", deck.sideboard)):
        for e in entries:
            if e.count > 0:
                lines.append(
                    f'  <Cards CatID="{e.cat_id}" Quantity="{e.count}" Sideboard="{side}" '
                    f'Name="{_attribute(e.mtgo_name)}" Annotation="0" />'
                )
    lines.append("</Deck>")
    return "\r\n".join(lines) + "\r\n"


def mtgo_text(deck: Decklist) -> str:
    """MTGO's plain text import: ``4 Name`` lines with MTGO's names, a blank line,
    ``Sideboard`` and its lines (Windows line ends, as MTGO saves its own .txt)."""
    parts = ["\r\n".join(_lines(deck.main, lambda e: e.mtgo_name))]
    if deck.sideboard:
        parts.append("Sideboard\r\n" + "\r\n".join(_lines(deck.sideboard, lambda e: e.mtgo_name)))
    return "\r\n\r\n".join(parts) + "\r\n"


def cockatrice(deck: Decklist) -> str:
    """Cockatrice's .cod XML: ``main`` and ``side`` zones of ``<card number name/>``."""
    root = ET.Element("cockatrice_deck", version="1")
    ET.SubElement(root, "deckname").text = deck.title
    ET.SubElement(root, "comments").text = ""
    for zone, entries in (("main", deck.main), ("side", deck.sideboard)):
        element = ET.SubElement(root, "zone", name=zone)
        for e in entries:
            if e.count > 0:
                ET.SubElement(element, "card", number=str(e.count), name=e.client_name)
    return _xml(root)


FORMATS: dict[str, Format] = {
    ARENA: Format(ARENA, "arena.txt", "text/plain; charset=utf-8", arena),
    MTGO_DEK: Format(MTGO_DEK, "dek", "application/xml; charset=utf-8", mtgo_dek),
    MTGO_TEXT: Format(MTGO_TEXT, "mtgo.txt", "text/plain; charset=utf-8", mtgo_text),
    COCKATRICE: Format(COCKATRICE, "cod", "application/xml; charset=utf-8", cockatrice),
    TEXT: Format(TEXT, "txt", "text/plain; charset=utf-8", plain_text),
}


def render(key: str, deck: Decklist) -> str:
    return FORMATS[key].write(deck)


# A fixed timestamp: the same lists make the same archive, byte for byte.
_ZIP_TIME = (2000, 1, 1, 0, 0, 0)


def zip_bundle(files: Mapping[str, str]) -> bytes:
    """Files (path -> text) as one zip archive, in path order."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(files):
            info = zipfile.ZipInfo(path, date_time=_ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, files[path].encode("utf-8"))
    return buffer.getvalue()


def safe_filename(text: str, fallback: str = "player") -> str:
    """A name as a file name: letters, digits, ``-`` and ``_`` only (no path tricks)."""
    cleaned = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in text.strip())
    cleaned = "-".join(part for part in cleaned.split("-") if part)
    return cleaned[:60] or fallback
