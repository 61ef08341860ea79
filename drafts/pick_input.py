"""What a player sends to pick or move a card, declared once: the card, the pack and the pile
position, each a whole number in one range.

The no-script form (``drafts.forms.PickForm``, ``PileMoveForm``), the API's serializers
(``drafts.api.serializers.PickInput``, ``PileMoveInput``) and the seat socket's parser
(``drafts.protocol``) each bound these inputs by the ranges below, so a number one of them
refuses the others refuse too (each reads its transport's own text: a form's digits, the API's
JSON number, the socket's JSON integer). Ids are bigint (``draftsite.bounds``); the position
is bounded by the rules (R17, ``MAX_PILE_POSITION``).
"""

from __future__ import annotations

from typing import NamedTuple

from django.utils.translation import gettext

from drafts.models import MAX_PILE_POSITION
from draftsite.bounds import ID_MAX


class Range(NamedTuple):
    low: int
    high: int


CARD = Range(1, ID_MAX)  # a draft card's id
PACK = Range(1, ID_MAX)  # the pack picked from (optional: a stale one is 409 wrong_pack)
POSITION = Range(0, MAX_PILE_POSITION)  # where the card goes in the pile (optional: the end)


def invalid_pick_message() -> str:
    """What a pick whose card, pack or position is out of its range is told (the form's page
    and the socket's ``invalid_pick``)."""
    return gettext(
        "A pick names a card (a whole number), and optionally the pack and a pile position from 0 to %(max)s."
    ) % {"max": MAX_PILE_POSITION}
