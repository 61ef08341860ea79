"""Where draft cards are, for tests: the ids in the packs or piles that match a filter.

A card's place is the array that lists it (``Pack.card_ids``, ``Seat.pile_ids``); these read
the arrays so a test can say "the cards the seat holds" as it once filtered card rows."""

from drafts.models import Pack, Seat


def held(**packs) -> list[int]:
    """Ids of the cards in the packs ``Pack.objects.filter(**packs)`` finds, pack by pack."""
    return [
        pk
        for ids in Pack.objects.filter(**packs).order_by("queue_seq", "pk").values_list("card_ids", flat=True)
        for pk in ids
    ]


def piled(**seats) -> list[int]:
    """Ids of the cards in the piles of the seats ``Seat.objects.filter(**seats)`` finds, in pile order."""
    return [
        pk
        for ids in Seat.objects.filter(**seats).order_by("pod_id", "position").values_list("pile_ids", flat=True)
        for pk in ids
    ]
