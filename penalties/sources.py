"""What prompted a penalty: a deck check ("deck_check:<id>", kept as text: the decks app is
not imported) or an automatic pick of the draft engine ("pick:<id>"); the site's proposals
(judgecalls.proposals) add a missing decklist ("decklist:<registration id>"), a judge's
correction of a list after its deadline ("correction:<id>") and a result not reported when
the round's time ran out ("result:<match id>")."""

from __future__ import annotations

import re

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext

from drafts.models import Pick, PickKind
from draftsite.errors import DomainError
from events.models import Event
from penalties import error_codes

SOURCE_RE = re.compile(r"^(deck_check|pick|decklist|correction|result):([1-9][0-9]{0,17})$")


def parse_source(source: str) -> tuple[str, int] | None:
    """``"pick:12"`` -> ("pick", 12); "" -> None; anything else is refused."""
    source = (source or "").strip()
    if not source:
        return None
    match = SOURCE_RE.match(source)
    if match is None:
        raise DomainError(
            error_codes.INVALID_SOURCE, gettext('Source must be "deck_check:<id>" or "pick:<id>".'), field="source"
        )
    return match.group(1), int(match.group(2))


def source_pick(*, event: Event, pick_id: int) -> Pick:
    """An automatic (timer) pick of this event, or a refusal."""
    pick = (
        Pick.objects.select_related("seat__pod", "seat__registration")
        .filter(pk=pick_id, seat__pod__event=event)
        .first()
    )
    if pick is None:
        raise DomainError(
            error_codes.UNKNOWN_PICK,
            gettext("No pick %(pick_id)s was made in this event.") % {"pick_id": pick_id},
            field="source",
        )
    if pick.kind != PickKind.TIMEOUT:
        raise DomainError(
            error_codes.INVALID_SOURCE,
            gettext("Only picks made automatically when the timer ran out can prompt a penalty."),
            field="source",
        )
    return pick


def describe_source(event: Event, source: str) -> str:
    """A source as a judge reads it on a page ("Timer pick: Ana, pod 1, pack 2, pick 5"); the
    API keeps the code. Looks up what it can through the event's own relations."""
    try:
        parsed = parse_source(source)
    except DomainError:
        return source
    if parsed is None:
        return ""
    kind, pk = parsed
    if kind == "pick":
        pick = (
            Pick.objects.select_related("seat__pod", "seat__registration").filter(pk=pk, seat__pod__event=event).first()
        )
        if pick is not None:
            return pick_label(pick)
    elif kind == "deck_check":
        check = event.deck_checks.select_related("deck__registration").filter(pk=pk).first()
        if check is not None:
            return deck_check_label(check)
    elif kind == "decklist":
        registration = event.registrations.filter(pk=pk).first()
        if registration is not None:
            return gettext("No decklist registered: %(name)s") % {"name": registration.name}
    labels = {
        "pick": gettext("Timer pick #%(id)s"),
        "deck_check": gettext("Deck check #%(id)s"),
        "decklist": gettext("Missing decklist (registration #%(id)s)"),
        "correction": gettext("Decklist corrected after its deadline (correction #%(id)s)"),
        "result": gettext("Result not reported in time (match #%(id)s)"),
    }
    return labels[kind] % {"id": pk}


def pick_label(pick: Pick) -> str:
    return gettext("Timer pick: %(name)s, pod %(pod)s, pack %(pack)s, pick %(pick)s") % {
        "name": pick.seat.registration.name if pick.seat.registration_id else "—",
        "pod": pick.seat.pod.number,
        "pack": pick.round,
        "pick": pick.pick_number,
    }


def deck_check_label(check) -> str:
    return gettext("Deck check of %(name)s, %(when)s") % {
        "name": check.deck.registration.name,
        "when": date_format(timezone.localtime(check.at), "DATETIME_FORMAT"),
    }
