"""rulesdesk.adapter: catalogue rows become the same CardData as the seed literals."""

import pytest

from cards.rules import GameObject, characteristics
from cards.selectors import card_queryset
from rulesdesk.adapter import card_data
from tests.cards.rules.seed_cards import AKKI, EXPERIMENT_TWELVE, GATSTAF, SEJIRI

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("literal", [GATSTAF, SEJIRI, AKKI, EXPERIMENT_TWELVE], ids=lambda c: c.name)
def test_round_trip(seed_catalogue, literal):
    card = card_queryset().get(pk=seed_catalogue[literal.name].pk)
    data = card_data(card)
    assert data.name == literal.name and data.layout == literal.layout
    assert [f.name for f in data.faces] == [f.name for f in literal.faces]
    for state in (
        {"zone": "hand"},
        {"zone": "battlefield", "face_up": "back"} if len(literal.faces) > 1 else {"zone": "battlefield"},
        {"zone": "battlefield", "face_down": True, "face_down_by": "disguise"},
    ):
        assert characteristics(GameObject(card=data, **state)) == characteristics(GameObject(card=literal, **state))


def test_blank_strings_mean_none(seed_catalogue):
    data = card_data(seed_catalogue["Sejiri Shelter // Sejiri Glacier"])
    glacier = data.faces[1]
    assert glacier.mana_cost == "" and glacier.power is None and glacier.disguise_cost is None
    assert card_data(seed_catalogue["Experiment Twelve"]).front.disguise_cost == "{4}{G}"
