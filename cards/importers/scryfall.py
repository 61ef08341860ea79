"""Scryfall card objects: a bulk-data JSON array, or an API list object's ``data`` array.

One object is one physical card; multi-faced cards carry ``card_faces``. Meld cards are
separate objects: each meld half names its melded result in ``all_parts``, and the result has
its own object. A half becomes one card "Half // Result" whose second face is the result's;
the result object itself is skipped (it is not a card anyone drafts).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import ijson

from cards import languages
from cards.models import ChecklistKind, Layout
from cards.rules.colors import symbol_colors

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
    text_field,
)
from .sources import invalid_json, open_binary
from .text import checklist_names, colors_string

# How many meld halves may wait for their melded result before they are imported without it.
MELD_WAIT_LIMIT = 1000
_RECORD_ERRORS = (Invalid, KeyError, TypeError, ValueError, AttributeError)


def read_scryfall(path: str, prefix: str = "item") -> Iterator:
    """Yield normalized items for every card object of the file."""
    reader = _ScryfallReader(path)
    with open_binary(path) as stream:
        index = -1
        try:
            for index, obj in enumerate(ijson.items(stream, prefix, use_float=True)):
                yield from reader.convert(index, obj)
        except ijson.JSONError as exc:
            raise invalid_json(path, exc, f" after card object #{index}") from exc
    yield from reader.finish()


def is_checklist_name(name: str) -> bool:
    return "Checklist" in name or "Substitute" in name


def parent_of_token_set(code: str) -> str:
    """TISD -> ISD, SZNR -> ZNR: Scryfall and MTGJSON prefix token sets with T or S."""
    code = (code or "").upper()
    return code[1:] if len(code) == 4 and code[0] in "TS" else ""


class _ScryfallReader:
    def __init__(self, path: str):
        self.path = path
        self.seen_sets: set[str] = set()
        self.meld_results: dict[str, FaceData] = {}
        self.meld_waiting: dict[str, list[tuple[int, dict]]] = {}
        self.waiting_count = 0

    def _error(self, index: int, obj, exc: Exception) -> RecordError:
        ident = None
        if isinstance(obj, dict):
            ident = obj.get("name") or obj.get("id")
        return RecordError(
            str(exc) or type(exc).__name__,
            path=self.path,
            index=index,
            section="card object",
            ident=ident and str(ident),
        )

    def convert(self, index: int, obj) -> Iterator:
        try:
            items = list(self._convert(index, obj))
        except _RECORD_ERRORS as exc:
            raise self._error(index, obj, exc) from exc
        yield from items

    def _convert(self, index: int, obj) -> Iterator:
        if not isinstance(obj, dict):
            raise Invalid("not a JSON object")
        name = obj.get("name")
        if not name or not isinstance(name, str):
            raise Invalid("the record has no name")
        set_code = str(obj.get("set") or "").upper()
        if not set_code:
            raise Invalid("the record has no set code")
        if set_code not in self.seen_sets:
            self.seen_sets.add(set_code)
            yield SetInfo(
                code=set_code,
                name=text_field(obj.get("set_name"), "set name", 200),
                release_date=obj.get("released_at"),
                set_type=text_field(obj.get("set_type"), "set type", 40),
                parent_code=str(obj.get("parent_set_code") or "").upper(),
                authoritative=False,
            )
        layout = obj.get("layout") or Layout.NORMAL.value
        if obj.get("type_line") == "Card" and is_checklist_name(name):
            yield self._checklist(index, obj, set_code)
            return
        if layout in NON_CARD_LAYOUTS:
            yield Skip(layout)
            return
        if layout == Layout.MELD:
            yield from self._meld(index, obj)
            return
        yield self._card(index, obj)

    def _checklist(self, index: int, obj: dict, set_code: str):
        text = obj.get("oracle_text") or ""
        kind = ChecklistKind.SUBSTITUTE if "Substitute" in obj["name"] else ChecklistKind.CHECKLIST
        parent = str(obj.get("parent_set_code") or "").upper() or parent_of_token_set(set_code)
        return ChecklistRecord(
            index=index,
            name=obj["name"],
            kind=kind.value,
            set_code=set_code,
            parent_set_code=parent,
            collector_number=str(obj.get("collector_number") or ""),
            scryfall_id=clean_uuid(obj.get("id"), "Scryfall id"),
            oracle_text=text,
            entries=checklist_names(text) if kind == ChecklistKind.CHECKLIST else [],
        )

    # -- meld ------------------------------------------------------------------------------

    def _meld(self, index: int, obj: dict) -> Iterator:
        result_name = None
        for part in obj.get("all_parts") or []:
            if isinstance(part, dict) and part.get("component") == "meld_result":
                result_name = part.get("name")
        if not result_name:
            yield self._card(index, obj)  # no meld data: keep it as the single card it is
            return
        if result_name == obj["name"]:
            self.meld_results[result_name] = _faces(obj, Layout.MELD)[0]
            yield Skip("meld_result")
            for waiting_index, half in self.meld_waiting.pop(result_name, []):
                self.waiting_count -= 1
                yield self._safe_card(waiting_index, half, result_name)
            return
        if result_name in self.meld_results:
            yield self._card(index, obj, result_name)
            return
        _faces(obj, Layout.MELD)  # validate now, so an error names this record
        self.meld_waiting.setdefault(result_name, []).append((index, obj))
        self.waiting_count += 1
        if self.waiting_count > MELD_WAIT_LIMIT:
            oldest = next(iter(self.meld_waiting))
            for waiting_index, half in self.meld_waiting.pop(oldest):
                self.waiting_count -= 1
                yield self._safe_card(waiting_index, half, oldest)

    def finish(self) -> Iterator:
        for result_name, halves in list(self.meld_waiting.items()):
            for waiting_index, half in halves:
                yield self._safe_card(waiting_index, half, result_name)
        self.meld_waiting.clear()

    def _safe_card(self, index: int, obj: dict, result_name: str):
        try:
            return self._card(index, obj, result_name)
        except _RECORD_ERRORS as exc:
            raise self._error(index, obj, exc) from exc

    # -- ordinary cards ---------------------------------------------------------------------

    def _card(self, index: int, obj: dict, meld_result: str | None = None):
        layout = obj.get("layout") or Layout.NORMAL.value
        faces = _faces(obj, layout)
        name = obj["name"]
        incomplete = False
        if meld_result:
            name = f"{faces[0].name} // {meld_result}"
            result_face = self.meld_results.get(meld_result)
            if result_face is not None:
                faces.append(result_face)
            else:
                incomplete = True
        identity = obj.get("color_identity")
        return build_card(
            index=index,
            name=name,
            layout=layout,
            faces=faces,
            set_code=str(obj["set"]),
            collector_number=str(obj.get("collector_number") or ""),
            rarity=obj.get("rarity") or "common",
            color_identity_value=colors_string(identity) if identity is not None else None,
            oracle_id=obj.get("oracle_id"),
            scryfall_id=obj.get("id"),
            mtgo_id=obj.get("mtgo_id"),
            mtgo_foil_id=obj.get("mtgo_foil_id"),
            image_uris=_images(obj),
            in_boosters=obj["booster"] if "booster" in obj else not obj.get("promo", False),
            incomplete=incomplete,
            localized_names=_printed_names(obj),
        )


def _printed_names(obj: dict) -> list[tuple[int, str, str]]:
    """A non-English printing's ``printed_name`` (per face when the card has faces)."""
    language = languages.SCRYFALL.get(obj.get("lang") or "en")
    if language is None:
        return []
    faces = obj.get("card_faces")
    if isinstance(faces, list) and faces:
        return [
            (position, language, face["printed_name"])
            for position, face in enumerate(faces)
            if isinstance(face, dict) and face.get("printed_name")
        ]
    return [(0, language, obj["printed_name"])] if obj.get("printed_name") else []


