"""What a game object *is* right now: its characteristics (R2-R3, R18, R26, R31, R34, R36,
R41-R43, R47).

:func:`characteristics` is called a lot (deck checks, the rules desk, benchmarks), so every
distinct view of a card is computed once and memoised on the :class:`CardData`; a call is a few
attribute reads and one dictionary look-up.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from cards.rules.colors import order_colors
from cards.rules.data import ADVENTURE, FLIP, MELD, MODAL_DFC, SPLIT, TRANSFORM, CardData, FaceData
from cards.rules.state import BATTLEFIELD, STACK, WARD_FACE_DOWN, GameObject


@dataclass(frozen=True)
class Characteristics:
    """The characteristics an object has now, as every player sees them.

    ``name`` and ``mana_cost`` are ``None`` when it has none (face down, a back face);
    ``colors`` is WUBRG letters in order; ``ward`` is the ward cost (``"{2}"``) or ``None``;
    ``source`` says where they come from: ``"front"``, ``"back"``, ``"flipped"``,
    ``"combined"`` (both halves of a split card), ``"copy"`` or ``"face_down"``.
    """

    name: str | None
    mana_cost: str | None
    mana_value: int
    colors: str
    supertypes: tuple[str, ...]
    card_types: tuple[str, ...]
    subtypes: tuple[str, ...]
    power: str | None
    toughness: str | None
    loyalty: str | None
    defense: str | None
    rules_text: str
    ward: str | None
    source: str

    @property
    def is_permanent(self) -> bool:
        return any(t in _PERMANENT for t in self.card_types)

    @property
    def is_land(self) -> bool:
        return "Land" in self.card_types


_PERMANENT = frozenset({"Artifact", "Battle", "Creature", "Enchantment", "Land", "Planeswalker"})


def _face_down(ward: bool) -> Characteristics:
    # R18, R26, R31: a 2/2 creature, no name, no mana cost, no creature types, colorless, MV 0;
    # disguise and cloak add ward {2}.
    return Characteristics(
        name=None,
        mana_cost=None,
        mana_value=0,
        colors="",
        supertypes=(),
        card_types=("Creature",),
        subtypes=(),
        power="2",
        toughness="2",
        loyalty=None,
        defense=None,
        rules_text="Ward {2}" if ward else "",
        ward="{2}" if ward else None,
        source="face_down",
    )


FACE_DOWN = _face_down(ward=False)
FACE_DOWN_WARD = _face_down(ward=True)


def _mv(value: float | int) -> int:
    return int(value)


def _from_face(
    face: FaceData,
    source: str,
    mana_value: float | int | None = None,
    mana_cost: str | None = None,
    colors: str | None = None,
) -> Characteristics:
    cost = face.mana_cost if mana_cost is None else mana_cost
    return Characteristics(
        name=face.name or None,
        mana_cost=cost or None,
        mana_value=_mv(face.mana_value if mana_value is None else mana_value),
        colors=face.color_letters if colors is None else colors,
        supertypes=tuple(face.supertypes),
        card_types=tuple(face.card_types),
        subtypes=tuple(face.subtypes),
        power=face.power,
        toughness=face.toughness,
        loyalty=face.loyalty,
        defense=face.defense,
        rules_text=face.oracle_text or "",
        ward=face.ward,
        source=source,
    )


def _union(*groups: tuple[str, ...]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for group in groups:
        for item in group:
            seen.setdefault(item, None)
    return tuple(seen)


def _combined(card: CardData) -> Characteristics:
    """A split card outside the stack: both halves at once (names, costs, colors, types)."""
    return _together(card.faces, name=card.name, typed=card.faces, source="combined")


def _room(card: CardData, doors: tuple[str, ...]) -> Characteristics:
    """A Room permanent (CR 709.5): only its unlocked doors count -- their names, mana costs
    (mana value is their total), colors and rules text. The card types and subtypes
    (Enchantment — Room) are the same on both doors and stay; with every door locked it has no
    name and mana value 0."""
    faces = [face for label, face in zip(("front", "back"), card.faces) if label in doors]
    return _together(faces, name=" // ".join(f.name for f in faces) or None, typed=card.faces, source="room")


def _together(
    faces: Sequence[FaceData], *, name: str | None, typed: Sequence[FaceData], source: str
) -> Characteristics:
    """Faces counted as one object (a split card's halves, a Room's unlocked doors): their mana
    costs joined, mana values added, colors, rules text and ward together, the types of the
    ``typed`` faces; no power, toughness, loyalty or defense."""
    costs = [f.mana_cost for f in faces if f.mana_cost]
    texts = [f.oracle_text for f in faces if f.oracle_text]
    return Characteristics(
        name=name,
        mana_cost=" // ".join(costs) or None,
        mana_value=_mv(sum(f.mana_value for f in faces)),
        colors=order_colors("".join(f.color_letters for f in faces)),
        supertypes=_union(*(f.supertypes for f in typed)),
        card_types=_union(*(f.card_types for f in typed)),
        subtypes=_union(*(f.subtypes for f in typed)),
        power=None,
        toughness=None,
        loyalty=None,
        defense=None,
        rules_text="\n//\n".join(texts),
        ward=next((f.ward for f in faces if f.ward), None),
        source=source,
    )


def _melded(card: CardData, partner: CardData) -> Characteristics:
    """A melded permanent (CR 712.4, 712.8): the shared back face's characteristics; it has no
    mana cost (R1) and its mana value is the total of the two front faces' mana values
    (Bruna 7 + Gisela 4: Brisela, Voice of Nightmares has mana value 11)."""
    back = card.back if card.back is not None else card.front
    return _from_face(back, "melded", mana_value=card.front.mana_value + partner.front.mana_value, mana_cost="")


def _compute(card: CardData, slot: str) -> Characteristics:
    """One view of a card. ``slot`` is where it is and which way up (see ``_slot``)."""
    layout = card.layout
    if slot.startswith("room:"):
        return _room(card, tuple(slot[5:].split("+")) if slot[5:] else ())
    front = card.faces[0]
    back = card.back
    if slot == "out" or slot == "bf_front":
        # R2, R36, R43: outside the stack and battlefield only the front face/upright half
        # exists; a split card is both halves (on the battlefield too: a Room).
        if layout == SPLIT and back is not None:
            return _combined(card)
        return _from_face(front, "front")
    if slot == "stack_front":
        return _from_face(front, "front")
    if slot == "flipped":
        if layout != FLIP or back is None:
            return _from_face(front, "front")
        # R41-R42: the flipped half's name, text, types and P/T; color and mana cost (so mana
        # value) never change.
        return _from_face(
            back, "flipped", mana_value=front.mana_value, mana_cost=front.mana_cost, colors=front.color_letters
        )
    # A back face up ("stack_back" / "bf_back").
    if back is None:
        return _from_face(front, "front")
    if layout in (TRANSFORM, MELD):
        # R3 (CR 712.8e): only the back face's characteristics, but the mana value is the
        # front face's (Gatstaf Howler has MV 2). The back face has no mana cost (R1).
        return _from_face(back, "back", mana_value=front.mana_value, mana_cost="")
    if layout == SPLIT and slot == "bf_back":
        return _combined(card)
    # R34, R36: an MDFC (and a split half or Adventure on the stack) uses the face that is up,
    # mana value included.
    if layout in (MODAL_DFC, SPLIT, ADVENTURE):
        return _from_face(back, "back")
    return _from_face(front, "front")


def _without_abilities(chars: Characteristics) -> Characteristics:
    # R23, R27: an object that lost its abilities has no rules text and no ward.
    return replace(chars, rules_text="", ward=None)


def _slot(obj: GameObject) -> str:
    zone = obj.zone
    if zone == BATTLEFIELD:
        if obj.card.is_room:
            return "room:" + "+".join(d for d in ("front", "back") if d in obj.unlocked)
        if obj.face_up == "back":
            return "bf_back"
        return "flipped" if obj.flipped else "bf_front"
    if zone == STACK:
        return "stack_back" if obj.face_up == "back" else "stack_front"
    return "out"


def characteristics(obj: GameObject) -> Characteristics:
    """The object's characteristics now.

    - Face down (stack or battlefield): a nameless colorless 2/2 creature, MV 0, with ward {2}
      for disguise and cloak (R18, R26, R31), unless it lost its abilities (R23).
    - Copying something on the stack or battlefield: the copied values (R8, R47).
    - A transforming DFC with its back face up: the back face, with the front face's mana value
      (R3); anywhere but the stack and battlefield: the front face (R2).
    - An MDFC: the face that is up on the stack and battlefield, its own mana value; elsewhere
      the front face (R34, R36).
    - A flip card: the flipped half only while flipped on the battlefield; color and mana cost
      never change (R41-R43).
    """
    if obj.face_down:
        if obj.lost_abilities or obj.face_down_by not in WARD_FACE_DOWN:
            return FACE_DOWN
        return FACE_DOWN_WARD
    zone = obj.zone
    if obj.copy_of is not None and (zone == BATTLEFIELD or zone == STACK):
        return _copy_view(obj.copy_of, obj.lost_abilities)
    if obj.melded_with is not None and zone == BATTLEFIELD:
        key = ("melded:" + obj.melded_with.name, obj.lost_abilities)
        found = obj.card.views.get(key)
        if found is None:
            found = _melded(obj.card, obj.melded_with)
            if key[1]:
                found = _without_abilities(found)
            obj.card.views[key] = found
        return found
    key = (_slot(obj), obj.lost_abilities)
    views = obj.card.views
    found = views.get(key)
    if found is None:
        found = _compute(obj.card, key[0])
        if key[1]:
            found = _without_abilities(found)
        views[key] = found
    return found


_COPY_VIEWS: dict[tuple[FaceData, bool], Characteristics] = {}


def _copy_view(values: FaceData, lost: bool) -> Characteristics:
    key = (values, lost)
    found = _COPY_VIEWS.get(key)
    if found is None:
        found = _from_face(values, "copy")
        if lost:
            found = _without_abilities(found)
        if len(_COPY_VIEWS) > 10_000:
            _COPY_VIEWS.clear()
        _COPY_VIEWS[key] = found
    return found


def controller_view(obj: GameObject) -> Characteristics:
    """What the controller may look at (R20): a face-down object's face-up characteristics.

    For a face-up object this is simply :func:`characteristics`; opponents see
    :func:`characteristics` in both cases.
    """
    if not obj.face_down:
        return characteristics(obj)
    return characteristics(replace(obj, face_down=False, face_down_by=None, face_up="front"))


def copiable_values(obj: GameObject) -> FaceData:
    """The values a copy of this object gets (R8, R47), as a :class:`FaceData`.

    Only the face that is up is copied (R8); a copy of a back face has no mana cost, so mana
    value 0 (R3); a copy of a flipped permanent is flipped, keeping the card's color and mana
    cost (R47, R42); a copy of a face-down object is a nameless 2/2 (ward {2} for disguise and
    cloak). Effects such as losing abilities are not copied.
    """
    if obj.face_down:
        chars = characteristics(replace(obj, lost_abilities=False))
        return FaceData(name="", card_types=chars.card_types, power="2", toughness="2", oracle_text=chars.rules_text)
    if obj.copy_of is not None and obj.zone in (BATTLEFIELD, STACK):
        return obj.copy_of
    chars = characteristics(replace(obj, lost_abilities=False))
    card = obj.card
    source_face = card.faces[1] if chars.source in ("back", "flipped") else card.faces[0]
    mana_cost = chars.mana_cost or ""
    mana_value: float | int = chars.mana_value
    if chars.source == "back" and card.layout in (TRANSFORM, MELD):
        mana_cost, mana_value = "", 0  # R3: a copy of a back face has mana value 0
    return FaceData(
        name=chars.name or "",
        mana_cost=mana_cost,
        mana_value=mana_value,
        colors=chars.colors,
        supertypes=chars.supertypes,
        card_types=chars.card_types,
        subtypes=chars.subtypes,
        oracle_text=chars.rules_text,
        power=chars.power,
        toughness=chars.toughness,
        loyalty=chars.loyalty,
        defense=chars.defense,
        disguise_cost=source_face.disguise_cost,
        morph_cost=source_face.morph_cost,
        megamorph_cost=source_face.megamorph_cost,
    )
