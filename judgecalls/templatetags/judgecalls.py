"""The "call a judge" box for the player's pages (match page, draft page): the button, or the
state of the player's call and the judge coming. Loaded by the templates, so the matches and
drafts apps import nothing of this one."""

from __future__ import annotations

from django import template
from django.utils import timezone

from judgecalls import selectors

register = template.Library()


@register.inclusion_tag("judgecalls/_call_box.html", takes_context=True)
def judge_call_box(context, registration, match=None, seat=None):
    request = context.get("request")
    call = selectors.players_open_call(registration.pk) if registration is not None else None
    resolved = None
    if registration is not None and call is None:
        resolved = selectors.players_recently_resolved(registration.pk, timezone.now())
    return {
        "call": call,
        "resolved": resolved,
        "match": match,
        "seat": seat,
        "next": _page_path(request),
        "csrf_token": context.get("csrf_token"),
    }


def _page_path(request) -> str:
    """Where the form returns to: the page, also when the box was drawn in its live panel
    (``.../panel/``, fetched by live.js): back to the panel would be a bare fragment."""
    if request is None:
        return ""
    path = request.path
    return path[: -len("panel/")] if path.endswith("/panel/") else path
