"""Manifest dread (R29): look at the top two cards of your library, manifest one, put the other
into your graveyard."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cards.rules.data import CardData
from cards.rules.state import GRAVEYARD, LIBRARY, GameObject
from cards.rules.zones import manifest

#: The event a "whenever you manifest dread" ability triggers on: it happens even when the
#: library had fewer than two cards (R29).
MANIFESTED_DREAD = "manifested_dread"


@dataclass(frozen=True)
class ManifestDreadResult:
    """What manifest dread did.

    ``looked_at`` are the cards looked at (top first); ``manifested`` the face-down permanent
    (``None`` with an empty library); ``to_graveyard`` the card(s) put into the graveyard;
    ``library`` what is left of the library (top first); ``events`` always includes
    ``"manifested_dread"``.
    """

    looked_at: tuple[CardData, ...]
    manifested: GameObject | None
    to_graveyard: tuple[GameObject, ...]
    library: tuple[CardData, ...]
    events: tuple[str, ...]


def manifest_dread(library: Sequence[CardData], choose: int = 0) -> ManifestDreadResult:
    """Manifest dread from ``library`` (``library[0]`` is the top card).

    ``choose`` is which of the top two cards (0 or 1) to manifest. With one card it is
    manifested (no choice); with none nothing happens; the "whenever you manifest dread"
    trigger happens in every case (R29).
    """
    if choose not in (0, 1):
        raise ValueError("choose is 0 or 1 (one of the top two cards)")
    top = tuple(library[:2])
    rest = tuple(library[2:])
    if not top:
        return ManifestDreadResult((), None, (), rest, (MANIFESTED_DREAD,))
    if len(top) == 1:
        choose = 0
    chosen = top[choose]
    result = manifest(GameObject(card=chosen, zone=LIBRARY))
    events = ["looked_at_top_cards", *result.events]
    graveyard: tuple[GameObject, ...] = ()
    if len(top) == 2:
        other = top[1 - choose]
        graveyard = (GameObject(card=other, zone=GRAVEYARD),)
        events.append("moved_to_graveyard")
    events.append(MANIFESTED_DREAD)
    return ManifestDreadResult(top, result.state, graveyard, rest, tuple(events))
