"""Actions that move a card between zones: cast, play a land, resolve, put onto the battlefield,
manifest, cloak, move, end the game (R2, R4, R18, R24, R26, R29-R37, R44).

Every action is ``f(obj, **params) -> ActionResult``. A card that changes zones becomes a new
object there: face up, front face up, unflipped, untapped, with no copy or ability-loss effect
(R4, R44) -- except a face-down spell that resolves, which stays face down (R18).
"""

from __future__ import annotations

from cards.rules.characteristics import characteristics
from cards.rules.state import (
    BATTLEFIELD,
    EXILE,
    GRAVEYARD,
    ILLEGAL,
    IN_PLAY,
    NO_EFFECT,
    OK,
    STACK,
    ZONES,
    ActionResult,
    GameObject,
    where,
)
from cards.rules.text import gettext

FACE_LABELS = ("front", "back")
FACE_DOWN_CASTS = ("disguise", "morph")


def ok(state: GameObject, *events: str) -> ActionResult:
    return ActionResult(state, OK, None, events)


def no_effect(obj: GameObject, reason: str, *events: str) -> ActionResult:
    return ActionResult(obj, NO_EFFECT, reason, events)


def illegal(obj: GameObject, reason: str) -> ActionResult:
    return ActionResult(obj, ILLEGAL, reason, ())


def leave(obj: GameObject, to: str, **state) -> tuple[GameObject, list[str]]:
    """``obj`` moved to zone ``to`` as a new object, and the events of the move.

    R24: a face-down spell or permanent that goes anywhere but the battlefield is revealed.
    R44/R4: leaving the battlefield forgets flipped, transformed, face-down and tapped status.
    """
    events: list[str] = []
    if obj.zone == BATTLEFIELD:
        events.append("left_battlefield")
    if obj.face_down and obj.zone in IN_PLAY and to != BATTLEFIELD:
        events.append("revealed")
    events.append(f"moved_to_{to}")
    if to == BATTLEFIELD:
        events.append("enters_battlefield")
    if obj.is_token_copy and obj.zone == BATTLEFIELD and to != BATTLEFIELD:
        events.append("token_ceases_to_exist")
    new = GameObject(card=obj.card, zone=to, is_token_copy=obj.is_token_copy, **state)
    return new, events


def _check_face(obj: GameObject, face: str | None) -> str:
    if face is None:
        return "front"
    if face not in FACE_LABELS:
        raise ValueError(f"face is one of {', '.join(FACE_LABELS)}")
    return face


def cast(obj: GameObject, face: str | None = None, face_down: str | None = None, disturb: bool = False) -> ActionResult:
    """Cast the card: put it on the stack with the chosen face up (R32, R34), or face down for
    {3} with disguise or morph (R18), or -- ``disturb`` -- transformed from the graveyard for its
    disturb cost (CR 702.146): the spell has its back face's characteristics, with the front
    face's mana value (R3, CR 712.8)."""
    if disturb:
        return _cast_disturbed(obj)
    label = _check_face(obj, face)
    if face_down is not None and face_down not in FACE_DOWN_CASTS:
        raise ValueError(f"face_down is one of {', '.join(FACE_DOWN_CASTS)}")
    if obj.zone in IN_PLAY:
        return illegal(
            obj, gettext("R32: only a card can be cast, and this one is already %(where)s") % {"where": where(obj.zone)}
        )
    card = obj.card
    front = card.faces[0]
    if face_down is not None:
        if label != "front":
            return illegal(
                obj, gettext("R18: a card cast face down is cast as a nameless 2/2, not as one of its faces")
            )
        cost = front.disguise_cost if face_down == "disguise" else front.turn_up_morph_cost
        if not cost:
            return illegal(
                obj,
                gettext("R18: %(name)s has no %(face_down)s ability, so it can't be cast face down for {3}")
                % {"name": front.name, "face_down": face_down},
            )
        new = GameObject(card=card, zone=STACK, face_down=True, face_down_by=face_down)
        return ok(new, "cast", "cast_face_down", "paid:{3}")
    if label == "back" and card.back is None:
        return illegal(obj, gettext("R1: %(name)s has only one face") % {"name": card.name})
    if label not in card.spell_faces:
        chosen = card.face(label)
        if chosen.is_land:
            return illegal(
                obj, gettext("R32: %(name)s is a land: it can be played as a land, not cast") % {"name": chosen.name}
            )
        if card.is_flip:
            return illegal(
                obj,
                gettext("R43: %(name)s exists only while the permanent is flipped; cast %(name2)s")
                % {"name": chosen.name, "name2": front.name},
            )
        return illegal(
            obj,
            gettext("R2: only the front face of %(name)s can be cast; %(name2)s has no mana cost")
            % {"name": card.name, "name2": chosen.name},
        )
    return ok(GameObject(card=card, zone=STACK, face_up=label), "cast")


