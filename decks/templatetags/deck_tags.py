"""Words the deck pages show for stored values, in the reader's language."""

from django import template
from django.utils.translation import gettext_lazy

from decks.validation import codes
from draftsite.i18n import localize_problems
from events.models import DeckFormat

register = template.Library()

_STATES = {"valid": gettext_lazy("valid"), "invalid": gettext_lazy("invalid"), "missing": gettext_lazy("missing")}


@register.filter
def deck_state_text(value) -> str:
    """A deck's check state ("valid", "invalid", "missing") as the reader says it."""
    return _STATES.get(value, value)


@register.filter
def deck_format_text(value) -> str:
    """A stored deck format code ("constructed") as the reader says it."""
    return DeckFormat(value).label if value in DeckFormat.values else value


# A deck check's problem codes as a judge reads them in a list (issue 46: the judges' deck list
# showed the raw codes). Every code of decks.validation.codes has a label here
# (tests/decks/views/test_problem_words.py).
_PROBLEM_LABELS = {
    codes.UNKNOWN_CARD: gettext_lazy("Unknown card"),
    codes.AMBIGUOUS_CARD_NAME: gettext_lazy("Ambiguous card name"),
    codes.DECK_TOO_SMALL: gettext_lazy("Too few cards"),
    codes.DECK_TOO_LARGE: gettext_lazy("Too many cards"),
    codes.TOO_MANY_COPIES: gettext_lazy("Too many copies of a card"),
    codes.NOT_IN_POOL: gettext_lazy("Card not in the pool"),
    codes.COLOR_IDENTITY: gettext_lazy("Outside the commander's color identity"),
    codes.SIDEBOARD_TOO_LARGE: gettext_lazy("Sideboard too large"),
    codes.CHECKLIST_NO_MARK: gettext_lazy("Checklist card with no name marked"),
    codes.CHECKLIST_MULTIPLE_MARKS: gettext_lazy("Checklist card with several names marked"),
    codes.CHECKLIST_UNOFFICIAL: gettext_lazy("Unofficial checklist card"),
    codes.CHECKLIST_NOT_LISTED: gettext_lazy("Checklist card marks a card it does not list"),
    codes.CHECKLIST_PARTIAL: gettext_lazy("Some double-faced cards without a checklist card"),
    codes.CHECKLIST_MISMATCH: gettext_lazy("Checklist cards do not match the double-faced cards"),
    codes.DFC_NEEDS_SLEEVES_OR_CHECKLIST: gettext_lazy("Double-faced card needs opaque sleeves or a checklist card"),
    codes.NO_COMMANDER: gettext_lazy("No commander"),
    codes.SECTION_IGNORED: gettext_lazy("Section ignored"),
}


@register.filter
def problem_label(code) -> str:
    """A deck check problem's code ("dfc_needs_sleeves_or_checklist") as the reader says it."""
    return _PROBLEM_LABELS.get(code, code)


@register.filter
def localized_problems(problems) -> list[dict]:
    """Deck check problems, stored or fresh, with their messages in the reader's language: the
    one way a page shows them (issue 46: a page that showed the stored English text)."""
    return localize_problems(list(problems or ()))
