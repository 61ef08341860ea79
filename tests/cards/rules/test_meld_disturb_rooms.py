"""Meld, disturb and Rooms on the real shipped cards (Eldritch Moon, Innistrad: Midnight Hunt,
Duskmourn), rule by rule. RULES.md's DFC rules (R1-R4, R34, R36) apply to them; what is specific
is cited from the Comprehensive Rules: meld CR 701.42 / 712.4 / 712.8, disturb CR 702.146,
Rooms CR 709.5."""

import pytest

from cards.rules import ACTIONS, GameObject, InvalidAction, apply, characteristics, meld
from tests.cards.rules.cases import A, Case, check_case
from tests.cards.rules.shipped import card

BRUNA = card("EMN", "Bruna, the Fading Light")
GISELA = card("EMN", "Gisela, the Broken Blade")
GRAF_RATS = card("EMN", "Graf Rats")
SCAVENGERS = card("EMN", "Midnight Scavengers")
BEGGAR = card("MID", "Beloved Beggar")
ANGLER = card("MID", "Baithook Angler")
POOL = card("DSK", "Bottomless Pool")
GLASSWORKS = card("DSK", "Glassworks")


def on_battlefield(c):
    return GameObject(card=c, zone="battlefield")


def melded(a, b):
    return lambda obj: meld(on_battlefield(a), on_battlefield(b))


BRISELA = {
    "name": "Brisela, Voice of Nightmares",
    "mana_cost": None,
    "power": "9",
    "toughness": "10",
    "subtypes": ("Eldrazi", "Angel"),
    "source": "melded",
}

