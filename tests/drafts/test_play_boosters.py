"""Booster kinds over the real catalogue: 10,000 seeded packs per kind, each slot's rarity, foil
and card-type frequencies against the published rates (each test names the rate it checks),
within five standard errors of the sampling (a real error of a few points fails; chance alone
fails about once in 1.7 million checks).

- Play Boosters of DSK and MKM from the project's published-rates data (drafts/collations),
  over the cards the catalogue has from the Cockatrice files;
- an MTGJSON kind other than ``default``: Zendikar Rising's MTG Arena booster.
"""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from cards.models import Card
from cards.services import BUNDLED_DATA_DIR, import_card_file
from drafts import error_codes
from drafts.services.packs import MTGJSON, PUBLISHED, RARITY, SetPacks, booster_kinds
from draftsite.errors import DomainError

pytestmark = pytest.mark.django_db

PACKS = 10_000


def assert_rate(hits: int, trials: int, rate: float, what: str) -> None:
    """``hits`` of ``trials`` is ``rate`` within 5 standard errors of a binomial sample."""
    error = 5 * math.sqrt(rate * (1 - rate) / trials) if 0 < rate < 1 else 0
    assert abs(hits / trials - rate) <= error, f"{what}: {hits}/{trials} = {hits / trials:.4f}, published {rate:.4f}"


def open_many(packs: SetPacks, seed: int = 2024, count: int = PACKS):
    rng = random.Random(seed)
    return [packs.open(rng) for _ in range(count)]


def card_facts(packs: list) -> dict[int, tuple[set[str], set[str], str]]:
    ids = {c.card_id for p in packs for c in p.cards}
    facts: dict[int, tuple[set[str], set[str], str]] = {}
    for card in Card.objects.filter(pk__in=ids).prefetch_related("faces"):
        face = min(card.faces.all(), key=lambda f: f.position)
        facts[card.pk] = (set(face.card_types or ()), set(face.supertypes or ()), card.name)
    return facts


def by_slot(pack, slot: str) -> list:
    return [c for c in pack.cards if c.slot == slot]


