"""MTGJSON v5 files: a set file (``data`` is a set with ``cards``, ``tokens``, ``booster``)
or a list file (``data`` is a list of card or token records, like the checklists file).

MTGJSON has one record per face. The faces of one card share ``name`` ("A // B"), set and
number and carry ``side`` a/b/...; they may arrive apart, so incomplete cards wait in a
bounded buffer until every side is in. Meld halves are named "Half // Result" and point at
the melded result's record through ``otherFaceIds``; the result record (side b) becomes face
1 of each half and is not a card of its own.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator

import ijson

from cards import languages
from cards.models import ChecklistKind, Layout

from .errors import RecordError
from .records import (
    NON_CARD_LAYOUTS,
    ChecklistRecord,
    FaceData,
    Invalid,
    SetInfo,
    Skip,
    build_card,
    clean_uuid,
    scryfall_image,
    text_field,
)
from .scryfall import is_checklist_name, parent_of_token_set
from .sources import invalid_json, open_binary
from .text import checklist_names, colors_string

# Incomplete multi-face cards kept waiting for their other faces before giving up on them.
PENDING_LIMIT = 2000
_SET_FIELDS = {"code", "name", "releaseDate", "type", "parentCode"}
_RECORD_ERRORS = (Invalid, KeyError, TypeError, ValueError, AttributeError)
_NON_BOOSTER_TYPES = {"deck"}
_BACK_IMAGE_LAYOUTS = {Layout.TRANSFORM.value, Layout.MODAL_DFC.value, "double_faced_token"}


def read_mtgjson_set(path: str) -> Iterator:
    meta = _read_set_meta(path)
    code = str(meta.get("code") or "").upper()
    if not code:
        raise RecordError("the set has no code", path=path, section="data")
    yield SetInfo(
        code=code,
        name=text_field(meta.get("name"), "set name", 200),
        release_date=meta.get("releaseDate"),
        set_type=text_field(meta.get("type"), "set type", 40),
        parent_code=str(meta.get("parentCode") or "").upper(),
        booster=meta.get("booster"),
        authoritative=True,
    )
    parent = str(meta.get("parentCode") or "").upper()
    # Checklist tokens in a set file (TISD in ISD.json) list that set's cards; a substitute
    # set (SZNR) names its parent in parentCode.
    context = _Context(path, default_parent=parent or code, set_code=code)
    yield from context.stream("data.cards.item", "cards")
    yield from context.stream("data.tokens.item", "tokens")


def read_mtgjson_list(path: str) -> Iterator:
    yield from _Context(path, default_parent="").stream("data.item", "data")


def _read_set_meta(path: str) -> dict:
    """First pass: the set's own fields and its booster collation, skipping the cards."""
    meta: dict = {}
    builder = None
    with open_binary(path) as stream:
        try:
            for prefix, event, value in ijson.parse(stream, use_float=True):
                if builder is not None:
                    if prefix == "data.booster" and event in ("end_map", "end_array"):
                        builder.event(event, value)
                        meta["booster"] = builder.value
                        builder = None
                    else:
                        builder.event(event, value)
                elif prefix == "data.booster" and event == "start_map":
                    builder = ijson.ObjectBuilder()
                    builder.event(event, value)
                elif prefix.startswith("data.") and prefix[5:] in _SET_FIELDS and event in ("string", "number", "null"):
                    meta[prefix[5:]] = value
        except ijson.JSONError as exc:
            raise invalid_json(path, exc) from exc
    return meta


