"""The demo's paper draft: two pods of Innistrad called together (a flight), paused on the
first pick so whoever opens the demo resumes the call from the browser."""

from __future__ import annotations

import datetime as dt

from django.db import transaction

DEMO_PAPER_EVENT_NAME = "Saturday Paper Draft: Innistrad"
DEMO_PAUSE_REASON = "Demo: press Resume on the caller page to go on"


@transaction.atomic
def create_demo_paper_event(now: dt.datetime | None = None):
    """Players 1-8 and eight guests in two pods of eight, called in lockstep from five seconds
    before ``now``, paused at ``now`` on pick 1. Followers may use the pods' links; player 2 has shown a
    double-faced card on the open table. Run again, it starts over (the earlier one makes way)."""
    from django.utils import timezone

    from drafts import services as draft_services
    from drafts.demo import new_demo_event
    from events import services as event_services
    from events.access import SYSTEM
    from paper import services

    now = now or timezone.now()
    event, organiser, players = new_demo_event(DEMO_PAPER_EVENT_NAME, now, draft_format="paper")
    guests = [
        event_services.register_player(event_id=event.pk, name=name, actor=SYSTEM)
        for name in (
            "Ana Souza",
            "Bruno Lima",
            "Chiara Rossi",
            "Dmitri Ivanov",
            "Elena García",
            "Filippo Bianchi",
            "Gabriela Costa",
            "Hugo Martín",
        )
    ]
    pods = draft_services.seat_players(
        event_id=event.pk,
        seed=2026,
        pods=[[r.pk for r in players[:4] + guests[:4]], [r.pk for r in players[4:] + guests[4:]]],
        actor=SYSTEM,
    )
    flight = services.start_flight(
        event_id=event.pk, pod_ids=[p.pk for p in pods], actor=organiser, now=now - dt.timedelta(seconds=5)
    )
    services.control_flight(flight_id=flight.pk, action="pause", actor=organiser, reason=DEMO_PAUSE_REASON, now=now)
    services.set_followers_allowed(event_id=event.pk, allowed=True, actor=organiser, now=now)
    services.post_dfc(pod_id=pods[0].pk, actor=players[1].user, card="Delver of Secrets", now=now)
    return event


def add_to_demo(event) -> str:
    """The demo command's part (``drafts.extensions``): a paper draft of its own, beside ``event``."""
    paper = create_demo_paper_event()
    return (
        f"Paper draft: {paper.name} (/paper/events/{paper.pk}/), two pods called together, "
        "paused on pick 1: open a pod's caller page and press Resume."
    )
