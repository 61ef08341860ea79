"""What players and organisers read for collations and pack slots (the codes
come from drafts.core.collation and drafts.services.packs; selectors and pages label them)."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from drafts.core import collation

# The booster kinds' labels are the event's (events.boosters.KIND_LABELS).
COLLATION_LABELS: dict[str, Promise] = {
    "mtgjson": gettext_lazy("the set's MTGJSON booster sheets"),
    "published": gettext_lazy("the slots and rates Wizards of the Coast published"),
    "rarity": gettext_lazy("plain rarity collation (no booster data for this set)"),
}
SLOT_LABELS: dict[str, Promise] = {
    collation.RARE_MYTHIC: gettext_lazy("Rare or mythic"),
    collation.UNCOMMON: gettext_lazy("Uncommon"),
    collation.COMMON: gettext_lazy("Common"),
    collation.DFC: gettext_lazy("Double-faced card"),
    collation.LAND: gettext_lazy("Land"),
    collation.WILDCARD: gettext_lazy("Wildcard"),
    collation.FOIL: gettext_lazy("Traditional foil"),
    collation.SPECIAL_GUEST: gettext_lazy("Special Guest"),
    collation.THE_LIST: gettext_lazy("The List"),
}


def slot_label(code: str) -> str:
    """What a player reads for a slot code (an unusual MTGJSON sheet shows its own name)."""
    label = SLOT_LABELS.get(code)
    return str(label) if label is not None else code.replace("_", " ")
