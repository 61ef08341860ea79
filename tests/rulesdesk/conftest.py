"""Catalogue rows for the rules desk tests: the seed cards, unless the suite's session fixture
already loaded them (rows are only created for names that are missing), and the meld pairs of
Eldritch Moon read from the bundled data (cards/data/mtgjson/EMN.json.gz), as ``make demo``
imports them."""

import pytest

from cards.models import Card
from cards.rules import color_identity
from tests.cards.rules.seed_cards import ALL_CARDS
from tests.cards.rules.shipped import card as shipped_card
from tests.factories import CardFaceFactory, CardFactory


def ensure_card(data) -> Card:
    card = Card.objects.filter(name=data.name).first()
    if card is not None:
        return card
    card = CardFactory(name=data.name, layout=data.layout, color_identity=color_identity(data))
    for position, face in enumerate(data.faces):
        CardFaceFactory(
            card=card,
            position=position,
            name=face.name,
            mana_cost=face.mana_cost,
            mana_value=face.mana_value,
            type_line=face.type_line,
            supertypes=list(face.supertypes),
            card_types=list(face.card_types),
            subtypes=list(face.subtypes),
            oracle_text=face.oracle_text,
            colors=face.colors,
            color_indicator=face.color_indicator,
            power=face.power or "",
            toughness=face.toughness or "",
            loyalty=face.loyalty or "",
            disguise_cost=face.disguise_cost or "",
            morph_cost=face.morph_cost or "",
            megamorph_cost=face.megamorph_cost or "",
        )
    return card


@pytest.fixture
def seed_catalogue(db):
    """Every seed card as a catalogue row, by full name."""
    return {data.name: ensure_card(data) for data in ALL_CARDS}


MELD_CARDS = ("Bruna, the Fading Light", "Gisela, the Broken Blade", "Graf Rats", "Midnight Scavengers")


@pytest.fixture
def meld_catalogue(db):
    """Bruna and Gisela (Brisela), Graf Rats and Midnight Scavengers (Chittering Host) as
    catalogue rows, by front face name, from the shipped EMN file (no network)."""
    return {name: ensure_card(shipped_card("EMN", name)) for name in MELD_CARDS}
