"""Small formatting helpers for the draft pages (clocks, rarities, colors, seats)."""

from __future__ import annotations

import datetime as dt
import json

from django import template
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext, gettext_lazy

register = template.Library()

RARITY = {"common": "C", "uncommon": "U", "rare": "R", "mythic": "M", "special": "S", "bonus": "B"}


@register.filter
def clock(ms) -> str:
    """Milliseconds as m:ss (h:mm:ss past an hour); never negative."""
    if ms is None or ms == "":
        return "—"
    seconds = max(0, int(ms) // 1000 + (1 if int(ms) % 1000 else 0))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


@register.filter
def seconds_text(value) -> str:
    if value is None:
        return "—"
    value = int(value)
    if value < 60:
        return f"{value} s"
    return f"{value // 60} min {value % 60:02d} s"


@register.simple_tag
def countdown(deadline=None, remaining_ms=None, now=None, label=""):
    """A clock the page's script keeps ticking: a deadline (running) or a frozen remainder.

    The server renders the current value too, so the page is right without script.
    """
    now = now or timezone.now()
    if isinstance(deadline, str):
        deadline = dt.datetime.fromisoformat(deadline)
    if deadline is not None:
        ms = int((deadline - now).total_seconds() * 1000)
        return format_html(
            '<span class="countdown" role="timer" data-deadline="{}"{}>{}</span>',
            iso_ms(deadline),
            format_html(' aria-label="{}"', label) if label else "",
            clock(ms),
        )
    if remaining_ms is not None:
        return format_html(
            '<span class="countdown frozen" role="timer" data-frozen="1"{}>{}</span>',
            format_html(' aria-label="{}"', label) if label else "",
            clock(remaining_ms),
        )
    return format_html('<span class="countdown none">{}</span>', gettext("no timer"))


@register.filter
def iso_ms(value) -> str:
    """An ISO timestamp with milliseconds (what every browser's Date.parse reads)."""
    if not value:
        return ""
    if isinstance(value, str):
        value = dt.datetime.fromisoformat(value)
    return value.isoformat(timespec="milliseconds")


@register.filter
def rarity_letter(rarity: str) -> str:
    return RARITY.get((rarity or "").lower(), (rarity or "?")[:1].upper())


@register.filter
def plus1(value) -> int:
    return int(value) + 1


@register.filter
def as_json(value) -> str:
    return json.dumps(value, separators=(",", ":"))


@register.filter
def local_time(value) -> str:
    if not value:
        return "—"
    if isinstance(value, str):
        value = dt.datetime.fromisoformat(value)
    return timezone.localtime(value).strftime("%H:%M:%S")


STATES = {
    "not_started": ("○", gettext_lazy("Not started")),
    "drafting": ("▶", gettext_lazy("Drafting")),
    "paused": ("❚❚", gettext_lazy("Paused")),
    "reviewing": ("☰", gettext_lazy("Between rounds")),
    "deck_building": ("✎", gettext_lazy("Deck building")),
    "done": ("✓", gettext_lazy("Finished")),
}


@register.simple_tag
def state_badge(state: str, paused_from: str | None = None):
    """The pod's state as a badge: an icon and words, so color is never the only cue."""
    icon, text = STATES.get(state, ("?", state))
    extra = ""
    if state == "paused" and paused_from in STATES:
        extra = f" ({STATES[paused_from][1].lower()})"
    return format_html(
        '<span class="state-badge state-{}"><span aria-hidden="true" class="state-icon">{}</span> {}{}</span>',
        state,
        icon,
        text,
        extra,
    )


# Words the templates show for stored values (issue 16: every word in the reader's language).
_DIRECTIONS = {"left": gettext_lazy("left"), "right": gettext_lazy("right")}


@register.filter
def direction_text(value) -> str:
    """ "left"/"right" as the reader says it."""
    return _DIRECTIONS.get(value, value)


@register.filter
def rarity_text(value) -> str:
    """A rarity code ("common") as the reader says it ("Comum")."""
    from cards.models import Rarity

    return Rarity(value).label if value in Rarity.values else (value or "—")
