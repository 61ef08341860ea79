"""factory_boy factories: catalogue rows (tests that need a card the data lacks), people,
events and their staff, the draft rows a test stands on, and the decks app's rows. Tests build
their data through these or through the apps' services, not ``objects.create``."""

import datetime

import factory

from cards.models import Card, CardFace, CardSet, ChecklistCard, ChecklistEntry, ChecklistKind, Printing
from cards.name_folding import normalize_name
from decks.models import ChecklistPolicy, DeckRules, SealedPool
from drafts.models import DraftCard, Pack


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


# --- people and event staff (the draft engine's tests) ------------------------------------


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "auth.User"
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("pw")


class EventFactory(factory.django.DjangoModelFactory):
    """A cube draft event with no cards (enough to hang staff and permissions on)."""

    class Meta:
        model = "events.Event"

    name = factory.Sequence(lambda n: f"Event {n}")
    date = datetime.date(2026, 11, 29)
    draft_format = "cube"


class EventStaffFactory(factory.django.DjangoModelFactory):
    """A staff role in an event (give ``event``); a judge unless ``role`` says otherwise."""

    class Meta:
        model = "events.EventStaff"

    user = factory.SubFactory(UserFactory)
    role = "judge"


class TokenFactory(factory.django.DjangoModelFactory):
    """An API token of ``user``."""

    class Meta:
        model = "authtoken.Token"

    user = factory.SubFactory(UserFactory)


# --- registrations, pods and seats (the matches, paper and penalties tests) ----------------


class RegistrationFactory(factory.django.DjangoModelFactory):
    """A player of an event (give ``event``; ``user`` empty for a guest)."""

    class Meta:
        model = "events.Registration"

    name = factory.Sequence(lambda n: f"Player {n}")


class PodFactory(factory.django.DjangoModelFactory):
    """A pod of an event (give ``event``), not started."""

    class Meta:
        model = "drafts.Pod"

    number = factory.Sequence(lambda n: n + 1)
    seed = factory.SelfAttribute("number")


class SeatFactory(factory.django.DjangoModelFactory):
    """A seat of a pod (give ``pod`` and ``registration``)."""

    class Meta:
        model = "drafts.Seat"

    position = factory.Sequence(int)


# --- checklist cards (the decks tests) -----------------------------------------------------


class ChecklistCardFactory(factory.django.DjangoModelFactory):
    """An official checklist (or, with ``kind="substitute"``, substitute) card (R11)."""

    class Meta:
        model = ChecklistCard

    name = factory.Sequence(lambda n: f"Test Checklist {n}")
    search_name = factory.LazyAttribute(lambda o: normalize_name(o.name))
    kind = ChecklistKind.CHECKLIST
    set_code = "TTST"
    collector_number = factory.Sequence(str)


class ChecklistEntryFactory(factory.django.DjangoModelFactory):
    """A name printed on a checklist card, linked to the catalogue card it names."""

    class Meta:
        model = ChecklistEntry

    checklist = factory.SubFactory(ChecklistCardFactory)
    card = factory.SubFactory(CardFactory)
    printed_name = factory.LazyAttribute(lambda o: o.card.name.split(" // ")[0])


# --- draft rows the decks tests stand on (events come from drafts.services or EventFactory) ---


class PackFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Pack

    pod = factory.SelfAttribute("opener.pod")
    round = 1
    initial_size = 15


class DraftCardFactory(factory.django.DjangoModelFactory):
    """A card opened in ``opened_in``: ``seat=`` puts it last in that seat's pile, ``pack=`` last
    in that pack (where a card is: ``Pack.card_ids``, ``Seat.pile_ids``)."""

    class Meta:
        model = DraftCard
        skip_postgeneration_save = True

    pod = factory.SelfAttribute("opened_in.pod")
    is_dfc = factory.LazyAttribute(lambda o: o.card.is_dfc)

    @factory.post_generation
    def seat(obj, create, seat, **kwargs):
        if seat is not None:
            seat.pile_ids = [*seat.pile_ids, obj.pk]
            seat.save(update_fields=["pile_ids"])

    @factory.post_generation
    def pack(obj, create, pack, **kwargs):
        if pack is not None:
            pack.card_ids = [*pack.card_ids, obj.pk]
            pack.save(update_fields=["card_ids"])


# --- decks ----------------------------------------------------------------------------------


class DeckRulesFactory(factory.django.DjangoModelFactory):
    """How ``event`` checks checklist cards (R12)."""

    class Meta:
        model = DeckRules

    checklist_policy = ChecklistPolicy.DECK


class SealedPoolFactory(factory.django.DjangoModelFactory):
    """A sealed pool entered for ``registration``: ``cards=[{"card_id", "count"}]``."""

    class Meta:
        model = SealedPool

    cards = factory.LazyFunction(list)
