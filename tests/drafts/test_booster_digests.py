"""Booster kinds changed nothing for the sets that had MTGJSON draft boosters: the same seed
opens the same ISD, ZNR and MID packs as before (digests computed on the code before booster
kinds, commit 50f3c47) from sheets without ``balanceColors``.

The common sheets of these three sets carry ``balanceColors`` in their MTGJSON files, and the
collation honours it since (drafts.core.collation.Sheet._draw_balanced) in collation version 2:
an event pinned to version 1 (every event made before, drafts migration 0029) opens packs byte
for byte those of before; version 2 (what a new event opens) gives the digests in
``BALANCED``, computed when balancing came, so any later change shows."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from cards.models import Printing
from cards.services import BUNDLED_DATA_DIR, import_card_file
from drafts.services.packs import SetPacks
from events.boosters import COLLATION_VERSION, COLLATION_VERSION_UNBALANCED

pytestmark = pytest.mark.django_db

BEFORE = {
    "ISD": "b10921e2498718c225019fcfca33da40a4211f0851d4405b9a47084edcd62829",
    "ZNR": "82b5045fa0f7a379ce8d2d909ada41ed205cb3ccfd33369c645a846fb5979d93",
    "MID": "2457e9feaa68605d369b198313452ce4224450734e7a8145b0aa1c47ace6c236",
}

BALANCED = {
    "ISD": "7ec89d32aee129b43ca52ed2b1cb020ecdc7f3675e96bb965646c7813b7535e3",
    "ZNR": "35b3d244016601f0e0f321842488cad6abf6a6d67813844a328838f6918d14d6",
    "MID": "fda72e1d7c6fd49c4ad4e7691d47274964601725c274af98736a930dc05bc220",
}
BALANCED_SHEET = {"ISD": "sfcCommon", "ZNR": "common", "MID": "sfcCommon"}


def digest(packs: SetPacks, seed: int, count: int = 200) -> str:
    numbers = dict(Printing.objects.filter(card_set__code=packs.set_code).values_list("pk", "collector_number"))
    rng = random.Random(seed)
    h = hashlib.sha256()
    for _ in range(count):
        pack = packs.open(rng)
        entry = [[numbers.get(c.printing_id), c.rarity, c.foil, c.is_dfc] for c in pack.cards]
        h.update(json.dumps([entry, [r.get("name") for r in pack.removed]]).encode())
    return h.hexdigest()


@pytest.mark.parametrize("code", ["ISD", "ZNR", "MID"])
def test_draft_boosters_open_the_same_packs_from_the_same_seed(code):
    if code == "MID":
        import_card_file(BUNDLED_DATA_DIR / "mtgjson/MID.json.gz")  # not in the seed catalogue
    for kind in (None, "default", "draft"):  # the default kind, by its name and its alias
        packs = SetPacks(code, kind)  # the current collation version: balanceColors honoured
        assert packs.kind.name == "default"
        balanced = [sheet for sheet in packs.collation.sheets.values() if sheet.balance_colors]
        assert [s.name for s in balanced] == [BALANCED_SHEET[code]]
        assert digest(packs, 2026) == BALANCED[code]
        # Collation version 1, what every event made before balancing opens: the packs of before.
        older = SetPacks(code, kind, collation_version=COLLATION_VERSION_UNBALANCED)
        assert not [sheet for sheet in older.collation.sheets.values() if sheet.balance_colors]
        assert digest(older, 2026) == BEFORE[code]
    assert digest(SetPacks(code, None, collation_version=COLLATION_VERSION), 2026) == BALANCED[code]