CASES = [
    # -- meld (Eldritch Moon) ---------------------------------------------------------------------
    Case(
        "CR 701.42",
        "Bruna and Gisela meld into Brisela, mana value 7 + 4 = 11 (CR 712.8, R1)",
        BRUNA,
        "battlefield",
        [melded(BRUNA, GISELA)],
        events=("melded",),
        chars={**BRISELA, "mana_value": 11},
    ),
    Case(
        "CR 701.42",
        "the pair melds the same whichever card melds (Gisela with Bruna)",
        GISELA,
        "battlefield",
        [melded(GISELA, BRUNA)],
        chars={**BRISELA, "mana_value": 11},
    ),
    Case(
        "CR 701.42",
        "Graf Rats and Midnight Scavengers: Chittering Host, mana value 2 + 5 = 7",
        GRAF_RATS,
        "battlefield",
        [melded(GRAF_RATS, SCAVENGERS)],
        chars={"name": "Chittering Host", "mana_value": 7, "power": "5", "toughness": "6"},
    ),
    Case(
        "CR 701.42",
        "cards of two different meld pairs do not meld",
        BRUNA,
        "battlefield",
        [lambda obj: meld(on_battlefield(BRUNA), on_battlefield(GRAF_RATS))],
        outcome="no_effect",
    ),
    Case(
        "CR 701.42",
        "a meld card in the hand can't meld",
        BRUNA,
        "hand",
        [lambda obj: meld(obj, on_battlefield(GISELA))],
        outcome="illegal",
    ),
    Case(
        "CR 712.4",
        "a melded permanent leaving the battlefield takes both cards, front face up (R2)",
        BRUNA,
        "battlefield",
        [melded(BRUNA, GISELA), A("move", to="graveyard")],
        events=("left_battlefield", "moved_to_graveyard", "also_moved_to_graveyard:Gisela, the Broken Blade"),
        state={"melded_with": None, "face_up": "front"},
        chars={"name": "Bruna, the Fading Light", "mana_value": 7},
    ),
    Case(
        "R7",
        "a melded permanent is not a transforming DFC: it can't transform",
        BRUNA,
        "battlefield",
        [melded(BRUNA, GISELA), A("transform")],
        outcome="no_effect",
    ),
    # -- meld as an action, the partner a card named by the caller (the rules desk) ----------------
    Case(
        "CR 701.42",
        "the meld action: Bruna melds with Gisela on the battlefield into Brisela, MV 11",
        BRUNA,
        "battlefield",
        [A("meld", partner=GISELA)],
        events=("exiled:Bruna, the Fading Light", "exiled:Gisela, the Broken Blade", "melded", "enters_battlefield"),
        state={"zone": "battlefield", "face_up": "back", "melded_with": GISELA, "tapped": False},
        chars={**BRISELA, "mana_value": 11},
    ),
    Case(
        "CR 701.42",
        "cast and resolved, Gisela melds with Bruna: one permanent, MV 4 + 7 = 11",
        GISELA,
        "hand",
        [A("cast"), A("resolve"), A("meld", partner=BRUNA, partner_zone="battlefield")],
        state={"melded_with": BRUNA},
        chars={**BRISELA, "mana_value": 11},
    ),
    Case(
        "CR 701.42",
        "a tapped pair melds into an untapped permanent (exiled and back, a new object)",
        BRUNA,
        "battlefield",
        [A("tap"), A("meld", partner=GISELA)],
        state={"tapped": False, "melded_with": GISELA},
    ),
    Case(
        "CR 701.42",
        "a meld card without its partner on the battlefield can't meld",
        BRUNA,
        "battlefield",
        [A("meld", partner=GISELA, partner_zone="graveyard")],
        outcome="illegal",
        reason="CR 701.42: both cards must be on the battlefield",
    ),
    Case(
        "CR 701.42",
        "a meld card in the hand can't meld through the action either",
        BRUNA,
        "hand",
        [A("meld", partner=GISELA)],
        outcome="illegal",
    ),
    Case(
        "CR 701.42",
        "two cards of different meld pairs are refused, naming both",
        BRUNA,
        "battlefield",
        [A("meld", partner=SCAVENGERS)],
        outcome="no_effect",
        reason="CR 701.42: Bruna, the Fading Light and Midnight Scavengers do not meld together",
    ),
    Case(
        "CR 701.42",
        "a meld card with a card that is not a meld card is refused",
        BRUNA,
        "battlefield",
        [A("meld", partner=BEGGAR)],
        outcome="no_effect",
        reason="CR 701.42: Beloved Beggar is not a meld card",
    ),
    Case(
        "CR 701.42",
        "a card that is not a meld card can't meld with a meld card",
        BEGGAR,
        "battlefield",
        [A("meld", partner=GISELA)],
        outcome="no_effect",
        reason="CR 701.42: Beloved Beggar is not a meld card",
    ),
    Case(
        "CR 701.42",
        "two Brunas are not a meld pair",
        BRUNA,
        "battlefield",
        [A("meld", partner=BRUNA)],
        outcome="no_effect",
        reason="CR 701.42: a meld pair is two different cards",
    ),
    Case(
        "CR 701.42",
        "a melded permanent can't meld again",
        BRUNA,
        "battlefield",
        [A("meld", partner=GISELA), A("meld", partner=GISELA)],
        outcome="no_effect",
        reason="CR 701.42: a melded permanent can't meld again",
    ),
    Case(
        "CR 701.42",
        "a manifested meld card is face down, nameless: it can't meld",
        BRUNA,
        "library",
        [A("manifest"), A("meld", partner=GISELA)],
        outcome="no_effect",
        reason="CR 701.42: a face-down permanent",
    ),
    Case(
        "CR 712.4",
        "Brisela dies: both cards go to the graveyard, each its front face (R2)",
        BRUNA,
        "battlefield",
        [A("meld", partner=GISELA), A("move", to="graveyard")],
        events=("left_battlefield", "moved_to_graveyard", "also_moved_to_graveyard:Gisela, the Broken Blade"),
        state={"zone": "graveyard", "melded_with": None, "face_up": "front"},
        chars={"name": "Bruna, the Fading Light", "mana_value": 7},
    ),
    Case(
        "CR 712.4",
        "Brisela bounced: both cards to the hand",
        GISELA,
        "battlefield",
        [A("meld", partner=BRUNA), A("move", to="hand")],
        events=("also_moved_to_hand:Bruna, the Fading Light",),
        state={"zone": "hand", "melded_with": None},
        chars={"name": "Gisela, the Broken Blade", "mana_value": 4},
    ),
    Case(
        "R6",
        "a melded permanent is a face-up double-faced permanent: it can't be turned face down",
        BRUNA,
        "battlefield",
        [A("meld", partner=GISELA), A("turn_face_down")],
        outcome="no_effect",
        reason="R6:",
    ),
    Case(
        "R22",
        "a melded permanent taps and stays melded",
        BRUNA,
        "battlefield",
        [A("meld", partner=GISELA), A("tap")],
        state={"tapped": True, "melded_with": GISELA},
        chars={"name": "Brisela, Voice of Nightmares", "mana_value": 11},
    ),
    Case(
        "R2",
        "a meld card's back face exists only melded: in the hand it is Bruna, MV 7",
        BRUNA,
        "hand",
        [A("tap")],
        outcome="illegal",
        reason="R22:",
        chars={"name": "Bruna, the Fading Light", "mana_value": 7},
    ),
    # -- disturb (Innistrad: Midnight Hunt) -------------------------------------------------------
    Case(
        "CR 702.146",
        "cast transformed from the graveyard: the back face on the stack, front MV (R3)",
        BEGGAR,
        "graveyard",
        [A("cast", disturb=True)],
        events=("cast_transformed", "paid:{4}{W}{W}"),
        state={"zone": "stack", "face_up": "back"},
        chars={
            "name": "Generous Soul",
            "mana_cost": None,
            "mana_value": 2,
            "colors": "W",
            "power": "4",
            "toughness": "4",
            "subtypes": ("Spirit",),
        },
    ),
    Case(
        "CR 702.146",
        "the disturbed spell resolves into the back face on the battlefield (R3)",
        ANGLER,
        "graveyard",
        [A("cast", disturb=True), A("resolve")],
        state={"zone": "battlefield", "face_up": "back"},
        chars={"name": "Hook-Haunt Drifter", "mana_value": 2, "power": "1", "toughness": "2"},
    ),
    Case(
        "CR 702.146",
        "disturb casts only from the graveyard, not from the hand",
        BEGGAR,
        "hand",
        [A("cast", disturb=True)],
        outcome="illegal",
    ),
    Case(
        "CR 702.146",
        "a card without disturb can't be cast transformed",
        BRUNA,
        "graveyard",
        [A("cast", disturb=True)],
        outcome="illegal",
    ),
    Case(
        "R2",
        "without disturb the back face can't be cast",
        BEGGAR,
        "graveyard",
        [A("cast", face="back")],
        outcome="illegal",
    ),
    Case(
        "CR 702.146",
        "countered, the disturbed spell is exiled instead of going to the graveyard",
        BEGGAR,
        "graveyard",
        [A("cast", disturb=True), A("move", to="graveyard")],
        events=("exiled_instead_of_graveyard", "moved_to_exile"),
        state={"zone": "exile"},
        chars={"name": "Beloved Beggar", "mana_value": 2},
    ),
    Case(
        "CR 702.146",
        "dying, the disturbed permanent is exiled too",
        ANGLER,
        "graveyard",
        [A("cast", disturb=True), A("resolve"), A("move", to="graveyard")],
        events=("exiled_instead_of_graveyard",),
        state={"zone": "exile"},
    ),
    Case(
        "R2",
        "cast normally, the front face dies into the graveyard as usual",
        BEGGAR,
        "hand",
        [A("cast"), A("resolve"), A("move", to="graveyard")],
        state={"zone": "graveyard"},
        not_events=("exiled_instead_of_graveyard",),
    ),
    # -- Rooms (Duskmourn) ------------------------------------------------------------------------
    Case(
        "CR 709.5",
        "in the hand a Room is both doors: names, mana value 1 + 5 = 6",
        POOL,
        "hand",
        [A("tap")],
        outcome="illegal",
        reason="R22:",
        chars={"name": "Bottomless Pool // Locker Room", "mana_value": 6, "mana_cost": "{U} // {4}{U}"},
    ),
    Case(
        "CR 709.5",
        "cast one door: on the stack it is that door (mana value 1)",
        POOL,
        "hand",
        [A("cast")],
        chars={"name": "Bottomless Pool", "mana_value": 1},
    ),
    Case(
        "CR 709.5",
        "resolved, the cast door is unlocked and the other locked: only it counts",
        POOL,
        "hand",
        [A("cast"), A("resolve")],
        events=("door_unlocked:Bottomless Pool",),
        state={"unlocked": ("front",)},
        chars={
            "name": "Bottomless Pool",
            "mana_value": 1,
            "mana_cost": "{U}",
            "card_types": ("Enchantment",),
            "subtypes": ("Room",),
        },
    ),
    Case(
        "CR 709.5",
        "casting the other door unlocks that one",
        GLASSWORKS,
        "hand",
        [A("cast", face="back"), A("resolve")],
        state={"unlocked": ("back",)},
        chars={"name": "Shattered Yard", "mana_value": 5},
    ),
    Case(
        "CR 709.5",
        "unlocking the locked door is a special action paying its mana cost",
        POOL,
        "hand",
        [A("cast"), A("resolve"), A("unlock", door="back")],
        events=("special_action", "paid:{4}{U}", "door_unlocked:Locker Room", "fully_unlocked"),
        state={"unlocked": ("front", "back")},
        chars={"name": "Bottomless Pool // Locker Room", "mana_value": 6},
    ),
    Case(
        "CR 709.5",
        "an unlocked door can't be unlocked again",
        POOL,
        "hand",
        [A("cast"), A("resolve"), A("unlock", door="front")],
        outcome="no_effect",
    ),
    Case(
        "CR 709.5",
        "put onto the battlefield without being cast, both doors are locked: no name, MV 0",
        POOL,
        "hand",
        [A("put_onto_battlefield")],
        state={"unlocked": ()},
        chars={"name": None, "mana_value": 0, "mana_cost": None, "card_types": ("Enchantment",)},
    ),
    Case(
        "CR 709.5",
        "a Room leaving the battlefield forgets its doors (R4)",
        POOL,
        "hand",
        [A("cast"), A("resolve"), A("move", to="hand")],
        state={"unlocked": ()},
        chars={"name": "Bottomless Pool // Locker Room", "mana_value": 6},
    ),
    Case("CR 709.5", "only a Room has doors", BEGGAR, "battlefield", [A("unlock", door="back")], outcome="illegal"),
    Case(
        "CR 709.5",
        "a Room in the hand has no doors to unlock",
        POOL,
        "hand",
        [A("unlock", door="back")],
        outcome="illegal",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_meld_disturb_and_rooms(case):
    check_case(case)


@pytest.mark.parametrize("zone", ["graveyard", "exile", "hand", "library", "command"])
def test_a_melded_permanent_leaving_takes_both_cards_to_the_same_zone(zone):
    """CR 712.4: the partner leaves with it, to the same zone, as a card showing its front."""
    melded = apply(on_battlefield(BRUNA), "meld", partner=GISELA).state
    result = apply(melded, "move", to=zone)
    assert result.ok and result.state.zone == zone and result.state.melded_with is None
    (partner,) = result.also
    assert partner.card == GISELA and partner.zone == zone and partner.melded_with is None
    assert characteristics(partner).name == "Gisela, the Broken Blade"
    assert characteristics(partner).mana_value == 4


def test_only_a_melded_permanent_takes_another_card_along():
    assert apply(on_battlefield(BRUNA), "move", to="graveyard").also == ()
    melded = apply(on_battlefield(BRUNA), "meld", partner=GISELA).state
    assert apply(melded, "tap").also == ()


def test_a_token_copy_of_a_meld_card_does_not_meld():
    """CR 701.42: tokens can't be melded."""
    token = GameObject(card=BRUNA, zone="battlefield", is_token_copy=True)
    result = meld(token, GISELA)
    assert result.outcome == "no_effect" and result.reason.startswith("CR 701.42: a token")
    assert result.state == token


def test_the_meld_action_needs_a_partner_card():
    assert ACTIONS["meld"].card_params == ("partner",)
    with pytest.raises(InvalidAction, match="needs 'partner'") as exc:
        apply(on_battlefield(BRUNA), "meld")
    assert exc.value.field == "partner"
    with pytest.raises(InvalidAction, match="partner must be a card") as exc:
        apply(on_battlefield(BRUNA), "meld", partner="Gisela, the Broken Blade")
    assert exc.value.field == "partner"
    with pytest.raises(InvalidAction, match="partner_zone must be one of"):
        apply(on_battlefield(BRUNA), "meld", partner=GISELA, partner_zone="sideboard")


def test_the_shipped_data_really_has_these_cards():
    """The cases above read the files the product ships: a meld pair shares its back face."""
    assert BRUNA.layout == GISELA.layout == "meld" and BRUNA.melds_with == GISELA.melds_with
    assert BEGGAR.faces[0].disturb_cost == "{4}{W}{W}" and BEGGAR.faces[1].exiled_instead_of_graveyard
    assert POOL.is_room and GLASSWORKS.is_room and not BEGGAR.is_room
    assert characteristics(GameObject(card=BRUNA, zone="library")).mana_value == 7
