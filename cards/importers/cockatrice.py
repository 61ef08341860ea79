"""Cockatrice card database XML (version 3/4), streamed with ``iterparse``.

The format has no layout field, so it is inferred: entries that share one picture (one
Scryfall id, e.g. both halves of a split card or a Room) are the halves of a split card; one
entry named "A // B" is an adventure (its type says so) or a split card; Sagas, Classes and
level-up cards are recognised by type and text; everything else is normal. An art variant is
another entry with the same name and a different picture: the same card, another printing.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import deque
from collections.abc import Iterator

from cards.models import Layout
from cards.rules.colors import symbol_colors

from . import errors
from .errors import ImportFormatError, RecordError
from .records import FaceData, Invalid, SetInfo, Skip, build_card, text_field
from .sources import open_binary
from .text import braced_cost, colors_string, parse_type_line, split_pt

ROOT_TAG = "cockatrice_carddatabase"
# Entries sharing a picture are expected close together; this many entries of look-back.
GROUP_WINDOW = 8
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)
_RECORD_ERRORS = (Invalid, KeyError, TypeError, ValueError, AttributeError)


def read_cockatrice(path: str) -> Iterator:
    reader = _Reader(path)
    with open_binary(path) as stream:
        events = ET.iterparse(stream, events=("start", "end"))
        try:
            yield from reader.run(events)
        except ET.ParseError as exc:
            raise ImportFormatError(
                f"invalid or truncated XML after card entry #{reader.index}: {exc}",
                code=errors.INVALID_XML,
                path=path,
            ) from exc
    yield from reader.flush(everything=True)


class _Entry:
    __slots__ = ("index", "name", "text", "props", "printings", "is_token")

    def __init__(self, index: int, elem: ET.Element):
        self.index = index
        self.name = (elem.findtext("name") or "").strip()
        self.text = elem.findtext("text") or ""
        prop = elem.find("prop")
        source = prop if prop is not None else elem  # version 3 keeps these on the card
        self.props = {
            tag: (source.findtext(tag) or "").strip() for tag in ("type", "manacost", "cmc", "colors", "pt", "loyalty")
        }
        self.is_token = (elem.findtext("token") or "").strip() in {"1", "true"}
        self.printings = []
        for set_elem in elem.findall("set"):
            attrs = {k.lower(): v for k, v in set_elem.attrib.items()}
            self.printings.append(
                {
                    "set": (set_elem.text or "").strip(),
                    "rarity": attrs.get("rarity", ""),
                    "picurl": attrs.get("picurl", "").strip(),
                    "num": attrs.get("num", "").strip(),
                }
            )

    @property
    def group_key(self) -> str | None:
        if len(self.printings) == 1 and self.printings[0]["picurl"]:
            return self.printings[0]["picurl"]
        return None


class _Reader:
    def __init__(self, path: str):
        self.path = path
        self.index = -1
        self.window: deque[list[_Entry]] = deque()

    def run(self, events) -> Iterator:
        cards_elem = None
        in_sets = False
        started = False
        for event, elem in events:
            if event == "start":
                if not started:
                    started = True
                    if elem.tag != ROOT_TAG:
                        raise ImportFormatError(
                            f"XML root is <{elem.tag}>, not <{ROOT_TAG}>",
                            code=errors.UNKNOWN_FORMAT,
                            path=self.path,
                        )
                if elem.tag == "cards":
                    cards_elem = elem
                elif elem.tag == "sets":
                    in_sets = True
                continue
            if elem.tag == "card" and cards_elem is not None:
                self.index += 1
                try:
                    entry = _Entry(self.index, elem)
                except _RECORD_ERRORS as exc:
                    raise self._error(self.index, elem.findtext("name"), exc) from exc
                cards_elem.clear()  # drop parsed entries: memory stays flat
                yield from self._add(entry)
            elif elem.tag == "set" and in_sets:
                yield self._set_info(elem)
            elif elem.tag == "sets":
                in_sets = False
                elem.clear()

    def _set_info(self, elem: ET.Element) -> SetInfo:
        code = (elem.findtext("name") or "").strip().upper()
        name = (elem.findtext("longname") or "").strip()
        name = re.sub(r"\s*\(Spoiler\)$", "", name)
        date = (elem.findtext("releasedate") or "").strip() or None
        return SetInfo(
            code=code,
            name=name[:200],
            release_date=date,
            set_type=(elem.findtext("settype") or "").strip().lower()[:40],
            authoritative=True,
        )

    def _error(self, index: int, name, exc: Exception) -> RecordError:
        return RecordError(
            str(exc) or type(exc).__name__, path=self.path, index=index, section="card entry", ident=name or None
        )

    def _add(self, entry: _Entry) -> Iterator:
        if not entry.name:
            raise self._error(entry.index, None, Invalid("the entry has no name"))
        if entry.is_token:
            yield Skip("token")
            return
        key = entry.group_key
        if key is not None:
            for group in self.window:
                if group[0].group_key == key:
                    group.append(entry)
                    return
        self.window.append([entry])
        yield from self.flush()

    def flush(self, everything: bool = False) -> Iterator:
        while self.window and (everything or len(self.window) > GROUP_WINDOW):
            group = self.window.popleft()
            try:
                yield from _cards(group)
            except _RECORD_ERRORS as exc:
                raise self._error(group[0].index, group[0].name, exc) from exc


def _cards(group: list[_Entry]) -> Iterator:
    names = list(dict.fromkeys(entry.name for entry in group))
    first = group[0]
    if len(names) > 1:
        halves = [next(e for e in group if e.name == n) for n in names]
        faces = [
            _face(e, e.props["type"], e.props["manacost"], e.text, e.props["pt"], own_colors=False) for e in halves
        ]
        name, layout = " // ".join(names), Layout.SPLIT.value
    elif " // " in first.name:
        parts = first.name.split(" // ")
        types = _parts(first.props["type"], len(parts))
        costs = _parts(first.props["manacost"], len(parts))
        faces = []
        for position, part in enumerate(parts):
            face = _face(
                first,
                types[position],
                costs[position],
                first.text if position == 0 else "",
                first.props["pt"] if position == 0 else "",
                own_colors=False,
            )
            face.name = part
            if position == 0 and first.props["cmc"]:
                face.mana_value = float(first.props["cmc"])
            faces.append(face)
        name = first.name
        layout = (Layout.ADVENTURE if "Adventure" in first.props["type"] else Layout.SPLIT).value
    else:
        face = _face(
            first, first.props["type"], first.props["manacost"], first.text, first.props["pt"], own_colors=True
        )
        if first.props["cmc"]:
            face.mana_value = float(first.props["cmc"])
        faces, name, layout = [face], first.name, _single_layout(face)
    # Every entry of the group is the same physical card; each <set> is one printing.
    seen = set()
    for entry in group:
        for printing in entry.printings:
            key = (printing["set"], printing["picurl"], printing["num"])
            if key in seen:
                continue
            seen.add(key)
            yield _record(entry.index, name, layout, faces, printing)


def _record(index: int, name: str, layout: str, faces: list[FaceData], printing: dict):
    picurl = printing["picurl"]
    match = _UUID.search(picurl) if picurl else None
    return build_card(
        index=index,
        name=name,
        layout=layout,
        faces=[FaceData(**{s: getattr(f, s) for s in FaceData.__slots__}) for f in faces],
        set_code=printing["set"],
        collector_number=printing["num"],
        rarity=printing["rarity"] or "common",
        scryfall_id=match.group(0).lower() if match else None,
        image_uris={"front": picurl} if picurl else {},
    )


def _parts(value: str, count: int) -> list[str]:
    parts = [p.strip() for p in (value or "").split("//")]
    return parts + [""] * (count - len(parts))


def _face(entry: _Entry, type_line: str, raw_cost: str, text: str, pt: str, own_colors: bool) -> FaceData:
    cost = braced_cost(raw_cost)
    cost_colors = symbol_colors(cost)
    colors = colors_string(entry.props["colors"]) if own_colors else cost_colors
    indicator = ""
    if own_colors and colors and (not cost or not set(colors) <= set(cost_colors)):
        indicator = colors  # a color the cost does not explain comes from an indicator
    power, toughness = split_pt(pt)
    _, card_types, _ = parse_type_line(type_line)
    defense = ""
    if "Battle" in card_types and not power:
        defense, toughness = toughness, ""
    return FaceData(
        name=entry.name,
        mana_cost=cost,
        mana_value=None,
        type_line=text_field(type_line, "type", 200),
        oracle_text=text,
        colors=colors,
        color_indicator=indicator,
        power=power,
        toughness=toughness,
        loyalty=entry.props["loyalty"],
        defense=defense,
    )


def _single_layout(face: FaceData) -> str:
    _, _, subtypes = parse_type_line(face.type_line)
    if "Saga" in subtypes:
        return Layout.SAGA.value
    if "Class" in subtypes:
        return Layout.CLASS.value
    if face.oracle_text.startswith("Level up") or "\nLevel up" in face.oracle_text:
        return Layout.LEVELER.value
    return Layout.NORMAL.value
