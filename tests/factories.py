"""factory_boy factories for catalogue rows (tests that need a card the data lacks)."""

import factory

from cards.models import Card, CardFace, CardSet, Printing
from cards.naming import normalize_name


class CardSetFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = CardSet
        django_get_or_create = ("code",)

    code = factory.Sequence(lambda n: f"T{n:03d}")
    name = factory.LazyAttribute(lambda o: f"Test set {o.code}")


class CardFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Card

    name = factory.Sequence(lambda n: f"Test Card {n}")
    search_name = factory.LazyAttribute(lambda o: normalize_name(o.name))
    layout = "normal"


class CardFaceFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = CardFace

    card = factory.SubFactory(CardFactory)
    position = 0
    name = factory.LazyAttribute(lambda o: o.card.name.split(" // ")[o.position])
    search_name = factory.LazyAttribute(lambda o: normalize_name(o.name))
    type_line = "Creature — Human"
    card_types = ["Creature"]
    subtypes = ["Human"]


class PrintingFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Printing

    card = factory.SubFactory(CardFactory)
    card_set = factory.SubFactory(CardSetFactory)
    collector_number = factory.Sequence(str)
    rarity = "common"


def make_card(name: str, layout: str = "normal", **face_fields) -> Card:
    """A card with one face per ``//``-separated part of its name."""
    card = CardFactory(name=name, layout=layout)
    for position, _ in enumerate(name.split(" // ")):
        CardFaceFactory(card=card, position=position, **face_fields)
    return card
