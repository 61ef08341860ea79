"""Plain input data for the rules core: a card and its faces, as printed (R1, R41).

Nothing here knows about zones or game state; see :mod:`cards.rules.state` for that. Values
that every rules question needs (is this face a land? a permanent? its ward?) are computed once
per face or card and cached, so that :func:`cards.rules.characteristics.characteristics` stays
cheap.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from cards.rules.colors import order_colors

# Layouts (same spelling as Scryfall and the catalogue).
NORMAL = "normal"
TRANSFORM = "transform"
MODAL_DFC = "modal_dfc"
MELD = "meld"
FLIP = "flip"
SPLIT = "split"
ADVENTURE = "adventure"

#: Physically two-sided cards: what R1-R14 call double-faced cards.
DFC_LAYOUTS = frozenset({TRANSFORM, MODAL_DFC, MELD})

PERMANENT_TYPES = frozenset({"Artifact", "Battle", "Creature", "Enchantment", "Land", "Planeswalker"})

# "Ward {2}" or "Ward—Pay 3 life." at the start of a line of rules text.
_WARD = re.compile(r"^Ward(?: (\{[^}]*\}(?:\{[^}]*\})*)|\s*[—-]\s*([^(\n]+?))\.?\s*(?:\(|$)", re.M)
_REMINDER = re.compile(r"\s*\([^)]*\)")
# "Disturb {1}{U}" at the start of a line (Innistrad: Midnight Hunt, Crimson Vow).
_DISTURB = re.compile(r"^Disturb (\{[^}]*\}(?:\{[^}]*\})*)", re.M)
# A back face's own rule for a card cast with disturb: it never reaches a graveyard.
_EXILE_INSTEAD = re.compile(r"would be put into a graveyard from anywhere, exile it instead", re.I)


def _none_if_blank(value: str | None) -> str | None:
    return value if value else None


@dataclass(frozen=True)
class FaceData:
    """One face of a card (a DFC side, a flip half, a split half, an Adventure) as printed.

    ``mana_cost`` is ``""`` when the face has none (the back face of a transforming DFC, R1);
    ``colors`` and ``color_indicator`` are strings of WUBRG letters; the three face-down costs
    are ``None`` when the face has no such ability.
    """

    name: str
    mana_cost: str = ""
    mana_value: float | int = 0
    colors: str = ""
    color_indicator: str = ""
    supertypes: tuple[str, ...] = ()
    card_types: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    oracle_text: str = ""
    power: str | None = None
    toughness: str | None = None
    loyalty: str | None = None
    disguise_cost: str | None = None
    morph_cost: str | None = None
    megamorph_cost: str | None = None
    defense: str | None = None

    @cached_property
    def is_land(self) -> bool:
        return "Land" in self.card_types

    @cached_property
    def is_creature(self) -> bool:
        return "Creature" in self.card_types

    @cached_property
    def is_permanent(self) -> bool:
        """Whether a card with only this face's types can be on the battlefield (R37)."""
        return any(t in PERMANENT_TYPES for t in self.card_types)

    @cached_property
    def is_instant_or_sorcery(self) -> bool:
        return "Instant" in self.card_types or "Sorcery" in self.card_types

    @cached_property
    def color_letters(self) -> str:
        """The face's colors in WUBRG order; a color indicator gives a back face its color (R1)."""
        return order_colors(self.colors or self.color_indicator)

    @cached_property
    def ward(self) -> str | None:
        """The face's printed ward cost (``"{2}"``, ``"Pay 3 life"``) or ``None``."""
        match = _WARD.search(self.oracle_text or "")
        if match is None:
            return None
        return (match.group(1) or match.group(2) or "").strip() or None

    @cached_property
    def disturb_cost(self) -> str | None:
        """The face's disturb cost (``"{1}{U}"``) or ``None`` (CR 702.146)."""
        match = _DISTURB.search(self.oracle_text or "")
        return match.group(1) if match else None

    @cached_property
    def exiled_instead_of_graveyard(self) -> bool:
        """ "If it would be put into a graveyard from anywhere, exile it instead" (disturb backs)."""
        return bool(_EXILE_INSTEAD.search(self.oracle_text or ""))

    @cached_property
    def turn_up_morph_cost(self) -> str | None:
        """The cost to turn it face up with morph: its morph or megamorph cost (R23, R26)."""
        return self.morph_cost or self.megamorph_cost

    @property
    def type_line(self) -> str:
        left = " ".join((*self.supertypes, *self.card_types))
        return f"{left} — {' '.join(self.subtypes)}" if self.subtypes else left


