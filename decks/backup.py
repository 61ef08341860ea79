"""What an event backup (draftsite/backup.py) holds of the decks: deck rules, sealed pools,
decks with their corrections, deck-check selections and deck checks."""

from decks.models import Deck, DeckCheck, DeckCheckSelection, DeckCorrection, DeckRules, SealedPool
from draftsite.backup import EVENT, USER, IdList, Section

SECTIONS = [
    Section("deck_rules", DeckRules, "event", {"event": EVENT}),
    Section("sealed_pools", SealedPool, "registration__event", {"registration": "registrations", "entered_by": USER}),
    Section("decks", Deck, "event", {"event": EVENT, "registration": "registrations", "updated_by": USER}),
    Section("deck_corrections", DeckCorrection, "deck__event", {"deck": "decks", "judge": USER}),
    Section(
        "deck_check_selections",
        DeckCheckSelection,
        "event",
        {"event": EVENT, "created_by": USER},
        id_lists={"registration_ids": IdList("registrations", unknown_as_null=True)},
    ),
    Section(
        "deck_checks",
        DeckCheck,
        "event",
        {"event": EVENT, "deck": "decks", "selection": "deck_check_selections", "judge": USER},
    ),
]
