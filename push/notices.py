"""What each push says and to whom: reads only. A notice names a table, an opponent, a round,
a pod and seat, a deadline or an organiser's words, never a card (a pack's cards and other
players' decks are hidden information), so no payload can leak one.

``audience(kind, object_id)`` is every user who chose that trigger for the event and has a
browser to notify; ``render(kind, object_id, user_id)`` is that user's payload in their
language (``None`` when there is nothing to say any more)."""

from __future__ import annotations

import dataclasses
import datetime as dt

from django.conf import settings
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from accounts.models import CheckIn, Profile
from drafts.models import Pack, Pod, PodState, Seat
from events.models import Event, Registration
from judgecalls.models import CallStatus, JudgeCall
from matches.models import Match, Round, RoundState
from push.models import Announcement, EventPush, PushSubscription, Trigger

ANNOUNCEMENT = "announcement"
KINDS = (*Trigger.values, ANNOUNCEMENT)
# How long a push service may hold a notice for a phone that is off: past that it is stale.
TTL_SECONDS = {
    Trigger.PAIRINGS: 3600,
    Trigger.DRAFT_START: 1800,
    Trigger.PACK_WAITING: 120,
    Trigger.DECK_DEADLINE: 600,
    Trigger.JUDGE: 900,
    Trigger.ROUND_ENDING: 600,
    ANNOUNCEMENT: 3600,
}
WARNING = dt.timedelta(minutes=10)  # "10 minutes left", "closes in 10 minutes"
# Notices that go at most once per user and key (PushSent); the others are events that happen once.
ONCE = (Trigger.PACK_WAITING, Trigger.DECK_DEADLINE, Trigger.ROUND_ENDING)


@dataclasses.dataclass(frozen=True)
class Notice:
    title: str
    body: str
    url: str
    tag: str
    # The PushSent key of a notice sent at most once ("" for the others).
    once_key: str = ""


def language_of(user_id: int) -> str:
    language = Profile.objects.filter(user_id=user_id).values_list("language", flat=True).first()
    return language or settings.LANGUAGE_CODE


def _event_id(kind: str, object_id: int) -> int | None:
    if kind in (Trigger.PAIRINGS, Trigger.ROUND_ENDING):
        return Round.objects.filter(pk=object_id).values_list("event_id", flat=True).first()
    if kind == Trigger.DRAFT_START:
        return Pod.objects.filter(pk=object_id).values_list("event_id", flat=True).first()
    if kind == Trigger.PACK_WAITING:
        return Seat.objects.filter(pk=object_id).values_list("pod__event_id", flat=True).first()
    if kind == Trigger.JUDGE:
        return JudgeCall.objects.filter(pk=object_id).values_list("event_id", flat=True).first()
    if kind == Trigger.DECK_DEADLINE:
        return object_id
    if kind == ANNOUNCEMENT:
        return Announcement.objects.filter(pk=object_id).values_list("event_id", flat=True).first()
    return None


def _concerned(kind: str, object_id: int, event_id: int) -> set[int]:
    """The users the object is about, before their choices."""
    if kind in (Trigger.PAIRINGS, Trigger.ROUND_ENDING):
        users: set[int] = set()
        for a, b in Match.objects.filter(round_id=object_id).values_list("player_a__user_id", "player_b__user_id"):
            users |= {a, b}
        users.discard(None)
        return users
    if kind == Trigger.DRAFT_START:
        return set(
            Seat.objects.filter(pod_id=object_id, registration__user__isnull=False).values_list(
                "registration__user_id", flat=True
            )
        )
    if kind == Trigger.PACK_WAITING:
        return set(
            Seat.objects.filter(pk=object_id, registration__user__isnull=False).values_list(
                "registration__user_id", flat=True
            )
        )
    if kind == Trigger.JUDGE:
        return set(JudgeCall.objects.filter(pk=object_id).values_list("caller__user_id", flat=True)) - {None}
    if kind == Trigger.DECK_DEADLINE:
        return set(Registration.objects.filter(event_id=event_id, user__isnull=False).values_list("user_id", flat=True))
    if kind == ANNOUNCEMENT:
        return set(
            CheckIn.objects.filter(registration__event_id=event_id, registration__user__isnull=False).values_list(
                "registration__user_id", flat=True
            )
        )
    return set()


def audience(kind: str, object_id: int) -> list[int]:
    """Who gets this notice: concerned, opted in to the trigger for the event, with a browser."""
    event_id = _event_id(kind, object_id)
    if event_id is None:
        return []
    users = _concerned(kind, object_id, event_id)
    if not users:
        return []
    chosen = EventPush.objects.filter(event_id=event_id, user_id__in=users)
    if kind != ANNOUNCEMENT:
        chosen = chosen.filter(**{kind: True})
    wanted = set(chosen.values_list("user_id", flat=True))
    with_browser = set(PushSubscription.objects.filter(user_id__in=wanted).values_list("user_id", flat=True))
    return sorted(with_browser)


def render(kind: str, object_id: int, user_id: int, now: dt.datetime | None = None) -> Notice | None:
    """The user's notice, in their language; ``None`` when it no longer applies."""
    with translation.override(language_of(user_id)):
        return _RENDERERS[kind](object_id, user_id, now or timezone.now())


def _registration_name(registration: Registration | None) -> str:
    return registration.name if registration is not None else ""


