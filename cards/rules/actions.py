"""Every action on a game object, by name, with the parameters each one takes.

Each action is ``f(obj, **params) -> ActionResult(state, outcome, reason, events)``:

- ``outcome`` is ``"ok"`` when it happened, ``"no_effect"`` when the rules say nothing happens
  (R6, R7, R28, R35, R37, R44 ...) and ``"illegal"`` when a player may not do it (R19, R23,
  R32 ...); a non-ok outcome always has a one-line ``reason`` starting with the rule ("R35: ...").
- ``state`` is the new :class:`GameObject` (the unchanged one unless ``"ok"``).

A parameter takes one of a tuple of values, a flag (``bool``) or a card (:class:`CardData`,
``CARD``: the caller turns a reference such as a name into the card, e.g. meld's ``partner``).

:func:`apply` runs one by name and checks its parameters (``InvalidAction`` otherwise).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from cards.rules.data import CardData
from cards.rules.faces import (
    TURN_UP_VIA,
    flip,
    lose_abilities,
    tap,
    transform,
    turn_face_down,
    turn_face_up,
    untap,
)
from cards.rules.meld import meld
from cards.rules.rooms import unlock
from cards.rules.state import FACE_DOWN_BY, ZONES, ActionResult, GameObject
from cards.rules.zones import (
    FACE_DOWN_CASTS,
    FACE_LABELS,
    cast,
    cloak,
    end_game,
    manifest,
    move,
    play_land,
    put_onto_battlefield,
    resolve,
)


class InvalidAction(ValueError):
    """An unknown action, an unknown parameter, or a parameter value out of range."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


#: The kind of a parameter that names another card (:class:`CardData`).
CARD = CardData


@dataclass(frozen=True)
class ActionSpec:
    """An action's function, its parameters (name -> allowed values, ``bool`` for a flag,
    ``CARD`` for a card) and a one-line description."""

    function: Callable[..., ActionResult]
    params: Mapping[str, tuple[str, ...] | type[bool] | type[CardData]]
    summary: str

    @property
    def card_params(self) -> tuple[str, ...]:
        """The parameters that name a card."""
        return tuple(name for name, allowed in self.params.items() if allowed is CARD)


ACTIONS: dict[str, ActionSpec] = {
    "cast": ActionSpec(
        cast,
        {"face": FACE_LABELS, "face_down": FACE_DOWN_CASTS, "disturb": bool},
        "Cast it (a face, face down for {3} with disguise or morph, or transformed from the graveyard with disturb).",
    ),
    "play_land": ActionSpec(play_land, {"face": FACE_LABELS}, "Play it as a land."),
    "resolve": ActionSpec(resolve, {}, "The spell resolves."),
    "put_onto_battlefield": ActionSpec(
        put_onto_battlefield, {"transformed": bool}, "An effect puts it onto the battlefield."
    ),
    "transform": ActionSpec(transform, {}, "Transform it."),
    "flip": ActionSpec(flip, {}, "Flip it."),
    "turn_face_up": ActionSpec(
        turn_face_up, {"via": TURN_UP_VIA}, "Turn it face up (disguise, morph, mana cost, or an effect)."
    ),
    "turn_face_down": ActionSpec(turn_face_down, {"by": FACE_DOWN_BY}, "An effect turns it face down."),
    "manifest": ActionSpec(manifest, {}, "Manifest it (face-down 2/2)."),
    "cloak": ActionSpec(cloak, {}, "Cloak it (face-down 2/2 with ward {2})."),
    "move": ActionSpec(move, {"to": ZONES}, "Move it to another zone."),
    "lose_abilities": ActionSpec(lose_abilities, {}, "It loses all abilities."),
    "tap": ActionSpec(tap, {}, "Tap it."),
    "untap": ActionSpec(untap, {}, "Untap it."),
    "end_game": ActionSpec(end_game, {}, "The game ends."),
    "unlock": ActionSpec(unlock, {"door": FACE_LABELS}, "Unlock a door of a Room (special action)."),
    "meld": ActionSpec(
        meld,
        {"partner": CARD, "partner_zone": ZONES},
        "Meld it with its partner card, the battlefield unless partner_zone says otherwise (CR 701.42).",
    ),
}

REQUIRED_PARAMS = {"move": ("to",), "meld": ("partner",)}


def check_params(
    action: str,
    params: Mapping[str, object],
    find_card: Callable[[str, object], CardData] | None = None,
) -> dict[str, object]:
    """Validated keyword arguments for ``action`` (``InvalidAction`` on anything unknown).

    A card parameter may be a reference (a name, an id) when ``find_card(name, value)`` turns
    it into the card; it is called last, once every other parameter is known to be good.
    """
    spec = ACTIONS.get(action)
    if spec is None:
        raise InvalidAction(f"unknown action {action!r}; one of {', '.join(ACTIONS)}", "action")
    clean: dict[str, object] = {}
    cards: dict[str, object] = {}
    for name, value in params.items():
        allowed = spec.params.get(name)
        if allowed is None:
            known = ", ".join(spec.params) or "none"
            raise InvalidAction(f"{action} takes no parameter {name!r} (parameters: {known})", name)
        if value is None:
            continue
        if allowed is CARD:
            cards[name] = value
        elif allowed is bool:
            if not isinstance(value, bool):
                raise InvalidAction(f"{action}: {name} must be true or false", name)
            clean[name] = value
        elif isinstance(allowed, tuple):
            if value not in allowed:
                raise InvalidAction(f"{action}: {name} must be one of {', '.join(allowed)}", name)
            clean[name] = value
    for name in REQUIRED_PARAMS.get(action, ()):
        if name not in clean and name not in cards:
            raise InvalidAction(f"{action} needs {name!r}", name)
    for name, value in cards.items():
        if find_card is not None and not isinstance(value, CardData):
            value = find_card(name, value)
        if not isinstance(value, CardData):
            raise InvalidAction(f"{action}: {name} must be a card", name)
        clean[name] = value
    return clean


def apply(obj: GameObject, action: str, **params: object) -> ActionResult:
    """Run the named action on ``obj`` after checking its parameters."""
    clean = check_params(action, params)
    return ACTIONS[action].function(obj, **clean)


def run(obj: GameObject, steps: list[tuple[str, Mapping[str, object]]]) -> list[ActionResult]:
    """Run actions in order; each applies to the state the previous one left (an illegal or
    no-effect step leaves it unchanged)."""
    results = []
    for action, params in steps:
        result = apply(obj, action, **params)
        results.append(result)
        obj = result.state
    return results
