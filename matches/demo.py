"""The demo event's matches: set up (per pod, three rounds, 50 minutes) so the organiser can
pair, run and close three rounds in the browser and print the standings."""

from __future__ import annotations

from django.db import transaction

from matches import selectors, services
from matches.models import PairingMode

DEMO_SEED = 2026


@transaction.atomic
def set_up_demo_matches(event) -> None:
    """Idempotent: an event whose matches are already set up is left as it is."""
    if selectors.match_settings(event.pk) is not None:
        return
    organiser = event.staff.filter(role="organiser").select_related("user").first().user
    services.configure_matches(
        event_id=event.pk, actor=organiser, mode=PairingMode.PER_POD, round_minutes=50, seed=DEMO_SEED
    )


def add_to_demo(event) -> str:
    """The demo command's part (``drafts.extensions``): the draft event's matches, and where to run them."""
    set_up_demo_matches(event)
    return (
        f"Matches: the organiser pairs and runs the pod's three Swiss rounds at "
        f"/matches/events/{event.pk}/; players report at /matches/events/{event.pk}/me/; "
        f"standings at /matches/events/{event.pk}/standings/ "
        f"(or: manage.py print_standings {event.pk})."
    )
