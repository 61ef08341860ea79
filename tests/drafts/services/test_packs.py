"""Packs from real collation (the bundled MTGJSON booster sheets): Innistrad's DFC slot and
checklist card, Zendikar Rising's modal DFCs in ordinary slots, weights, reproducibility."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cards.models import Card, CardSet, Printing
from drafts.services.packs import SetPacks
from events.access import SYSTEM

pytestmark = pytest.mark.django_db

PACKS = 1500


@pytest.fixture
def isd():
    assert CardSet.objects.filter(code="ISD", booster__isnull=False).exists(), "seed catalogue missing"
    return SetPacks("ISD")


def rarity_of(card_ids):
    return dict(
        Printing.objects.filter(card_id__in=card_ids, card_set__code__in=["ISD", "ZNR"]).values_list(
            "card_id", "rarity"
        )
    )


def test_innistrad_packs_have_one_dfc_slot_and_the_checklist_in_the_land_slot(isd):
    rng = random.Random(5)
    for _ in range(300):
        pack = isd.open(rng)
        assert len(pack.cards) == 14  # 15 opened, the checklist card is not drafted
        assert pack.removed == [{"kind": "checklist", "checklist_id": isd.checklist.pk, "name": "Innistrad Checklist"}]
        dfcs = [c for c in pack.cards if c.is_dfc]
        non_foil_dfcs = [c for c in dfcs if not c.foil]
        assert len(non_foil_dfcs) == 1  # the DFC slot; a foil may add another


def test_innistrad_dfc_slot_follows_the_sheet_weights(isd):
    """The DFC sheet has 121 slots: mythic x1, each rare x2, each uncommon x6, each common x11."""
    rng = random.Random(11)
    slot = [next(c for c in isd.open(rng).cards if c.is_dfc and not c.foil) for _ in range(PACKS)]
    rarities = Counter(c.rarity for c in slot)
    expected = {"common": 66 / 121, "uncommon": 42 / 121, "rare": 12 / 121, "mythic": 1 / 121}
    for rarity, share in expected.items():
        assert abs(rarities[rarity] / PACKS - share) < 0.035, (rarity, rarities)


def test_packs_are_reproducible_from_the_seed(isd):
    first = [isd.open(random.Random(99)).cards for _ in range(3)]
    again = [isd.open(random.Random(99)).cards for _ in range(3)]
    assert first == again
    assert isd.open(random.Random(1)).cards != isd.open(random.Random(2)).cards


def test_zendikar_rising_has_modal_dfcs_in_ordinary_slots():
    znr = SetPacks("ZNR")
    rng = random.Random(3)
    packs = [znr.open(rng) for _ in range(300)]
    for pack in packs:
        assert pack.removed and pack.removed[0]["kind"] == "basic_land"  # no checklist in ZNR
        assert sum(1 for c in pack.cards if c.is_dfc and not c.foil) == 1
        assert len(pack.cards) == 14
    layouts = Counter(Card.objects.get(pk=c.card_id).layout for p in packs[:20] for c in p.cards if c.is_dfc)
    assert set(layouts) == {"modal_dfc"}


def test_a_started_innistrad_pod_keeps_the_checklists_for_r17(django_user_model):
    from drafts import services
    from drafts.models import DraftCard, Pack
    from events import services as event_services

    event = services.create_event(name="ISD", date="2026-11-29", set_codes=["ISD"])
    regs = [event_services.register_player(event_id=event.pk, name=f"P{i}", actor=SYSTEM) for i in range(8)]
    (pod,) = services.seat_players(event_id=event.pk, seed=4, pods=[[r.pk for r in regs]], actor=SYSTEM)
    services.start_pod(pod_id=pod.pk, actor=SYSTEM)
    packs = Pack.objects.filter(pod=pod)
    assert packs.count() == 24
    assert all(p.initial_size == 14 and p.removed[0]["kind"] == "checklist" for p in packs)
    assert DraftCard.objects.filter(pod=pod).count() == 24 * 14
    assert DraftCard.objects.filter(pod=pod, is_dfc=True).count() >= 24
