"""Meld (Eldritch Moon): two cards on the battlefield become one permanent (CR 701.42, 712.4).

Bruna, the Fading Light and Gisela, the Broken Blade each have half of Brisela, Voice of
Nightmares on their backs. Melding exiles both and puts them onto the battlefield together as
one permanent showing that back face; its mana value is the total of the two front faces'
(:func:`cards.rules.characteristics.characteristics`). When it leaves the battlefield both cards
go to the new zone (:func:`cards.rules.zones.move`).
"""

from __future__ import annotations

from cards.rules.state import BATTLEFIELD, ActionResult, GameObject
from cards.rules.zones import illegal, no_effect, ok


def meld(obj: GameObject, partner: GameObject) -> ActionResult:
    """Meld ``obj`` with ``partner`` (both on the battlefield, a matching meld pair)."""
    card, other = obj.card, partner.card
    if not card.is_meld or not other.is_meld:
        name = card.name if not card.is_meld else other.name
        return no_effect(obj, f"CR 701.42: {name} is not a meld card; only a meld pair can meld")
    if card.melds_with != other.melds_with or card.faces[0].name == other.faces[0].name:
        return no_effect(
            obj,
            f"CR 701.42: {card.faces[0].name} and {other.faces[0].name} do not "
            "meld together (their backs are not halves of one card)",
        )
    if obj.zone != BATTLEFIELD or partner.zone != BATTLEFIELD:
        return illegal(
            obj, "CR 701.42: both cards must be on the battlefield to meld (they are exiled and return melded)"
        )
    if obj.melded_with is not None or partner.melded_with is not None:
        return no_effect(obj, "CR 701.42: a melded permanent can't meld again")
    # The card whose front is the "meld" half with the meld ability stands for the pair; which
    # one does not change any characteristic.
    melded = GameObject(card=card, zone=BATTLEFIELD, face_up="back", melded_with=other)
    return ok(melded, "exiled:" + card.faces[0].name, "exiled:" + other.faces[0].name, "melded", "enters_battlefield")
