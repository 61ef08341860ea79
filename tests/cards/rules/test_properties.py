"""Property tests: random action sequences on random seed cards never crash and keep the
invariants of the rules core."""

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from cards.rules import (
    ACTIONS,
    GameObject,
    apply,
    become_copy,
    characteristics,
    controller_view,
    create_token_copy,
)
from cards.rules.actions import CARD
from cards.rules.state import OUTCOMES, ZONES
from tests.cards.rules.seed_cards import ALL_CARDS, BRUNA, GISELA

# A rule of RULES.md ("R35: ..."), or a Comprehensive Rules section where RULES.md has none
# (meld, disturb, Rooms: "CR 709.5: ...").
REASON = re.compile(r"^(R\d+|CR \d+(\.\d+)?[a-z]?): \S")


def _params(action):
    spec = ACTIONS[action]
    fields = {}
    for name, allowed in spec.params.items():
        if allowed is bool:
            values = st.booleans()
        elif allowed is CARD:
            values = st.sampled_from((*ALL_CARDS, GISELA))  # Bruna's partner, so melds happen
        else:
            values = st.sampled_from(allowed)
        if name in ("to", "partner"):
            fields[name] = values
        else:
            fields[name] = st.one_of(st.none(), values)
    return st.fixed_dictionaries(fields).map(lambda p: (action, p))


sources = st.builds(
    GameObject,
    card=st.sampled_from(ALL_CARDS),
    zone=st.sampled_from(("battlefield", "stack")),
    face_up=st.just("front"),
    flipped=st.booleans(),
    face_down=st.just(False),
)
# Named actions, plus the two copy helpers (R7, R8, R47) with a random source object.
steps = st.one_of(
    st.sampled_from(sorted(ACTIONS)).flatmap(_params),
    st.tuples(st.just("__token_copy__"), st.fixed_dictionaries({"source": sources})),
    st.tuples(st.just("__become_copy__"), st.fixed_dictionaries({"source": sources})),
)


def _run(obj, action, params):
    if action == "__token_copy__":
        # The new token is the object followed from here on.
        return create_token_copy(params["source"])
    if action == "__become_copy__":
        return become_copy(obj, params["source"])
    return apply(obj, action, **params)


def check_invariants(obj: GameObject) -> None:
    chars = characteristics(obj)
    assert isinstance(chars.mana_value, int)
    assert controller_view(obj) is not None
    if obj.face_down:
        assert chars.name is None and chars.mana_value == 0 and chars.mana_cost is None
        assert chars.colors == "" and chars.power == "2" and chars.toughness == "2"
        assert obj.zone in ("stack", "battlefield")
        assert obj.face_down_by is not None
    else:
        assert obj.face_down_by is None
    if obj.zone not in ("stack", "battlefield"):
        # library, hand, graveyard, exile, command: an ordinary face-up card, front face.
        assert not obj.face_down and obj.face_up == "front"
        assert not obj.flipped and not obj.tapped and not obj.lost_abilities
        assert chars.name in (obj.card.faces[0].name, obj.card.name)
    if obj.flipped:
        assert obj.card.is_flip and obj.zone == "battlefield"
    if obj.tapped:
        assert obj.zone == "battlefield"
    if obj.melded_with is not None:
        # CR 712.4: only a meld pair on the battlefield is one melded permanent, back face up.
        assert obj.zone == "battlefield" and obj.face_up == "back"
        assert obj.card.is_meld and obj.melded_with.melds_with == obj.card.melds_with
        if obj.copy_of is None:  # a melded permanent can still become a copy of something (R8)
            assert chars.mana_value == obj.card.faces[0].mana_value + obj.melded_with.faces[0].mana_value


@settings(max_examples=400, deadline=None)
@given(card=st.sampled_from(ALL_CARDS), zone=st.sampled_from(ZONES), sequence=st.lists(steps, max_size=12))
def test_random_sequences_keep_the_invariants(card, zone, sequence):
    _check_sequence(GameObject(card=card, zone=zone), sequence)


@settings(max_examples=150, deadline=None)
@given(first=st.sampled_from((BRUNA, GISELA)), sequence=st.lists(steps, max_size=8))
def test_random_sequences_on_a_melded_permanent_keep_the_invariants(first, sequence):
    """CR 701.42, 712.4: from Brisela on the battlefield, whatever happens next."""
    partner = GISELA if first is BRUNA else BRUNA
    melded = apply(GameObject(card=first, zone="battlefield"), "meld", partner=partner)
    assert melded.ok and melded.state.melded_with is partner
    _check_sequence(melded.state, sequence)


def _check_sequence(obj, sequence):
    check_invariants(obj)
    for action, params in sequence:
        result = _run(obj, action, params)
        assert result.outcome in OUTCOMES
        assert isinstance(result.events, tuple)
        assert all(isinstance(e, str) for e in result.events)
        for other in result.also:  # a melded permanent's partner goes where it goes (CR 712.4)
            assert obj.melded_with is not None and other.card == obj.melded_with
            assert other.zone == result.state.zone and other.melded_with is None
        if result.outcome == "ok":
            assert result.reason is None
        else:
            assert result.reason is not None and REASON.match(result.reason), result.reason
            assert "\n" not in result.reason
            assert result.state == obj  # what did not happen changes nothing
        if action == "__token_copy__":
            obj = result.state
            check_invariants(obj)
            continue
        if action in ("turn_face_up", "turn_face_down", "transform", "flip"):
            assert "enters_battlefield" not in result.events  # R22, R5
            assert result.state.tapped == obj.tapped
        if (
            obj.face_down
            and obj.zone in ("stack", "battlefield")
            and result.state.zone not in (obj.zone, "battlefield")
        ):
            assert "revealed" in result.events  # R24
        obj = result.state
        check_invariants(obj)