def _cast_disturbed(obj: GameObject) -> ActionResult:
    card = obj.card
    front = card.faces[0]
    if not card.is_transforming or not front.disturb_cost:
        return illegal(obj, f"CR 702.146: {front.name} has no disturb ability, so it can't be cast transformed")
    if obj.zone != GRAVEYARD:
        return illegal(
            obj, f"CR 702.146: disturb casts the card from its owner's graveyard; this one is {where(obj.zone)}"
        )
    new = GameObject(card=card, zone=STACK, face_up="back")
    return ok(new, "cast", "cast_transformed", f"paid:{front.disturb_cost}")


def play_land(obj: GameObject, face: str | None = None) -> ActionResult:
    """Play the card as a land (no stack): only a land face can be played (R32, R33); an MDFC
    played as its back face enters back face up. Without ``face``, its land face is used."""
    card = obj.card
    if face is None:
        face = card.land_faces[0] if card.land_faces else "front"
    label = _check_face(obj, face)
    if obj.zone in IN_PLAY:
        return illegal(
            obj,
            gettext("R32: only a card can be played as a land, and this one is %(where)s") % {"where": where(obj.zone)},
        )
    if label == "back" and card.back is None:
        return illegal(obj, gettext("R1: %(name)s has only one face") % {"name": card.name})
    if label not in card.land_faces:
        chosen = card.face(label)
        if chosen.is_land:
            return illegal(
                obj,
                gettext("R2: only the front face of %(name)s can be played; %(name2)s exists only on the battlefield")
                % {"name": card.name, "name2": chosen.name},
            )
        kind = " ".join(chosen.card_types).lower() or "nonland card"
        return illegal(
            obj,
            gettext("R32: %(name)s is %(article)s %(kind)s, not a land: it can't be played as a land")
            % {"name": chosen.name, "article": _article(kind), "kind": kind},
        )
    new, events = leave(obj, BATTLEFIELD, face_up=label)
    return ok(new, "played_land", *events)


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def resolve(obj: GameObject) -> ActionResult:
    """Resolve a spell: a permanent spell enters the battlefield with the same face up (face-down
    spells stay face down, R18); an instant or sorcery goes to the graveyard; an Adventure goes
    to exile."""
    if obj.zone != STACK:
        return illegal(
            obj, gettext("R34: only a spell on the stack resolves; this card is %(where)s") % {"where": where(obj.zone)}
        )
    if obj.face_down:
        new = GameObject(
            card=obj.card,
            zone=BATTLEFIELD,
            face_down=True,
            face_down_by=obj.face_down_by,
            is_token_copy=obj.is_token_copy,
        )
        return ok(new, "resolved", "moved_to_battlefield", "enters_battlefield")
    if obj.card.is_room and obj.copy_of is None:
        # CR 709.5: the Room enters with the door that was cast unlocked, the other locked.
        new = GameObject(card=obj.card, zone=BATTLEFIELD, unlocked=(obj.face_up,), is_token_copy=obj.is_token_copy)
        return ok(
            new,
            "resolved",
            "moved_to_battlefield",
            "enters_battlefield",
            f"door_unlocked:{obj.card.face(obj.face_up).name}",
        )
    if characteristics(obj).is_permanent:
        new = GameObject(
            card=obj.card, zone=BATTLEFIELD, face_up=obj.face_up, is_token_copy=obj.is_token_copy, copy_of=obj.copy_of
        )
        return ok(new, "resolved", "moved_to_battlefield", "enters_battlefield")
    if obj.card.is_adventure and obj.face_up == "back":
        new, events = leave(obj, EXILE)
        return ok(new, "resolved", *events, "on_an_adventure")
    new, events = leave(obj, GRAVEYARD)
    return ok(new, "resolved", *events)