@pytest.fixture(scope="module")
def dsk_packs(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        packs = open_many(SetPacks("DSK"))
        return packs, card_facts(packs)


@pytest.fixture
def mkm(db):
    import_card_file(BUNDLED_DATA_DIR / "cockatrice/MKM.xml.gz")  # not in the seed catalogue


def test_a_2024_set_opens_play_boosters_by_default_from_the_published_rates():
    kinds = booster_kinds("DSK")
    assert kinds.default == "play" and [k.name for k in kinds.kinds] == ["play"]
    assert kinds.kinds[0].collation == PUBLISHED
    assert "collecting-duskmourn" in kinds.kinds[0].source
    assert SetPacks("DSK").kind.name == "play"


def test_booster_kinds_of_mtgjson_and_plain_sets():
    znr = booster_kinds("ZNR")
    assert znr.default == "default"  # the draft booster; the Arena booster is never the default
    assert {k.name: k.collation for k in znr.kinds} == {"default": MTGJSON, "arena": MTGJSON}
    assert booster_kinds("znr").get("draft").name == "default"  # MTGJSON's newer name for it
    chk = booster_kinds("CHK")  # Scryfall data: no booster sheets in the seed catalogue
    assert chk.default == "draft" and chk.kinds[0].collation == RARITY


def test_an_unknown_kind_is_refused_with_a_stable_code():
    with pytest.raises(DomainError) as refused:
        SetPacks("DSK", "collector")
    assert refused.value.code == error_codes.UNKNOWN_BOOSTER_KIND
    assert refused.value.extra["kinds"] == ["play"]
    with pytest.raises(DomainError) as unknown:
        booster_kinds("XXX")
    assert unknown.value.code == error_codes.UNKNOWN_SET


def test_dsk_play_booster_shape(dsk_packs):
    packs, facts = dsk_packs
    for pack in packs:
        assert len(pack.cards) == 14 and pack.removed == []  # all 14 cards are drafted
        slots = Counter(c.slot for c in pack.cards)
        assert slots == {"land": 1, "common": 7, "uncommon": 3, "rare_mythic": 1, "wildcard": 1, "foil": 1}
        assert {c.rarity for c in by_slot(pack, "common")} == {"common"}
        assert {c.rarity for c in by_slot(pack, "uncommon")} == {"uncommon"}
        assert len({c.card_id for c in pack.cards if c.slot in ("common", "uncommon")}) == 10  # no repeats


def test_dsk_land_slot(dsk_packs):
    """DSK land slot: traditional foil 1 in 5 (20%); a common dual land or a basic land, 1:1."""
    packs, facts = dsk_packs
    lands = [by_slot(p, "land")[0] for p in packs]
    assert_rate(sum(c.foil for c in lands), PACKS, 1 / 5, "DSK foil land 1 in 5")
    assert all("Land" in facts[c.card_id][0] for c in lands)
    basics = sum("Basic" in facts[c.card_id][1] for c in lands)
    assert_rate(basics, PACKS, 1 / 2, "DSK basic land 1 in 2 of the land slot")
    assert not any(facts[c.card_id][2] == "Terramorphic Expanse" for c in lands)


def test_dsk_common_slots(dsk_packs):
    """DSK commons: no land but Terramorphic Expanse; a Special Guest replaces the seventh common
    in 1 in 64 packs, and the catalogue has no Special Guests: a common stands in (the data's
    fallback), so every pack holds seven commons."""
    packs, facts = dsk_packs
    commons = [c for p in packs for c in by_slot(p, "common")]
    assert len(commons) == 7 * PACKS
    lands = {facts[c.card_id][2] for c in commons if "Land" in facts[c.card_id][0]}
    assert lands == {"Terramorphic Expanse"}
    assert not any(by_slot(p, "special_guest") for p in packs)
    # The card, not its frame: every common of the sheet equally likely (81 non-land commons
    # and Terramorphic Expanse: each about 7/82 per pack).
    per_card = Counter(c.card_id for c in commons)
    share = 7 / len(per_card)
    for card_id in list(per_card)[:10]:
        assert_rate(per_card[card_id], PACKS, share, f"DSK common {facts[card_id][2]} 1 in {len(per_card)}")


def test_dsk_rare_slot(dsk_packs):
    """DSK rare or mythic rare slot: rare:mythic 6:1 (mythic 1 in 7)."""
    packs, _ = dsk_packs
    rares = [by_slot(p, "rare_mythic")[0] for p in packs]
    assert {c.rarity for c in rares} == {"rare", "mythic"}
    assert_rate(sum(c.rarity == "mythic" for c in rares), PACKS, 1 / 7, "DSK rare:mythic 6:1")
    assert not any(c.foil for c in rares)


def test_dsk_wildcard(dsk_packs):
    """DSK non-foil wildcard: common 70%, uncommon 17.5%, rare or mythic 12.5% (mythic 1/7 of
    that: 1.79%)."""
    packs, _ = dsk_packs
    wild = Counter(by_slot(p, "wildcard")[0].rarity for p in packs)
    assert_rate(wild["common"], PACKS, 0.70, "DSK wildcard common 70%")
    assert_rate(wild["uncommon"], PACKS, 0.175, "DSK wildcard uncommon 17.5%")
    assert_rate(wild["rare"] + wild["mythic"], PACKS, 0.125, "DSK wildcard rare or mythic 12.5%")
    assert_rate(wild["mythic"], PACKS, 0.125 / 7, "DSK wildcard mythic 12.5% x 1/7")
    assert not any(c.foil for p in packs for c in by_slot(p, "wildcard"))


def test_dsk_traditional_foil(dsk_packs):
    """DSK traditional foil: common 12, uncommon 5, rare or mythic 3 in 20 (60%, 25%, 15%)."""
    packs, _ = dsk_packs
    foils = [by_slot(p, "foil")[0] for p in packs]
    assert all(c.foil for c in foils)
    rarities = Counter(c.rarity for c in foils)
    assert_rate(rarities["common"], PACKS, 12 / 20, "DSK foil common 12/20")
    assert_rate(rarities["uncommon"], PACKS, 5 / 20, "DSK foil uncommon 5/20")
    assert_rate(rarities["rare"] + rarities["mythic"], PACKS, 3 / 20, "DSK foil rare or mythic 3/20")


def test_mkm_play_booster(mkm):
    """MKM: basic land slot, traditional foil 1 in 5 (4:1); seven commons, the seventh a List
    card or Special Guest 1 in 8 (neither in the catalogue: a common stands in); rare:mythic
    120:20 (mythic 1 in 7) and no rare dual land in the rare slot; wildcard a rare dual land 1 in
    6, else common 12 : uncommon 5 : rare or mythic 3; the foil slot the same cards and rates."""
    kinds = booster_kinds("MKM")
    assert kinds.default == "play" and kinds.kinds[0].collation == PUBLISHED
    opener = SetPacks("MKM")
    assert opener.collation.fallbacks == {"list_reprint": "common", "special_guest": "common"}
    packs = open_many(opener, seed=7)
    facts = card_facts(packs)
    for pack in packs:
        assert len(pack.cards) == 14 and pack.removed == []
        assert Counter(c.slot for c in pack.cards) == {
            "land": 1,
            "common": 7,
            "uncommon": 3,
            "rare_mythic": 1,
            "wildcard": 1,
            "foil": 1,
        }
    lands = [by_slot(p, "land")[0] for p in packs]
    assert all("Basic" in facts[c.card_id][1] for c in lands)
    assert_rate(sum(c.foil for c in lands), PACKS, 1 / 5, "MKM foil basic land 1 in 5")
    commons = [c for p in packs for c in by_slot(p, "common")]
    assert {c.rarity for c in commons} == {"common"}
    assert not any("Basic" in facts[c.card_id][1] for c in commons)

    rares = [by_slot(p, "rare_mythic")[0] for p in packs]
    assert_rate(sum(c.rarity == "mythic" for c in rares), PACKS, 20 / 140, "MKM rare:mythic 120:20")
    assert not any("Land" in facts[c.card_id][0] for c in rares)

    for slot, foil in (("wildcard", False), ("foil", True)):
        cards = [by_slot(p, slot)[0] for p in packs]
        assert all(c.foil is foil for c in cards)
        rare_lands = sum(c.rarity == "rare" and "Land" in facts[c.card_id][0] for c in cards)
        rarities = Counter(c.rarity for c in cards)
        assert_rate(rare_lands, PACKS, 1 / 6, f"MKM {slot}: rare dual land 1 in 6")
        assert_rate(rarities["common"], PACKS, 5 / 6 * 12 / 20, f"MKM {slot}: common 5/6 x 12/20")
        assert_rate(rarities["uncommon"], PACKS, 5 / 6 * 5 / 20, f"MKM {slot}: uncommon 5/6 x 5/20")
        assert_rate(rarities["mythic"], PACKS, 5 / 6 * 3 / 20 / 7, f"MKM {slot}: mythic 5/6 x 3/20 x 1/7")


def test_zendikar_rising_arena_booster_from_mtgjson():
    """ZNR's MTGJSON ``arena`` kind, honoured exactly: no basic land and no foil; ten commons,
    a modal DFC rare or mythic in 27 of 148 packs (18.2%), otherwise a modal DFC uncommon with
    a single-faced rare or mythic; the rare sheet's mythic share as its weights say."""
    opener = SetPacks("ZNR", "arena")
    assert opener.kind.name == "arena" and opener.kind.collation == MTGJSON
    packs = open_many(opener, seed=3)
    mdfc_rare = 0
    for pack in packs:
        assert len(pack.cards) == 14 and pack.removed == []
        assert not any(c.foil for c in pack.cards) and not by_slot(pack, "foil") and not by_slot(pack, "land")
        slots = Counter(c.slot for c in pack.cards)
        assert slots["common"] == 10 and slots["rare_mythic"] == 1 and slots["uncommon"] == 3
        rare = by_slot(pack, "rare_mythic")[0]
        mdfc_rare += rare.is_dfc
        assert sum(c.is_dfc for c in pack.cards if c.slot == "uncommon") == (0 if rare.is_dfc else 1)
    assert_rate(mdfc_rare, PACKS, 27 / 148, "ZNR arena: modal DFC rare or mythic 27/148")


def test_the_draft_kind_still_removes_the_basic_land_and_records_slots():
    pack = SetPacks("ZNR").open(random.Random(1))
    assert pack.removed[0]["kind"] == "basic_land" and len(pack.cards) == 14
    assert {c.slot for c in pack.cards} <= {"common", "uncommon", "rare_mythic", "foil"}