def _pairings(round_id: int, user_id: int, now) -> Notice | None:
    mine = Q(player_a__user_id=user_id) | Q(player_b__user_id=user_id)
    match = Match.objects.filter(mine, round_id=round_id).select_related("round", "player_a", "player_b").first()
    if match is None:
        return None
    mine_a = match.player_a.user_id == user_id
    opponent = match.player_b if mine_a else match.player_a
    title = gettext("Round %(number)s is paired") % {"number": match.round.number}
    if opponent is None or match.table == 0:
        body = gettext("You have a bye this round.")
    else:
        body = gettext("Table %(table)s against %(opponent)s") % {
            "table": match.table,
            "opponent": _registration_name(opponent),
        }
    url = reverse("matches:me", args=[match.round.event_id])
    return Notice(title, body, url, tag=f"round-{round_id}")


def _draft_start(pod_id: int, user_id: int, now) -> Notice | None:
    seat = Seat.objects.filter(pod_id=pod_id, registration__user_id=user_id).select_related("pod").first()
    if seat is None:
        return None
    pod = seat.pod
    where = {"pod": pod.number, "seat": seat.position + 1}
    if pod.state == PodState.NOT_STARTED:
        title = gettext("You are seated")
        body = gettext("Pod %(pod)s, seat %(seat)s. The draft starts soon.") % where
    else:
        title = gettext("Your draft is starting")
        body = gettext("Pod %(pod)s, seat %(seat)s: your first pack is waiting.") % where
    return Notice(title, body, reverse("drafts:seat", args=[seat.pk]), tag=f"pod-{pod_id}")


def _pack_waiting(seat_id: int, user_id: int, now) -> Notice | None:
    seat = Seat.objects.filter(pk=seat_id, registration__user_id=user_id).select_related("pod").first()
    if seat is None or seat.pod.state != PodState.DRAFTING or not Pack.objects.filter(holder=seat).exists():
        return None
    # One wait ends with a pick: the number of picks made names the wait (at most one push each).
    wait = len(seat.pile_ids)
    return Notice(
        gettext("A pack is waiting for you"),
        gettext("Pod %(pod)s: pick %(pick)s is yours to make.") % {"pod": seat.pod.number, "pick": wait + 1},
        reverse("drafts:seat", args=[seat.pk]),
        tag=f"seat-{seat_id}",
        once_key=f"pack:{seat_id}:{wait}",
    )


def _deck_deadline(event_id: int, user_id: int, now) -> Notice | None:
    event = Event.objects.filter(pk=event_id).first()
    if event is None or event.decklist_deadline is None or not (now < event.decklist_deadline <= now + WARNING):
        return None
    minutes = max(1, round((event.decklist_deadline - now).total_seconds() / 60))
    return Notice(
        gettext("Deck registration closes soon"),
        gettext("%(event)s: register your deck within %(minutes)s minutes.")
        % {"event": event.name, "minutes": minutes},
        reverse("decks:my-deck", args=[event.pk]),
        tag=f"deck-deadline-{event_id}",
        once_key=f"deck-deadline:{event_id}:{event.decklist_deadline.isoformat()}",
    )


def _judge(call_id: int, user_id: int, now) -> Notice | None:
    call = JudgeCall.objects.filter(pk=call_id, caller__user_id=user_id).select_related("match__round").first()
    if call is None:
        return None
    if call.status == CallStatus.CLAIMED:
        title, body = gettext("A judge is on the way"), gettext("Stay at your table; a judge is coming.")
    elif call.status == CallStatus.RESOLVED:
        title, body = gettext("A judge answered your call"), gettext("Your judge call is resolved.")
    else:
        return None
    # Back to where the player called from: their seat, or their match page.
    if call.seat_id is not None:
        url = reverse("drafts:seat", args=[call.seat_id])
    else:
        url = reverse("matches:me", args=[call.event_id])
    return Notice(title, body, url, tag=f"call-{call_id}")


def _round_ending(round_id: int, user_id: int, now) -> Notice | None:
    round_obj = Round.objects.filter(pk=round_id).first()
    if round_obj is None or round_obj.state != RoundState.RUNNING or round_obj.ends_at is None:
        return None
    if not (now < round_obj.ends_at <= now + WARNING):
        return None
    return Notice(
        gettext("10 minutes left"),
        gettext("Round %(number)s ends in 10 minutes.") % {"number": round_obj.number},
        reverse("matches:me", args=[round_obj.event_id]),
        tag=f"round-end-{round_id}",
        once_key=f"round-ending:{round_id}",
    )


def _announcement(announcement_id: int, user_id: int, now) -> Notice | None:
    announcement = Announcement.objects.filter(pk=announcement_id).select_related("event").first()
    if announcement is None:
        return None
    return Notice(
        gettext("Announcement: %(event)s") % {"event": announcement.event.name},
        announcement.text,
        reverse("push:event", args=[announcement.event_id]),
        tag=f"announcement-{announcement_id}",
    )


_RENDERERS = {
    Trigger.PAIRINGS: _pairings,
    Trigger.DRAFT_START: _draft_start,
    Trigger.PACK_WAITING: _pack_waiting,
    Trigger.DECK_DEADLINE: _deck_deadline,
    Trigger.JUDGE: _judge,
    Trigger.ROUND_ENDING: _round_ending,
    ANNOUNCEMENT: _announcement,
}
