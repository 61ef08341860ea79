"""The normalized records every reader produces and the writer stores.

A reader turns its format into a stream of:

* ``SetInfo``: what the file says about a set (MTGJSON and Cockatrice headers are
  authoritative; Scryfall's per-card set fields only fill blanks);
* ``CardRecord``: one physical card (one printing) with its oracle card and ordered faces;
* ``ChecklistRecord``: an official checklist or substitute card;
* ``Skip``: a record that is not a draftable card (token, emblem, melded half, helper).

``build_card`` validates a card, derives the per-face fields the model keeps (types,
face-down costs, search names) and the two content hashes used to spot unchanged rows.
"""

from __future__ import annotations

import hashlib
import re
import uuid
from dataclasses import dataclass, field
from typing import Any

from cards.models import Layout, Rarity
from cards.name_folding import normalize_name
from cards.rules.colors import color_identity

from .text import face_down_costs, mana_value, parse_type_line

KEPT_LAYOUTS = frozenset(choice.value for choice in Layout)
# Layouts of things that are not cards a player drafts or plays as their own card.
NON_CARD_LAYOUTS = frozenset(
    {
        "token",
        "double_faced_token",
        "emblem",
        "art_series",
        "planar",
        "scheme",
        "vanguard",
        "reversible_token",
    }
)
RARITIES = frozenset(choice.value for choice in Rarity)
_RARITY_ALIASES = {"mythic rare": "mythic", "basic land": "common", "land": "common", "timeshifted": "special"}


class Invalid(ValueError):
    """A record cannot be imported; readers turn this into a RecordError naming it."""


@dataclass(slots=True)
class SetInfo:
    code: str
    name: str = ""
    release_date: str | None = None
    set_type: str = ""
    parent_code: str = ""
    booster: dict | None = None
    # True: these values replace what is stored. False: they only fill blank fields.
    authoritative: bool = True


@dataclass(slots=True)
class FaceData:
    name: str
    mana_cost: str = ""
    mana_value: float | None = None  # None: computed from mana_cost
    type_line: str = ""
    oracle_text: str = ""
    colors: str = ""
    color_indicator: str = ""
    power: str = ""
    toughness: str = ""
    loyalty: str = ""
    defense: str = ""


@dataclass(slots=True)
class CardRecord:
    index: int
    name: str
    layout: str
    faces: list[dict]
    color_identity: str
    oracle_id: str | None
    set_code: str
    collector_number: str
    rarity: str
    scryfall_id: str | None
    mtgjson_uuid: str | None
    image_uris: dict
    in_boosters: bool
    mtgo_id: int | None = None
    mtgo_foil_id: int | None = None
    card_hash: str = ""
    printing_hash: str = ""
    incomplete: bool = False
    search_name: str = ""
    # (face position, language code, printed name, folded key) for every printed language
    localized_names: list[tuple[int, str, str, str]] = field(default_factory=list)


@dataclass(slots=True)
class ChecklistRecord:
    index: int
    name: str
    kind: str
    set_code: str
    parent_set_code: str
    collector_number: str
    scryfall_id: str | None
    oracle_text: str
    entries: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Skip:
    reason: str


def digest(value) -> str:
    """A stable 40-character hash of the normalized data (lists, dicts, text, numbers).

    ``repr`` is stable for these types and several times cheaper than sorted JSON; the
    dicts hashed here are built in a fixed key order by the readers."""
    return hashlib.blake2b(repr(value).encode(), digest_size=20).hexdigest()


_CANONICAL_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def clean_mtgo_id(value) -> int | None:
    """An MTGO catalogue id (MTGJSON writes it as a string of digits); anything else is none."""
    text = str(value).strip() if value is not None else ""
    if not text.isascii() or not text.isdigit() or not 0 < int(text) < 2**31:
        return None
    return int(text)


def clean_uuid(value, what: str) -> str | None:
    if value is None or value == "":
        return None
    if isinstance(value, str) and len(value) == 36 and _CANONICAL_UUID.fullmatch(value):
        return value
    try:
        return str(uuid.UUID(str(value)))
    except (ValueError, AttributeError, TypeError) as exc:
        raise Invalid(f"{what} is not a UUID: {value!r}") from exc


def clean_rarity(value) -> str:
    text = str(value or "common").strip().lower()
    text = _RARITY_ALIASES.get(text, text)
    return text if text in RARITIES else Rarity.SPECIAL.value


def text_field(value, what: str, max_length: int | None = None) -> str:
    if value.__class__ is not str:
        if value is None:
            return ""
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = str(value)
        elif not isinstance(value, str):
            raise Invalid(f"{what} must be text, not {type(value).__name__}")
    if max_length is not None and len(value) > max_length:
        raise Invalid(f"{what} is longer than {max_length} characters")
    return value