def _faces(obj: dict, layout: str) -> list[FaceData]:
    card_colors = colors_string(obj.get("colors"))
    raw_faces = obj.get("card_faces")
    if not raw_faces:
        return [
            _face(
                obj,
                name=obj["name"],
                mana_cost=obj.get("mana_cost") or "",
                mana_value=_number(obj.get("cmc")),
                colors=card_colors,
            )
        ]
    if not isinstance(raw_faces, list):
        raise Invalid("card_faces is not a list")
    faces = []
    for position, face in enumerate(raw_faces):
        if not isinstance(face, dict):
            raise Invalid(f"face {position} is not an object")
        cost = face.get("mana_cost") or ""
        if "colors" in face:
            colors = colors_string(face["colors"])
        elif layout == Layout.SPLIT:
            colors = symbol_colors(cost)
        else:
            colors = card_colors
        if face.get("cmc") is not None:
            value = _number(face["cmc"])
        elif position == 0 and layout != Layout.SPLIT:
            value = _number(obj.get("cmc"))  # the card's mana value is its front face's
        else:
            value = None  # computed from this face's own cost
        faces.append(_face(face, name=face.get("name") or "", mana_cost=cost, mana_value=value, colors=colors))
    return faces


def _face(source: dict, *, name: str, mana_cost: str, mana_value: float | None, colors: str) -> FaceData:
    """A face from a one-faced card's object or from one of ``card_faces``: the fields both read
    the same way; the name, cost, mana value and colors are the caller's (they differ)."""
    return FaceData(
        name=name,
        mana_cost=mana_cost,
        mana_value=mana_value,
        type_line=source.get("type_line") or "",
        oracle_text=source.get("oracle_text") or "",
        colors=colors,
        color_indicator=colors_string(source.get("color_indicator")),
        power=source.get("power") or "",
        toughness=source.get("toughness") or "",
        loyalty=source.get("loyalty") or "",
        defense=source.get("defense") or "",
    )


def _number(value) -> float | None:
    if value is None or value == "":
        return None
    return float(value)


def _images(obj: dict) -> dict:
    faces = obj.get("card_faces") or []
    per_face: list[Any] = [f.get("image_uris") for f in faces if isinstance(f, dict)]
    if per_face and all(isinstance(uris, dict) for uris in per_face):
        sides = ["front", "back"] + [f"face{n}" for n in range(2, len(per_face))]
        return {side: uris.get("normal", "") for side, uris in zip(sides, per_face)}
    uris = obj.get("image_uris")
    if isinstance(uris, dict) and uris.get("normal"):
        return {"front": uris["normal"]}
    return {}
