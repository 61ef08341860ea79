"""Helpers every matches service shares: locks (one order: settings, round, match), the
permission checks, the log, and the after-commit live notification."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from draftsite.errors import DomainError, NotFoundError
from events.models import Event
from matches import error_codes, live
from matches.models import EventMatchSettings, Match, MatchLogEntry, Round


def _in_transaction() -> None:
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("matches locks must be taken inside transaction.atomic()")


def get_event(event_id: int) -> Event:
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        raise NotFoundError(error_codes.UNKNOWN_EVENT, _("No event has id %(id)s.") % {"id": event_id})
    return event


def lock_settings(event_id: int) -> EventMatchSettings:
    """Lock the event's match settings: pairing, repairs, round control and drops queue here."""
    _in_transaction()
    row = EventMatchSettings.objects.select_for_update().select_related("event").filter(event_id=event_id).first()
    if row is None:
        raise DomainError(error_codes.MATCHES_NOT_STARTED, _("Matches have not been set up for this event."))
    return row


def lock_round(round_id: int) -> Round:
    _in_transaction()
    row = Round.objects.select_for_update().filter(pk=round_id).first()
    if row is None:
        raise NotFoundError(error_codes.UNKNOWN_ROUND, _("No round has id %(id)s.") % {"id": round_id})
    return row


def lock_match(match_id: int) -> Match:
    """Lock a match and, first, its round (the round's state decides what may change)."""
    _in_transaction()
    round_id = Match.objects.filter(pk=match_id).values_list("round_id", flat=True).first()
    if round_id is None:
        raise NotFoundError(error_codes.UNKNOWN_MATCH, _("No match has id %(id)s.") % {"id": match_id})
    round_obj = lock_round(round_id)
    match = Match.objects.select_for_update().get(pk=match_id)
    match.round = round_obj
    return match


# The matches app's wording of the access refusals (the codes are ``events.access``'s).
ORGANISERS_ONLY = gettext_lazy("Only the event's organisers may do that.")
STAFF_ONLY = gettext_lazy("Only the event's organisers and judges may do that.")


def clean_text(value, limit: int) -> str:
    """Free text from a form or a client: a string, trimmed, capped, without NUL bytes
    (PostgreSQL refuses them in text and JSON columns)."""
    if not isinstance(value, str):
        return ""
    return value.replace("\x00", "").strip()[:limit]


def log(event_id: int, *, actor, action: str, at, round_obj=None, match=None, **details) -> MatchLogEntry:
    actor = actor if getattr(actor, "is_authenticated", False) else None
    return MatchLogEntry.objects.create(
        event_id=event_id, round=round_obj, match=match, actor=actor, action=action, details=details, at=at
    )


def notify(event_id: int) -> None:
    """Tell live pages of the event that something changed, once the change is committed."""
    transaction.on_commit(lambda: live.notify_event(event_id))


def round_changed(round_obj: Round, *, actor, action: str, at, **details) -> Round:
    """A change of one round (paired, repaired, started, finished): logged against the round,
    and the event's pages told once it commits."""
    log(round_obj.event_id, actor=actor, action=action, at=at, round_obj=round_obj, **details)
    notify(round_obj.event_id)
    return round_obj


def match_changed(match: Match, *, actor, action: str, at, **details) -> Match:
    """A change of one match (a result, a confirmation, an extension): logged against the match
    and its round, and the event's pages told once it commits."""
    log(match.round.event_id, actor=actor, action=action, at=at, round_obj=match.round, match=match, **details)
    notify(match.round.event_id)
    return match