@dataclass(frozen=True)
class CardData:
    """A whole card: its full name ("A // B"), layout and faces in printed order.

    ``faces[0]`` is the front face of a DFC, the upright half of a flip card and the left half of
    a split card; ``faces[1]`` (when present) is the back face, the flipped half or the right half
    or Adventure.
    """

    name: str
    layout: str = NORMAL
    faces: tuple[FaceData, ...] = ()

    def __post_init__(self) -> None:
        if not self.faces:
            raise ValueError(f"{self.name!r}: a card needs at least one face")

    # -- what kind of card it is ------------------------------------------------------------
    @property
    def is_dfc(self) -> bool:
        """Two-sided (transform, modal DFC, meld): R1-R14 apply."""
        return self.layout in DFC_LAYOUTS

    @property
    def is_mdfc(self) -> bool:
        return self.layout == MODAL_DFC

    @property
    def is_transforming(self) -> bool:
        """A transforming DFC: the only kind of card that can transform (R5, R7, R35)."""
        return self.layout == TRANSFORM and len(self.faces) > 1

    @property
    def is_meld(self) -> bool:
        return self.layout == MELD

    @property
    def is_flip(self) -> bool:
        return self.layout == FLIP and len(self.faces) > 1

    @property
    def is_room(self) -> bool:
        """A Room (Duskmourn): a split card whose halves are doors, locked or unlocked on the
        battlefield (CR 709.5)."""
        return self.layout == SPLIT and len(self.faces) > 1 and all("Room" in face.subtypes for face in self.faces)

    @property
    def melds_with(self) -> str | None:
        """For a meld card: the name of the melded permanent on its back (Brisela), else None."""
        if self.layout == MELD and self.back is not None:
            return self.back.name
        return None

    @property
    def is_adventure(self) -> bool:
        return self.layout == ADVENTURE and len(self.faces) > 1

    # -- faces -----------------------------------------------------------------------------
    @property
    def front(self) -> FaceData:
        return self.faces[0]

    @property
    def back(self) -> FaceData | None:
        """The second face (back face, flipped half, right half, Adventure), if any."""
        return self.faces[1] if len(self.faces) > 1 else None

    @cached_property
    def face_names(self) -> tuple[str, ...]:
        return tuple(face.name for face in self.faces)

    def face(self, which: str) -> FaceData:
        """``"front"`` or ``"back"``: the face with that label (``ValueError`` if none)."""
        if which == "front":
            return self.faces[0]
        if which == "back" and len(self.faces) > 1:
            return self.faces[1]
        raise ValueError(f"{self.name} has no {which} face")

    def face_label(self, name: str) -> str | None:
        """``"front"``/``"back"`` for a face name (case-insensitive), else ``None``."""
        folded = name.casefold()
        for label, face in zip(("front", "back"), self.faces):
            if face.name.casefold() == folded:
                return label
        return None

    @cached_property
    def spell_faces(self) -> tuple[str, ...]:
        """Labels of faces that can be cast as a spell from outside the battlefield (R32-R33).

        The front face unless it's a land; the back face of an MDFC unless it's a land; either
        half of a split card and the Adventure of an Adventurer card. Never the back face of a
        transforming or meld DFC (R2: only the front face exists outside the battlefield) nor the
        flipped half of a flip card (R43).
        """
        labels = [] if self.faces[0].is_land else ["front"]
        back = self.back
        if back is not None and not back.is_land and self.layout in (MODAL_DFC, SPLIT, ADVENTURE):
            labels.append("back")
        return tuple(labels)

    @cached_property
    def land_faces(self) -> tuple[str, ...]:
        """Labels of faces that can be played as a land (R32-R33)."""
        labels = ["front"] if self.faces[0].is_land else []
        back = self.back
        if back is not None and back.is_land and self.layout == MODAL_DFC:
            labels.append("back")
        return tuple(labels)

    @cached_property
    def views(self) -> dict:
        """Per-card memo of computed characteristics (filled by the characteristics module)."""
        return {}


def strip_reminder_text(text: str) -> str:
    """Rules text without parenthesised reminder text, which has no effect on the game (R40)."""
    return _REMINDER.sub("", text or "").strip()


def face(
    name: str,
    mana_cost: str = "",
    mana_value: float | int = 0,
    colors: str = "",
    type_line: str = "",
    oracle_text: str = "",
    power: str | None = None,
    toughness: str | None = None,
    **extra,
) -> FaceData:
    """Build a :class:`FaceData` from a printed type line ("Legendary Creature — Goblin Shaman").

    A convenience for literals and adapters; supertypes are Basic, Legendary, Snow, World and
    Ongoing, the rest of the left part are card types.
    """
    left, _, right = type_line.partition("—")
    words = left.split()
    supers = tuple(w for w in words if w in _SUPERTYPES)
    types = tuple(w for w in words if w not in _SUPERTYPES)
    return FaceData(
        name=name,
        mana_cost=mana_cost,
        mana_value=mana_value,
        colors=order_colors(colors),
        supertypes=supers,
        card_types=types,
        subtypes=tuple(right.split()),
        oracle_text=oracle_text,
        power=_none_if_blank(power),
        toughness=_none_if_blank(toughness),
        **extra,
    )


_SUPERTYPES = frozenset({"Basic", "Legendary", "Snow", "World", "Ongoing", "Elite", "Host"})
