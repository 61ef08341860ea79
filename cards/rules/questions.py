"""Questions about a card as a whole: which names may be chosen for it (R21, R38, R46), which
faces a permission lets you play (R32, R33), its color identity (R39, R40).
"""

from __future__ import annotations

from cards.rules import colors
from cards.rules.characteristics import characteristics
from cards.rules.data import CardData, strip_reminder_text
from cards.rules.state import GameObject

#: Permissions understood by :func:`playable_faces`.
PERMISSIONS = ("cast", "play", "play_lands", "play_lands_and_cast_spells")
_ALIASES = {
    "cast_spells": "cast",
    "play_land": "play_lands",
    "play_lands_or_cast_spells": "play_lands_and_cast_spells",
    "play_lands_cast_spells": "play_lands_and_cast_spells",
}


def names_for_naming(card: CardData) -> tuple[str, ...]:
    """Every name a player may choose for this card when told to name a card: any face of a DFC
    or MDFC (R38), either half of a flip card (R46) or split card."""
    return card.face_names


def named_face(card: CardData, name: str) -> str | None:
    """Which face (``"front"``/``"back"``) a chosen name refers to, or ``None``.

    R38: if the effect then speaks of casting or playing the named card, only that face counts.
    """
    return card.face_label(name)


def share_name(a: GameObject, b: GameObject) -> bool:
    """Whether two objects have the same name now. A face-down object has no name, so it never
    shares one, not even with another face-down object (R21)."""
    name_a = characteristics(a).name
    name_b = characteristics(b).name
    return name_a is not None and name_b is not None and name_a.casefold() == name_b.casefold()


def _normalise_permission(permission: str) -> str:
    key = "_".join(permission.lower().replace("-", " ").split())
    for suffix in (
        "_from_graveyard",
        "_from_exile",
        "_from_library",
        "_from_hand",
        "_from_your_graveyard",
        "_from_the_top_of_your_library",
    ):
        if key.endswith(suffix):
            key = key[: -len(suffix)]
    key = _ALIASES.get(key, key)
    if key not in PERMISSIONS:
        raise ValueError(f"unknown permission {permission!r}; one of {', '.join(PERMISSIONS)}")
    return key


def playable_faces(card: CardData, permission: str = "play", named: str | None = None) -> tuple[str, ...]:
    """Names of the faces a permission lets you play (R32, R33).

    - ``"cast"``: only faces that are spells (Sejiri Shelter, not Sejiri Glacier);
    - ``"play_lands"``: only land faces ("play lands from your graveyard": Sejiri Glacier yes,
      Sejiri Shelter no);
    - ``"play"`` or ``"play_lands_and_cast_spells"``: either kind of face.

    A zone suffix ("play lands from graveyard") is accepted and ignored. With ``named`` (R38),
    only the face with that name counts.
    """
    key = _normalise_permission(permission)
    labels: list[str] = []
    if key in ("cast", "play", "play_lands_and_cast_spells"):
        labels.extend(card.spell_faces)
    if key in ("play_lands", "play", "play_lands_and_cast_spells"):
        labels.extend(label for label in card.land_faces if label not in labels)
    if named is not None:
        chosen = named_face(card, named)
        labels = [label for label in labels if label == chosen]
    order = {"front": 0, "back": 1}
    return tuple(card.face(label).name for label in sorted(labels, key=order.__getitem__))


def color_identity(card: CardData) -> str:
    """Commander color identity (R39): mana symbols in the mana costs and rules text of every
    face, plus color indicators and basic land types on any face. Reminder text, such as text
    about the other face, has no effect (R40). WUBRG letters in order."""
    faces = card.faces
    return colors.color_identity(
        (face.mana_cost for face in faces),
        (strip_reminder_text(face.oracle_text) for face in faces),
        (face.color_indicator for face in faces),
        [subtype for face in faces for subtype in face.subtypes],
    )