def put_onto_battlefield(obj: GameObject, transformed: bool = False) -> ActionResult:
    """An effect puts the card onto the battlefield: front face up (R4, R37), or back face up if
    ``transformed`` and it is a transforming DFC. An MDFC can't enter transformed (R35); a card
    whose front face is an instant or sorcery stays where it is (R37)."""
    card = obj.card
    if obj.zone == BATTLEFIELD:
        return no_effect(obj, gettext("R4: it is already on the battlefield"))
    if transformed:
        if card.is_mdfc:
            return no_effect(
                obj,
                gettext(
                    "R35: a modal double-faced card can't be put onto the battlefield transformed; it stays %(where)s"
                )
                % {"where": where(obj.zone)},
            )
        if not card.is_transforming:
            return no_effect(
                obj,
                gettext(
                    "R7: %(name)s is not a transforming double-faced card, so it can't enter transformed; it stays %(where)s"
                )
                % {"name": card.name, "where": where(obj.zone)},
            )
        new, events = leave(obj, BATTLEFIELD, face_up="back")
        return ok(new, *events, "entered_transformed")
    if obj.face_down and obj.zone == STACK:
        new = GameObject(
            card=card, zone=BATTLEFIELD, face_down=True, face_down_by=obj.face_down_by, is_token_copy=obj.is_token_copy
        )
        return ok(new, "moved_to_battlefield", "enters_battlefield")
    entering = GameObject(card=card, zone=BATTLEFIELD)
    if not characteristics(entering).is_permanent:
        front = card.faces[0]
        kind = " ".join(front.card_types).lower() or "nonpermanent"
        return no_effect(
            obj,
            gettext(
                "R37: %(name)s is %(article)s %(kind)s, which can't be put onto the battlefield; the card stays %(where)s"
            )
            % {"name": front.name, "article": _article(kind), "kind": kind, "where": where(obj.zone)},
        )
    new, events = leave(obj, BATTLEFIELD)
    return ok(new, *events)


def _manifest(obj: GameObject, by: str) -> ActionResult:
    if obj.zone in IN_PLAY:
        return illegal(
            obj,
            gettext("R26: only a card can be %(by)sed, and this one is %(where)s")
            % {"by": by, "where": where(obj.zone)},
        )
    # R6, R30: a DFC can be manifested or cloaked too; it is face down, front face "up" inside.
    new, events = leave(obj, BATTLEFIELD, face_down=True, face_down_by=by)
    return ok(new, f"{by}ed", *events)


def manifest(obj: GameObject) -> ActionResult:
    """Manifest the card (usually the top of the library): a face-down 2/2 with no ward (R26)."""
    return _manifest(obj, "manifest")


def cloak(obj: GameObject) -> ActionResult:
    """Cloak the card: manifest with ward {2} (R31)."""
    return _manifest(obj, "cloak")


def move(obj: GameObject, to: str) -> ActionResult:
    """Move the card to another zone (destroyed, bounced, exiled, countered, milled ...).

    A face-down spell or permanent leaving for any zone but the battlefield is revealed (R24)
    and is an ordinary face-up card there; the battlefield is entered as by
    :func:`put_onto_battlefield`; the stack can only be reached by casting.
    """
    if to not in ZONES:
        raise ValueError(f"to is one of {', '.join(ZONES)}")
    if to == obj.zone:
        return no_effect(obj, gettext("R2: it is already %(where)s") % {"where": where(to)})
    if to == STACK:
        return illegal(obj, gettext("R33: a card goes on the stack only by being cast (use cast)"))
    if to == BATTLEFIELD:
        return put_onto_battlefield(obj)
    extra: list[str] = []
    up = obj.card.back if obj.face_up == "back" and obj.card.back is not None else None
    if (
        to == GRAVEYARD
        and obj.zone in IN_PLAY
        and not obj.face_down
        and up is not None
        and up.exiled_instead_of_graveyard
        and obj.copy_of is None
    ):
        # Its own replacement effect (the back face of a disturb card: "If it would be put into
        # a graveyard from anywhere, exile it instead"), as a spell or as a permanent.
        to = EXILE
        extra.append("exiled_instead_of_graveyard")
    also: tuple[GameObject, ...] = ()
    if obj.melded_with is not None and obj.zone == BATTLEFIELD:
        # CR 712.4 / 701.42: a melded permanent is both cards; both go to the new zone, each as
        # a new object, front face up.
        extra.append(f"also_moved_to_{to}:{obj.melded_with.faces[0].name}")
        also = (GameObject(card=obj.melded_with, zone=to),)
    new, events = leave(obj, to)
    return ActionResult(new, OK, None, (*events, *extra), also)


def end_game(obj: GameObject) -> ActionResult:
    """The game ends: every face-down spell and permanent is revealed (R24)."""
    if obj.face_down and obj.zone in IN_PLAY:
        return ok(obj, "game_ended", "revealed")
    return ok(obj, "game_ended")
