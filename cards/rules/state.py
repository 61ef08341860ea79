"""Game objects: a card plus its state (zone, face up or down, flipped, tapped, ...).

:class:`GameObject` is immutable; every action in :mod:`cards.rules.actions` returns a new one
inside an :class:`ActionResult`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cards.rules.data import CardData, FaceData
from cards.rules.text import gettext

LIBRARY = "library"
HAND = "hand"
STACK = "stack"
BATTLEFIELD = "battlefield"
GRAVEYARD = "graveyard"
EXILE = "exile"
COMMAND = "command"
ZONES = (LIBRARY, HAND, STACK, BATTLEFIELD, GRAVEYARD, EXILE, COMMAND)
#: Zones where a card's current face matters (R2, R34, R36); everywhere else only the front.
IN_PLAY = frozenset({STACK, BATTLEFIELD})
HIDDEN_ZONES = frozenset({LIBRARY, HAND})

#: What turned an object face down (R25: this must stay clear on the table). "effect" is any
#: other effect that turns a permanent face down (Ixidron style).
FACE_DOWN_BY = ("disguise", "morph", "manifest", "cloak", "effect")
#: Face-down objects with ward {2} (R18, R31); manifest and morph give none (R26).
WARD_FACE_DOWN = frozenset({"disguise", "cloak"})

OK = "ok"
NO_EFFECT = "no_effect"
ILLEGAL = "illegal"
OUTCOMES = (OK, NO_EFFECT, ILLEGAL)


@dataclass(frozen=True)
class GameObject:
    """One card (or copy token) in one zone, with its status.

    - ``face_up``: which face is up, ``"front"`` or ``"back"`` (a transformed DFC, an MDFC
      played as its back face, the right half/Adventure of a card cast that way).
    - ``face_down`` / ``face_down_by``: face down, and what made it so (R18, R25, R26, R31).
    - ``flipped``: a flipped flip card (R41-R45); only meaningful on the battlefield.
    - ``lost_abilities``: an effect removed its abilities (R23, R27).
    - ``is_token_copy``: a token created as a copy of this card (R7): a copy of a DFC is a
      double-faced token that can transform.
    - ``copy_of``: the copiable values this object is copying, if it is copying something
      (R8, R47); see :func:`cards.rules.characteristics.copiable_values`.
    - ``melded_with``: the other card of a melded permanent (CR 712.4, 701.42): this card and
      that one are one permanent showing their shared back face.
    - ``unlocked``: a Room permanent's unlocked doors, ``"front"`` (left) and/or ``"back"``
      (right) (CR 709.5).
    """

    card: CardData
    zone: str = HAND
    face_down: bool = False
    face_down_by: str | None = None
    face_up: str = "front"
    flipped: bool = False
    tapped: bool = False
    lost_abilities: bool = False
    is_token_copy: bool = False
    copy_of: FaceData | None = field(default=None)
    melded_with: CardData | None = None
    unlocked: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.zone not in ZONES:
            raise ValueError(f"unknown zone {self.zone!r}; one of {', '.join(ZONES)}")
        if self.face_up not in ("front", "back"):
            raise ValueError("face_up is 'front' or 'back'")
        if self.face_up == "back" and len(self.card.faces) < 2:
            raise ValueError(f"{self.card.name} has no back face")
        if self.face_down_by is not None and self.face_down_by not in FACE_DOWN_BY:
            raise ValueError(f"unknown face_down_by {self.face_down_by!r}")

    @property
    def name(self) -> str:
        """The card's full name (for people; the game's name is in its characteristics)."""
        return self.card.name


# Translatable (cards.rules.text): the web layer shows them in the reader's language.
_WHERE = {
    LIBRARY: gettext("in the library"),
    HAND: gettext("in the hand"),
    STACK: gettext("on the stack"),
    BATTLEFIELD: gettext("on the battlefield"),
    GRAVEYARD: gettext("in the graveyard"),
    EXILE: gettext("in exile"),
    COMMAND: gettext("in the command zone"),
}


def where(zone: str) -> str:
    """``"in the hand"``, ``"on the battlefield"``, ``"in exile"``: a zone in a sentence."""
    return _WHERE.get(zone, f"in the {zone}")


def new_object(card: CardData, zone: str = HAND) -> GameObject:
    """A card in a zone, in the state every card has there: face up, front, untapped (R2, R4)."""
    return GameObject(card=card, zone=zone)


@dataclass(frozen=True)
class ActionResult:
    """What an action did: the new state, ``"ok"``/``"no_effect"``/``"illegal"``, why (a
    one-line reason citing a rule, ``None`` when ok), the events it caused and ``also``: the
    other cards it moved along with this one, each in its new zone (the partner of a melded
    permanent that left the battlefield, CR 712.4)."""

    state: GameObject
    outcome: str = OK
    reason: str | None = None
    events: tuple[str, ...] = ()
    also: tuple[GameObject, ...] = ()

    @property
    def ok(self) -> bool:
        return self.outcome == OK
