"""Real cards read from the data the product ships (cards/data), through the importers' own
readers, as rules-core :class:`CardData`: the meld pairs of Eldritch Moon, the disturb cards of
Innistrad: Midnight Hunt and the Rooms of Duskmourn. No database needed."""

from __future__ import annotations

from functools import cache
from types import SimpleNamespace

from cards.importers.cockatrice import read_cockatrice
from cards.importers.mtgjson import read_mtgjson_set
from cards.importers.records import CardRecord
from cards.rules import CardData
from cards.services import BUNDLED_DATA_DIR
from rulesdesk.adapter import face_data

FILES = {
    "EMN": ("mtgjson/EMN.json.gz", read_mtgjson_set),
    "MID": ("mtgjson/MID.json.gz", read_mtgjson_set),
    "DSK": ("cockatrice/DSK.xml.gz", read_cockatrice),
}
_FACE_DEFAULTS = {"disguise_cost": "", "morph_cost": "", "megamorph_cost": ""}


@cache
def _cards(set_code: str) -> dict[str, CardData]:
    path, reader = FILES[set_code]
    found: dict[str, CardData] = {}
    for record in reader(str(BUNDLED_DATA_DIR / path)):
        if isinstance(record, CardRecord) and record.name not in found:
            faces = tuple(
                face_data(SimpleNamespace(**{**_FACE_DEFAULTS, **face}))  # type: ignore[arg-type]  # a stand-in with a CardFace's fields
                for face in record.faces
            )
            found[record.name] = CardData(name=record.name, layout=record.layout, faces=faces)
    return found


def card(set_code: str, name: str) -> CardData:
    """The shipped card whose full name or front face name is ``name``."""
    cards = _cards(set_code)
    if name in cards:
        return cards[name]
    matches = [c for c in cards.values() if c.faces[0].name == name]
    if not matches:
        raise LookupError(f"{name} is not in the shipped {set_code} data")
    return matches[0]
