"""Actions that change a permanent in place: transform, flip, turn face up or down, lose
abilities, tap, untap, and copies (R5-R8, R19-R23, R26-R28, R30, R35, R44, R47).

None of these is a zone change: the object stays the same permanent, keeps its tapped status
and does not "enter the battlefield" (R5, R22).
"""

from __future__ import annotations

from dataclasses import replace

from cards.rules.characteristics import copiable_values
from cards.rules.state import BATTLEFIELD, FACE_DOWN_BY, STACK, ActionResult, GameObject, where
from cards.rules.text import gettext
from cards.rules.zones import illegal, no_effect, ok

TURN_UP_VIA = ("disguise", "morph", "mana_cost", "effect")


def transform(obj: GameObject) -> ActionResult:
    """Turn a transforming DFC permanent to its other face, either way (R5).

    Nothing happens to a single-faced card or token (R7), a meld card, an MDFC (R35) or a
    face-down permanent (R30). A DFC copying something transforms but keeps the copied
    characteristics (R8); a double-faced copy token transforms like the card (R7).
    """
    card = obj.card
    if obj.zone != BATTLEFIELD:
        return no_effect(
            obj, gettext("R5: only a permanent transforms; this card is %(where)s") % {"where": where(obj.zone)}
        )
    if obj.face_down:
        return no_effect(obj, gettext("R30: a face-down permanent can't transform"))
    if card.is_mdfc:
        return no_effect(obj, gettext("R35: modal double-faced cards can't transform"))
    if not card.is_transforming:
        if obj.copy_of is not None:
            return no_effect(obj, gettext("R7: a single-faced permanent copying a double-faced card can't transform"))
        what = (
            gettext("a meld card, not a transforming double-faced card")
            if card.is_meld
            else gettext("not a double-faced card")
        )
        return no_effect(obj, gettext("R7: %(name)s is %(what)s; nothing happens") % {"name": card.name, "what": what})
    new = replace(obj, face_up="back" if obj.face_up == "front" else "front")
    return ok(new, "transformed")


def flip(obj: GameObject) -> ActionResult:
    """Flip a flip card on the battlefield (R41). It can't be undone; flipping again, or
    flipping anything that isn't a face-up flip card permanent, does nothing (R44)."""
    if not obj.card.is_flip:
        return no_effect(obj, gettext("R44: only flip cards can flip; %(name)s isn't one") % {"name": obj.card.name})
    if obj.zone != BATTLEFIELD:
        return no_effect(
            obj, gettext("R43: only a permanent flips; this card is %(where)s") % {"where": where(obj.zone)}
        )
    if obj.face_down:
        return no_effect(
            obj, gettext("R44: only flip cards can flip, and a face-down permanent has no flip-card halves")
        )
    if obj.flipped:
        return no_effect(obj, gettext("R44: flipping can't be undone, and it is already flipped"))
    return ok(replace(obj, flipped=True), "flipped")


def turn_face_up(obj: GameObject, via: str | None = None) -> ActionResult:
    """Turn a face-down permanent face up (R19, R22, R26-R28, R30).

    ``via``: ``"disguise"`` or ``"morph"`` (pay that cost; special action; not after losing
    abilities, R23), ``"mana_cost"`` (a manifested or cloaked creature card, even after losing
    abilities, R26-R27), or ``"effect"``/``None`` (an effect turns it face up, no cost).
    A face-down spell can't be turned face up (R19); an instant or sorcery card is revealed and
    stays face down (R28). A DFC turns face up front face up (R30).
    """
    if via is not None and via not in TURN_UP_VIA:
        raise ValueError(f"via is one of {', '.join(TURN_UP_VIA)}")
    if not obj.face_down:
        return illegal(obj, gettext("R19: only a face-down permanent can be turned face up, and this one is face up"))
    if obj.zone == STACK:
        return illegal(obj, gettext("R19: a face-down spell can't be turned face up"))
    if obj.zone != BATTLEFIELD:
        return illegal(
            obj,
            gettext("R19: only a face-down permanent can be turned face up; this card is %(where)s")
            % {"where": where(obj.zone)},
        )
    front = obj.card.faces[0]
    cost: str | None = None
    if via in ("disguise", "morph"):
        cost = front.disguise_cost if via == "disguise" else front.turn_up_morph_cost
        if not cost:
            return illegal(
                obj,
                gettext("R19: it has no %(via)s cost to pay (the face-down card has no %(via)s ability)")
                % {"via": via},
            )
        if obj.lost_abilities:
            return illegal(
                obj,
                gettext("R23: it lost its abilities, so it has no %(via)s ability to turn it face up with")
                % {"via": via},
            )
    if front.is_instant_or_sorcery:
        return no_effect(
            obj,
            gettext("R28: %(name)s is an instant or sorcery card: it is revealed and stays face down")
            % {"name": front.name},
            "revealed",
        )
    if via == "mana_cost":
        if obj.face_down_by not in ("manifest", "cloak"):
            return illegal(
                obj, gettext("R26: only a manifested or cloaked permanent can be turned face up for its mana cost")
            )
        if not front.is_creature:
            return illegal(
                obj,
                gettext("R26: %(name)s is not a creature card, so it can't be turned face up for its mana cost")
                % {"name": front.name},
            )
        if not front.mana_cost:
            return illegal(obj, gettext("R26: %(name)s has no mana cost to pay") % {"name": front.name})
        cost = front.mana_cost
    new = replace(obj, face_down=False, face_down_by=None, face_up="front")
    events = ["turned_face_up"]
    if cost:
        events.append(f"paid:{cost}")
    if via == "morph" and not front.morph_cost and front.megamorph_cost:
        events.append("counter:+1/+1")
    return ok(new, *events)


