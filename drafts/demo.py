"""Demo data for a new user's first look: accounts for every role and the bundled cards."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction

from events import roles


@dataclass(frozen=True)
class DemoAccount:
    username: str
    password: str
    role: str


DEMO_ACCOUNTS = (
    DemoAccount("organiser", "demo-organiser", roles.ORGANISER),
    DemoAccount("headjudge", "demo-headjudge", roles.HEAD_JUDGE),
    DemoAccount("judge", "demo-judge", roles.JUDGE),
    *(DemoAccount(f"player{n}", f"demo-player{n}", roles.PLAYER) for n in range(1, 9)),
)


@transaction.atomic
def create_demo_accounts() -> list[DemoAccount]:
    """Create (or reset) the demo accounts with their role groups. Idempotent."""
    User = get_user_model()
    for account in DEMO_ACCOUNTS:
        user, _ = User.objects.get_or_create(username=account.username)
        user.set_password(account.password)
        user.is_staff = account.role in (roles.ORGANISER, roles.HEAD_JUDGE)
        user.save()
        group, _ = Group.objects.get_or_create(name=account.role)
        user.groups.add(group)
    return list(DEMO_ACCOUNTS)


DEMO_EVENT_NAME = "Friday Night Draft: Innistrad"
RETIRED_SUFFIX = " (earlier demo run)"


def retire_demo_event(name: str) -> None:
    """Make way for a fresh demo event called ``name`` (``make demo`` run again restores the
    state the README describes). The old one is deleted; one that keeps records the site
    never deletes (a penalty and its audit trail) is renamed instead, out of the demo's way."""
    from django.db import DatabaseError
    from django.db.models import ProtectedError, RestrictedError

    from events.models import Event

    for event in Event.objects.filter(name=name):
        try:
            with transaction.atomic():
                event.pods.all().delete()  # the seats first: a seat protects its registration
                event.delete()
        except (ProtectedError, RestrictedError, DatabaseError):
            Event.objects.filter(pk=event.pk).update(name=(name + RETIRED_SUFFIX)[:200])


def new_demo_event(name: str, now, **settings) -> tuple:
    """A fresh demo event called ``name`` (the earlier one makes way: :func:`retire_demo_event`)
    of Innistrad at competitive enforcement, created by the demo organiser with ``settings``;
    the demo's head judge and judge on its staff and players 1-8 registered. Returns the event,
    the organiser and the players' registrations, in order."""
    from drafts import services
    from events import services as event_services
    from events.access import SYSTEM
    from events.models import EventStaff, StaffRole

    retire_demo_event(name)
    User = get_user_model()
    organiser = User.objects.get(username="organiser")
    event = services.create_event(
        name=name, date=now.date(), created_by=organiser, set_codes=["ISD"], enforcement_level="competitive", **settings
    )
    EventStaff.objects.get_or_create(
        event=event, user=User.objects.get(username="headjudge"), role=StaffRole.HEAD_JUDGE
    )
    EventStaff.objects.get_or_create(event=event, user=User.objects.get(username="judge"), role=StaffRole.JUDGE)
    registrations = [
        event_services.register_player(event_id=event.pk, user=User.objects.get(username=f"player{n}"), actor=SYSTEM)
        for n in range(1, 9)
    ]
    return event, organiser, registrations


def create_demo_event(now=None):
    """An Innistrad booster draft with every demo player seated and round 1 under way.

    The pick timer is off so the pod waits for whoever opens the demo; players 2-8 have
    already made their first pick, so player 1 has a queue and the board has DFCs on it.
    Run again, it starts over: the earlier demo event makes way (:func:`retire_demo_event`).
    """
    from django.utils import timezone

    from drafts import services
    from drafts.models import DraftCard, Pack, Seat
    from events.access import SYSTEM

    now = now or timezone.now()
    event, organiser, registrations = new_demo_event(DEMO_EVENT_NAME, now, pick_timer=False)
    (pod,) = services.seat_players(event_id=event.pk, seed=2011, pods=[[r.pk for r in registrations]], actor=SYSTEM)
    services.start_pod(pod_id=pod.pk, actor=organiser, now=now)
    for seat in Seat.objects.filter(pod=pod, position__gt=0).order_by("position"):
        pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
        card = DraftCard.objects.in_pack(pack).order_by("-is_dfc", "place").first()
        services.make_pick(seat_id=seat.pk, draft_card_id=card.pk, actor=seat.registration.user, now=now)
    return event