class _Context:
    def __init__(self, path: str, default_parent: str, set_code: str = ""):
        self.path = path
        self.default_parent = default_parent
        self.set_code = set_code  # a set file's code, for card records that omit setCode

    def stream(self, prefix: str, section: str) -> Iterator:
        joiner = _FaceJoiner(self.path, section)
        index = -1
        with open_binary(self.path) as stream:
            try:
                for index, record in enumerate(ijson.items(stream, prefix, use_float=True)):
                    try:
                        items = list(self._classify(index, record, joiner))
                    except _RECORD_ERRORS as exc:
                        raise _error(self.path, section, index, record, exc) from exc
                    yield from items
            except ijson.JSONError as exc:
                raise invalid_json(self.path, exc, f" after {section} record #{index}") from exc
        yield from joiner.finish()

    def _classify(self, index: int, record, joiner: _FaceJoiner) -> Iterator:
        if not isinstance(record, dict):
            raise Invalid("not a JSON object")
        if self.set_code and not record.get("setCode"):
            record["setCode"] = self.set_code
        name = record.get("name")
        if not name or not isinstance(name, str):
            raise Invalid("the record has no name")
        layout = record.get("layout") or Layout.NORMAL.value
        if record.get("type") == "Card" and is_checklist_name(name):
            yield self._checklist(index, record)
        elif layout in NON_CARD_LAYOUTS:
            yield Skip(layout)
        else:
            yield from joiner.add(index, record)

    def _checklist(self, index: int, record: dict) -> ChecklistRecord:
        set_code = str(record.get("setCode") or "").upper()
        if not set_code:
            raise Invalid("the record has no set code")
        text = record.get("text") or ""
        substitute = "Substitute" in record["name"]
        parent = parent_of_token_set(set_code) if not self.default_parent else self.default_parent
        return ChecklistRecord(
            index=index,
            name=record["name"],
            kind=(ChecklistKind.SUBSTITUTE if substitute else ChecklistKind.CHECKLIST).value,
            set_code=set_code,
            parent_set_code=parent,
            collector_number=str(record.get("number") or ""),
            scryfall_id=clean_uuid((record.get("identifiers") or {}).get("scryfallId"), "Scryfall id"),
            oracle_text=text,
            entries=[] if substitute else checklist_names(text),
        )


def _error(path: str, section: str, index: int, record, exc: Exception) -> RecordError:
    ident = None
    if isinstance(record, dict):
        ident = record.get("name") or record.get("uuid")
    return RecordError(
        str(exc) or type(exc).__name__, path=path, index=index, section=f"{section} record", ident=ident and str(ident)
    )


class _FaceJoiner:
    """Collects the face records of each multi-face card and emits whole cards."""

    def __init__(self, path: str, section: str):
        self.path = path
        self.section = section
        self.pending: OrderedDict[tuple, list[tuple[int, dict]]] = OrderedDict()
        self.meld_results: dict[str | None, FaceData] = {}
        self.meld_waiting: OrderedDict[str | None, list[tuple[int, dict]]] = OrderedDict()

    def add(self, index: int, record: dict) -> Iterator:
        side = record.get("side")
        layout = record.get("layout") or Layout.NORMAL.value
        if not side:
            yield _build(index, [record])
            return
        _face(record, 0, layout)  # validate now, so an error names this record
        if layout == Layout.MELD:
            yield from self._meld(index, record, side)
            return
        key = (record.get("setCode"), record.get("number"), record["name"])
        group = self.pending.setdefault(key, [])
        group.append((index, record))
        expected = max(len(record.get("otherFaceIds") or []) + 1, len(key[2].split(" // ")))
        if len({r.get("side") for _, r in group}) >= expected:
            del self.pending[key]
            yield self._safe_build(group)
        if len(self.pending) > PENDING_LIMIT:
            _, oldest = self.pending.popitem(last=False)
            yield self._safe_build(oldest, incomplete=True)

    def _meld(self, index: int, record: dict, side: str) -> Iterator:
        uuid = record.get("uuid")
        if side != "a":
            self.meld_results[uuid] = _face(record, 1, Layout.MELD)
            yield Skip("meld_result")
            for waiting_index, half in self.meld_waiting.pop(uuid, []):
                yield self._safe_build([(waiting_index, half)], melded=self.meld_results[uuid])
            return
        for other in record.get("otherFaceIds") or []:
            if other in self.meld_results:
                yield _build(index, [record], melded=self.meld_results[other])
                return
        others = record.get("otherFaceIds") or [None]
        self.meld_waiting.setdefault(others[0], []).append((index, record))
        if len(self.meld_waiting) > PENDING_LIMIT:
            _, oldest = self.meld_waiting.popitem(last=False)
            for waiting_index, half in oldest:
                yield self._safe_build([(waiting_index, half)], incomplete=True)

    def finish(self) -> Iterator:
        while self.pending:
            _, group = self.pending.popitem(last=False)
            yield self._safe_build(group, incomplete=True)
        while self.meld_waiting:
            _, halves = self.meld_waiting.popitem(last=False)
            for waiting_index, half in halves:
                yield self._safe_build([(waiting_index, half)], incomplete=True)

    def _safe_build(self, group, melded: FaceData | None = None, incomplete: bool = False):
        group = sorted(group, key=lambda item: str(item[1].get("side") or ""))
        index, first = group[0]
        try:
            return _build(index, [r for _, r in group], melded=melded, incomplete=incomplete)
        except _RECORD_ERRORS as exc:
            raise _error(self.path, self.section, index, first, exc) from exc