def turn_face_down(obj: GameObject, by: str = "effect") -> ActionResult:
    """An effect turns a permanent face down (R22). A face-up DFC can't be (R6)."""
    if by not in FACE_DOWN_BY:
        raise ValueError(f"by is one of {', '.join(FACE_DOWN_BY)}")
    if obj.zone != BATTLEFIELD:
        return no_effect(
            obj,
            gettext("R22: only a permanent can be turned face down; this card is %(where)s")
            % {"where": where(obj.zone)},
        )
    if obj.face_down:
        return no_effect(obj, gettext("R22: it is already face down"))
    if obj.card.is_dfc:
        return no_effect(obj, gettext("R6: a face-up double-faced permanent can't be turned face down"))
    return ok(replace(obj, face_down=True, face_down_by=by, face_up="front"), "turned_face_down")


def lose_abilities(obj: GameObject) -> ActionResult:
    """An effect makes the permanent lose all abilities (R23, R27)."""
    if obj.zone != BATTLEFIELD:
        return no_effect(
            obj,
            gettext("R23: only a permanent loses its abilities here; this card is %(where)s")
            % {"where": where(obj.zone)},
        )
    if obj.lost_abilities:
        return no_effect(obj, gettext("R23: it has already lost its abilities"))
    return ok(replace(obj, lost_abilities=True), "lost_abilities")


def tap(obj: GameObject) -> ActionResult:
    """Tap a permanent. Turning it face up or down, transforming or flipping never changes
    this (R22)."""
    if obj.zone != BATTLEFIELD:
        return illegal(
            obj, gettext("R22: only a permanent can be tapped; this card is %(where)s") % {"where": where(obj.zone)}
        )
    if obj.tapped:
        return no_effect(obj, gettext("R22: it is already tapped"))
    return ok(replace(obj, tapped=True), "tapped")


def untap(obj: GameObject) -> ActionResult:
    """Untap a permanent (R22)."""
    if obj.zone != BATTLEFIELD:
        return illegal(
            obj, gettext("R22: only a permanent can be untapped; this card is %(where)s") % {"where": where(obj.zone)}
        )
    if not obj.tapped:
        return no_effect(obj, gettext("R22: it is already untapped"))
    return ok(replace(obj, tapped=False), "untapped")


def create_token_copy(source: GameObject) -> ActionResult:
    """A token created as a copy of ``source``, on the battlefield (R7, R8, R47).

    A copy of a face-up DFC is a double-faced token: it has both faces, enters with the face the
    original shows and can transform (R7). Any other copy gets the copiable values (R8, R47).
    """
    card = source.card
    if card.is_dfc and not source.face_down and source.copy_of is None:
        token = GameObject(card=card, zone=BATTLEFIELD, face_up=source.face_up, is_token_copy=True)
    elif source.face_down or source.flipped or source.copy_of is not None:
        token = GameObject(card=card, zone=BATTLEFIELD, is_token_copy=True, copy_of=copiable_values(source))
    else:
        token = GameObject(card=card, zone=BATTLEFIELD, is_token_copy=True)
    return ok(token, "token_created", "enters_battlefield")


def become_copy(obj: GameObject, source: GameObject) -> ActionResult:
    """``obj`` becomes a copy of ``source`` (a Clone-like effect): it takes the copiable values
    of the face ``source`` shows (R8, R47) and keeps its own status and faces (R8)."""
    if obj.zone not in (BATTLEFIELD, STACK):
        return no_effect(
            obj,
            gettext("R8: only a spell or permanent can become a copy; this card is %(where)s")
            % {"where": where(obj.zone)},
        )
    return ok(replace(obj, copy_of=copiable_values(source)), "became_copy")
