"""What a judge can find at a deck check, and the infraction each one usually is.

The penalties app receives the infraction as one of three codes (the contract between the two
apps); the judge may choose another, or none, when recording the finding.
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urlencode

from django.utils.translation import gettext_lazy

from decks import error_codes

DECK_PROBLEM = "deck_problem"
DECKLIST_PROBLEM = "decklist_problem"
MARKED_CARDS = "marked_cards"
INFRACTIONS = {
    DECK_PROBLEM: gettext_lazy("Deck Problem"),
    DECKLIST_PROBLEM: gettext_lazy("Decklist Problem"),
    MARKED_CARDS: gettext_lazy("Marked Cards"),
}

DECKLIST_ILLEGAL = "decklist_illegal"  # the kind suggested for a list the check found illegal
OTHER = "other"  # the kind that needs a description
# What one deck check holds, on the page and the API alike (longer is refused, never cut).
MAX_DESCRIPTION = 2000
MAX_CARDS = 100  # cards named in one finding
MAX_CARD_NAME = 200
MAX_NOTES = 4000

# kind -> (label, usual infraction)
FINDING_KINDS: dict[str, tuple[str, str]] = {
    "deck_differs": (gettext_lazy("The physical deck differs from the registered list"), DECK_PROBLEM),
    "sideboard_mixed": (gettext_lazy("Sideboard and main deck cards are mixed up"), DECK_PROBLEM),
    "checklist_unmarked": (gettext_lazy("A checklist card has no name marked (R10)"), DECK_PROBLEM),
    "checklist_multiple_marks": (gettext_lazy("A checklist card has more than one name marked (R10)"), DECK_PROBLEM),
    "checklist_unofficial": (gettext_lazy("An unofficial card stands in for a double-faced card (R11)"), DECK_PROBLEM),
    "dfc_with_checklist": (
        gettext_lazy("A double-faced card is in the deck although a checklist card represents it (R13)"),
        DECK_PROBLEM,
    ),
    "checklist_mark_visible": (gettext_lazy("A checklist card's mark can be seen from the back (R10)"), MARKED_CARDS),
    "sleeves_not_opaque": (gettext_lazy("Double-faced cards in sleeves that are not fully opaque (R9)"), MARKED_CARDS),
    "marked_cards": (gettext_lazy("Marked or distinguishable cards or sleeves"), MARKED_CARDS),
    DECKLIST_ILLEGAL: (
        gettext_lazy("The registered list is illegal or is not the deck the player meant"),
        DECKLIST_PROBLEM,
    ),
    OTHER: (gettext_lazy("Something else (see the description)"), ""),
}

# The registered list's own check errors, as the finding a judge would record for them.
FINDING_FOR_CHECK_ERROR = {
    "checklist_no_mark": "checklist_unmarked",
    "checklist_multiple_marks": "checklist_multiple_marks",
    "checklist_unofficial": "checklist_unofficial",
}


def outcome_problem(*, matches: bool, found: Sequence) -> str | None:
    """A deck check says the deck matches the list, or records what was found: never both,
    never neither. The error code of what is wrong (``invalid``: both; ``required``: neither),
    or None. The API and the deck check page say it in their own words."""
    if matches and found:
        return error_codes.INVALID
    if not matches and not found:
        return error_codes.REQUIRED
    return None


def penalty_url(*, event_id: int, registration_id: int, infraction: str, description: str, source: str = "") -> str:
    """The penalties page, prefilled (contract with the penalties app).

    ``source`` is ``deck_check:<id>`` for a deck check; a correction has none (the penalties
    app only knows deck checks and timer picks as sources), its description says what it was.
    """
    params = {"event": event_id, "registration": registration_id, "infraction": infraction, "description": description}
    if source:
        params["source"] = source
    return f"/penalties/new/?{urlencode(params)}"
