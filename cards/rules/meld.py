"""Meld (Eldritch Moon): two cards on the battlefield become one permanent (CR 701.42, 712.4).

Bruna, the Fading Light and Gisela, the Broken Blade each have half of Brisela, Voice of
Nightmares on their backs. Melding exiles both and puts them onto the battlefield together as
one permanent showing that back face; its mana value is the total of the two front faces'
(:func:`cards.rules.characteristics.characteristics`). When it leaves the battlefield both cards
go to the new zone (:func:`cards.rules.zones.move`).

The rules desk follows one object; the partner is a card (:class:`CardData`) in a zone, the
battlefield unless told otherwise. The desk has one player, who owns and controls both cards,
as the meld ability requires.
"""

from __future__ import annotations

from cards.rules.data import CardData
from cards.rules.state import BATTLEFIELD, ZONES, ActionResult, GameObject, where
from cards.rules.text import gettext
from cards.rules.zones import illegal, no_effect, ok


def meld(obj: GameObject, partner: GameObject | CardData, partner_zone: str | None = None) -> ActionResult:
    """Meld ``obj`` with ``partner`` (both on the battlefield, the two cards of one meld pair).

    ``partner`` is the other object, or a card standing in ``partner_zone`` (default: the
    battlefield). Cards that can't be melded stay where they are (CR 701.42: ``no_effect``);
    a pair that is not on the battlefield can't be melded by a player (``illegal``).
    """
    if isinstance(partner, CardData):
        zone = partner_zone or BATTLEFIELD
        if zone not in ZONES:
            raise ValueError(f"partner_zone is one of {', '.join(ZONES)}")
        partner = GameObject(card=partner, zone=zone)
    card, other = obj.card, partner.card
    if not card.is_meld or not other.is_meld:
        name = (card if not card.is_meld else other).faces[0].name
        return no_effect(
            obj, gettext("CR 701.42: %(name)s is not a meld card; only a meld pair can meld") % {"name": name}
        )
    if card.faces[0].name == other.faces[0].name:
        return no_effect(
            obj,
            gettext("CR 701.42: a meld pair is two different cards; %(name)s can't meld with another %(name)s")
            % {"name": card.faces[0].name},
        )
    if card.melds_with != other.melds_with:
        return no_effect(
            obj,
            gettext("CR 701.42: %(name)s and %(partner)s do not meld together (their backs are not halves of one card)")
            % {"name": card.faces[0].name, "partner": other.faces[0].name},
        )
    if obj.is_token_copy:
        return no_effect(obj, gettext("CR 701.42: a token can't meld, even a copy of a meld card"))
    if obj.zone != BATTLEFIELD or partner.zone != BATTLEFIELD:
        away = obj if obj.zone != BATTLEFIELD else partner
        return illegal(
            obj,
            gettext(
                "CR 701.42: both cards must be on the battlefield to meld (they are exiled and return melded); "
                "%(name)s is %(where)s"
            )
            % {"name": away.card.faces[0].name, "where": where(away.zone)},
        )
    if obj.melded_with is not None or partner.melded_with is not None:
        return no_effect(obj, gettext("CR 701.42: a melded permanent can't meld again"))
    if obj.face_down or partner.face_down:
        return no_effect(
            obj, gettext("CR 701.42: a face-down permanent has no name, so it is not the meld card it hides")
        )
    # The card whose front is the "meld" half with the meld ability stands for the pair; which
    # one does not change any characteristic. Exiled and back, it is a new untapped object.
    melded = GameObject(card=card, zone=BATTLEFIELD, face_up="back", melded_with=other)
    return ok(melded, "exiled:" + card.faces[0].name, "exiled:" + other.faces[0].name, "melded", "enters_battlefield")