def face_fields(face: FaceData, search_name: str | None = None) -> dict:
    """The CardFace column values (minus card and position) for one face."""
    if not face.name or not isinstance(face.name, str):
        raise Invalid("a face has no name")
    supertypes, card_types, subtypes = parse_type_line(face.type_line)
    value = face.mana_value if face.mana_value is not None else mana_value(face.mana_cost)
    fields: dict[str, Any] = {
        "name": text_field(face.name, "face name", 200),
        "search_name": (search_name or normalize_name(face.name))[:200],
        "mana_cost": text_field(face.mana_cost, "mana cost", 60),
        "mana_value": float(value),
        "type_line": text_field(face.type_line, "type line", 200),
        "supertypes": supertypes,
        "card_types": card_types,
        "subtypes": subtypes,
        "oracle_text": text_field(face.oracle_text, "rules text"),
        "colors": face.colors,
        "color_indicator": face.color_indicator,
        "power": text_field(face.power, "power", 10),
        "toughness": text_field(face.toughness, "toughness", 10),
        "loyalty": text_field(face.loyalty, "loyalty", 10),
        "defense": text_field(face.defense, "defense", 10),
    }
    fields.update({k: v[:60] for k, v in face_down_costs(fields["oracle_text"]).items()})
    return fields


def build_card(
    *,
    index: int,
    name: str,
    layout: str,
    faces: list[FaceData],
    set_code: str,
    collector_number: str = "",
    rarity: str = "common",
    color_identity_value: str | None = None,
    oracle_id=None,
    scryfall_id=None,
    mtgjson_uuid=None,
    mtgo_id=None,
    mtgo_foil_id=None,
    image_uris: dict | None = None,
    in_boosters: bool = True,
    incomplete: bool = False,
    localized_names: list[tuple[int, str, str]] | None = None,
) -> CardRecord:
    if not name or not isinstance(name, str) or not name.strip():
        raise Invalid("the record has no name")
    text_field(name, "name", 300)
    if not faces:
        raise Invalid("the record has no faces")
    if not set_code or not isinstance(set_code, str):
        raise Invalid("the record has no set code")
    layout = layout if layout in KEPT_LAYOUTS else Layout.OTHER.value
    name = name.strip()
    search_name = normalize_name(name)
    face_rows = [face_fields(face, search_name if face.name == name else None) for face in faces]
    if color_identity_value is None:
        color_identity_value = color_identity(
            [f["mana_cost"] for f in face_rows],
            [f["oracle_text"] for f in face_rows],
            [f["color_indicator"] for f in face_rows],
            [s for f in face_rows for s in f["subtypes"]],
        )
    record = CardRecord(
        index=index,
        name=name,
        search_name=search_name,
        layout=layout,
        faces=face_rows,
        color_identity=color_identity_value,
        oracle_id=clean_uuid(oracle_id, "oracle id"),
        set_code=set_code.upper()[:10],
        collector_number=text_field(collector_number, "collector number", 20),
        rarity=clean_rarity(rarity),
        scryfall_id=clean_uuid(scryfall_id, "Scryfall id"),
        mtgjson_uuid=clean_uuid(mtgjson_uuid, "MTGJSON uuid"),
        mtgo_id=clean_mtgo_id(mtgo_id),
        mtgo_foil_id=clean_mtgo_id(mtgo_foil_id),
        image_uris=image_uris or {},
        in_boosters=bool(in_boosters),
        incomplete=incomplete,
        localized_names=clean_localized_names(localized_names or (), len(face_rows)),
    )
    record.card_hash = digest([record.name, record.layout, record.color_identity, record.oracle_id, face_rows])
    record.printing_hash = digest(
        [
            record.name,
            record.set_code,
            record.collector_number,
            record.rarity,
            record.scryfall_id,
            record.mtgjson_uuid,
            record.image_uris,
            record.in_boosters,
            record.mtgo_id,
            record.mtgo_foil_id,
        ]
    )
    return record


def clean_localized_names(names, face_count: int) -> list[tuple[int, str, str, str]]:
    """Printed names as stored: known faces only, trimmed, each (position, language, name) once."""
    out, seen = [], set()
    for position, language, name in names:
        if not isinstance(name, str) or not isinstance(language, str):
            raise Invalid("a printed name or its language is not text")
        name = name.strip()
        if not name or not language or not 0 <= position < face_count or len(name) > 200:
            continue
        key = normalize_name(name)[:200]
        if key and (position, language, name) not in seen:
            seen.add((position, language, name))
            out.append((position, language[:10], name, key))
    return out


def scryfall_image(scryfall_id: str | None, side: str = "front") -> str:
    """Scryfall's image address for a card id (the CDN layout MTGJSON records point to)."""
    if not scryfall_id:
        return ""
    return f"https://cards.scryfall.io/normal/{side}/{scryfall_id[0]}/{scryfall_id[1]}/{scryfall_id}.jpg"
