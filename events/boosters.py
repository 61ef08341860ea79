"""What an event pins of the packs it opens: the booster kind of each round, named by the labels
players and organisers read, and the collation version. The draft engine opens the packs
(drafts.core.collation, drafts.services.packs); sealed opens them too, so both read these here.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

# drafts.services.packs: MTGJSON, PUBLISHED, RARITY
KIND_LABELS: dict[str, Promise] = {
    "play": gettext_lazy("Play Booster"),
    "draft": gettext_lazy("Draft Booster"),
    "default": gettext_lazy("Draft Booster"),
    "set": gettext_lazy("Set Booster"),
    "collector": gettext_lazy("Collector Booster"),
    "arena": gettext_lazy("MTG Arena booster"),
    "jumpstart": gettext_lazy("Jumpstart booster"),
}

# The collation an event opens its packs with (``Event.collation_version``), pinned when it is
# created so that its stored seed opens the same packs whatever changes after: 1 ignores
# MTGJSON ``balanceColors`` (every event made before it was honoured), 2 honours it.
COLLATION_VERSION_UNBALANCED = 1
COLLATION_VERSION = 2
COLLATION_VERSIONS = (COLLATION_VERSION_UNBALANCED, COLLATION_VERSION)
