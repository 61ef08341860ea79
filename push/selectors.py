"""Reads of push notifications: what a sweep finds due, a player's choices for an event."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from drafts.models import Pack, PodState
from events.models import Event, Registration
from matches.models import Round, RoundState
from push import notices
from push.models import EventPush, PushSubscription, Trigger


def due_warnings(now: dt.datetime) -> list[tuple[str, int]]:
    """Rounds with at most ten minutes left, events whose deck registration closes within ten."""
    soon = now + notices.WARNING
    rounds = Round.objects.filter(state=RoundState.RUNNING, ends_at__gt=now, ends_at__lte=soon)
    events = Event.objects.filter(decklist_deadline__gt=now, decklist_deadline__lte=soon)
    return [(str(Trigger.ROUND_ENDING), pk) for pk in rounds.values_list("pk", flat=True)] + [
        (str(Trigger.DECK_DEADLINE), pk) for pk in events.values_list("pk", flat=True)
    ]


def waiting_seats() -> list[tuple[int, int, int]]:
    """(seat id, its player's user id, picks made) of every seat holding a pack in a drafting
    pod whose player chose "a pack is waiting" and has a browser to notify."""
    held = (
        Pack.objects.filter(
            holder__isnull=False, pod__state=PodState.DRAFTING, holder__registration__user__isnull=False
        )
        .values_list("holder_id", "holder__registration__user_id", "pod__event_id", "holder__pile_ids")
        .distinct()
    )
    rows = {(seat, user, event, len(pile or [])) for seat, user, event, pile in held}
    if not rows:
        return []
    chosen = set(
        EventPush.objects.filter(
            pack_waiting=True, user_id__in={r[1] for r in rows}, event_id__in={r[2] for r in rows}
        ).values_list("user_id", "event_id")
    )
    with_browser = set(
        PushSubscription.objects.filter(user_id__in={u for u, _ in chosen}).values_list("user_id", flat=True)
    )
    return sorted(
        (seat, user, picks) for seat, user, event, picks in rows if (user, event) in chosen and user in with_browser
    )


def current_event_id(user, today: dt.date | None = None) -> int | None:
    """The event a player is at: the first of theirs dated yesterday or later (an event may run
    past midnight); ``None`` for a stranger or someone with none."""
    if not getattr(user, "is_authenticated", False):
        return None
    today = today or timezone.localdate()
    return (
        Registration.objects.filter(user=user, event__date__gte=today - dt.timedelta(days=1))
        .order_by("event__date", "event_id")
        .values_list("event_id", flat=True)
        .first()
    )


def event_push(event_id: int, user) -> EventPush | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return EventPush.objects.filter(event_id=event_id, user=user).first()