def _build(index: int, records: list[dict], melded: FaceData | None = None, incomplete: bool = False):
    front = records[0]
    layout = front.get("layout") or Layout.NORMAL.value
    faces = [_face(record, position, layout) for position, record in enumerate(records)]
    if melded is not None:
        faces.append(melded)
    identifiers = front.get("identifiers") or {}
    scryfall_id = identifiers.get("scryfallId")
    images = {}
    if scryfall_id:
        images["front"] = scryfall_image(str(scryfall_id))
        if layout in _BACK_IMAGE_LAYOUTS and len(faces) > 1:
            images["back"] = scryfall_image(str(scryfall_id), "back")
    identity = front.get("colorIdentity")
    # MTGJSON omits boosterTypes for cards no booster holds (extended art, box toppers...);
    # "deck" marks cards sold only in preconstructed decks.
    booster_types = set(front.get("boosterTypes") or ()) - _NON_BOOSTER_TYPES
    in_boosters = bool(booster_types) and not front.get("isPromo", False)
    return build_card(
        index=index,
        name=front["name"],
        layout=layout,
        faces=faces,
        set_code=str(front.get("setCode") or ""),
        collector_number=str(front.get("number") or ""),
        rarity=front.get("rarity") or "common",
        color_identity_value=colors_string(identity) if identity is not None else None,
        oracle_id=identifiers.get("scryfallOracleId"),
        scryfall_id=scryfall_id,
        mtgjson_uuid=front.get("uuid"),
        mtgo_id=identifiers.get("mtgoId"),
        mtgo_foil_id=identifiers.get("mtgoFoilId"),
        image_uris=images,
        in_boosters=in_boosters,
        incomplete=incomplete,
        localized_names=_printed_names(records),
    )


def _printed_names(records: list[dict]) -> list[tuple[int, str, str]]:
    """Each face record's foreignData: the face's name in every language it was printed in."""
    names = []
    for position, record in enumerate(records):
        for foreign in record.get("foreignData") or ():
            if not isinstance(foreign, dict):
                continue
            language = languages.MTGJSON.get(foreign.get("language", ""))
            name = foreign.get("faceName") or foreign.get("name")
            if language and isinstance(name, str):
                if not foreign.get("faceName") and " // " in name and len(records) == 1:
                    name = name.split(" // ")[0]  # a one-record card printed as "A // B"
                names.append((position, language, name))
    return names


def _face(record: dict, position: int, layout: str) -> FaceData:
    value: float | None
    if record.get("faceManaValue") is not None:
        value = float(record["faceManaValue"])
    elif position == 0 and layout != Layout.SPLIT:
        raw = record.get("manaValue", record.get("convertedManaCost"))
        value = None if raw is None else float(raw)
    else:
        value = None  # computed from the face's own cost
    return FaceData(
        name=record.get("faceName") or record.get("name") or "",
        mana_cost=record.get("manaCost") or "",
        mana_value=value,
        type_line=record.get("type") or "",
        oracle_text=record.get("text") or "",
        colors=colors_string(record.get("colors")),
        color_indicator=colors_string(record.get("colorIndicator")),
        power=record.get("power") or "",
        toughness=record.get("toughness") or "",
        loyalty=record.get("loyalty") or "",
        defense=record.get("defense") or "",
    )
