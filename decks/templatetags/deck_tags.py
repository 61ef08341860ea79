"""Words the deck pages show for stored values, in the reader's language."""

from django import template
from django.utils.translation import gettext_lazy

from drafts.models import DeckFormat

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
