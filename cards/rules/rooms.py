"""Rooms (Duskmourn): split cards whose halves are doors (CR 709.5).

Cast, a Room enters the battlefield with the door that was cast unlocked
(:func:`cards.rules.zones.resolve`); put onto the battlefield any other way, both doors are
locked. Its controller unlocks a locked door by paying that door's mana cost, as a special
action any time they could cast a sorcery. Only unlocked doors give the permanent its name, mana
cost, mana value and rules text; everywhere but the battlefield it is both halves at once, like
any split card.
"""

from __future__ import annotations

from cards.rules.state import BATTLEFIELD, ActionResult, GameObject
from cards.rules.zones import FACE_LABELS, illegal, no_effect, ok


def unlock(obj: GameObject, door: str = "back") -> ActionResult:
    """Unlock a door (``"front"``: the left half, ``"back"``: the right half) of a Room."""
    if door not in FACE_LABELS:
        raise ValueError(f"door is one of {', '.join(FACE_LABELS)}")
    card = obj.card
    if not card.is_room:
        return illegal(obj, f"CR 709.5: {card.name} is not a Room; only a Room's doors can be unlocked")
    if obj.zone != BATTLEFIELD or obj.face_down:
        return illegal(obj, "CR 709.5: only a Room permanent on the battlefield has doors to unlock")
    name = card.face(door).name
    if door in obj.unlocked:
        return no_effect(obj, f"CR 709.5: {name} is already unlocked")
    unlocked = tuple(d for d in FACE_LABELS if d in obj.unlocked or d == door)
    events = ["special_action", f"paid:{card.face(door).mana_cost}", f"door_unlocked:{name}"]
    if len(unlocked) == len(card.faces):
        events.append("fully_unlocked")
    new = GameObject(
        card=card,
        zone=BATTLEFIELD,
        unlocked=unlocked,
        tapped=obj.tapped,
        lost_abilities=obj.lost_abilities,
        is_token_copy=obj.is_token_copy,
    )
    return ok(new, *events)
