"""Fixtures for the decks tests: real catalogue cards, an event with staff and players, and
small helpers to build requests.

The suite's session fixture (tests/conftest.py) normally loads the seed catalogue; the
module-scoped ``catalogue`` fixture imports whatever a deck test needs that is still missing
(with the real ``import_cards`` command on files under cards/data), so these tests also run
on their own.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from cards.models import Card, ChecklistCard
from drafts import services as draft_services
from drafts.models import Seat
from drafts.simulation import simulate_draft
from events import services as event_services
from events.access import SYSTEM
from events.models import Registration, StaffRole
from tests.factories import EventStaffFactory, UserFactory

FIXTURES = Path(__file__).parent / "fixtures"
DATA = Path(settings.BASE_DIR) / "cards" / "data"
T0 = dt.datetime(2026, 11, 29, 15, 0, tzinfo=dt.UTC)

# file -> a card (or checklist set code) that shows it is loaded
NEEDED = [
    ("mtgjson/ISD.json.gz", "Delver of Secrets // Insectile Aberration"),
    ("mtgjson/ZNR.json.gz", "Emeria's Call // Emeria, Shattered Skyclave"),
    ("mtgjson/CHK.json.gz", "Akki Lavarunner // Tok-Tok, Volcano Born"),
    ("cockatrice/MKC.xml.gz", "Alandra, Sky Dreamer"),
    ("cockatrice/DSK.xml.gz", "Bottomless Pool // Locker Room"),
    ("cockatrice/MKM.xml.gz", "Kellan, Inquisitive Prodigy // Tail the Suspect"),
]
CHECKLIST_FILES = [("mtgjson/SZNR.json", "SZNR"), ("checklists/checklists_and_substitutes.mtgjson.json", "TISD")]


def read_fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def _restore_the_seed_if_emptied() -> None:
    """A transactional test empties every table when it ends and the next one restores the
    suite's serialized seed before it starts. This fixture runs before that restore: importing
    into the emptied tables would give the seed's cards new ids, and the restore (which writes
    the seed back under its own ids) would then clash with them. So put the seed back first,
    exactly as the restore would."""
    from django.db import connection

    from cards.models import CardSet

    serialized = getattr(connection, "_test_serialized_contents", None)
    if serialized and not CardSet.objects.exists():
        connection.creation.deserialize_db_from_string(serialized)


@pytest.fixture(scope="module")
def catalogue(django_db_setup, django_db_blocker):
    """The real cards these tests use (ISD, ZNR, CHK, MKC, DSK, MKM, checklists, SZNR)."""
    with django_db_blocker.unblock():
        _restore_the_seed_if_emptied()
        missing = [str(DATA / path) for path, name in NEEDED if not Card.objects.filter(name=name).exists()]
        missing_checklists = [
            str(DATA / path)
            for path, code in CHECKLIST_FILES
            if not ChecklistCard.objects.filter(set_code=code).exists()
        ]
        if missing or missing_checklists:
            # Checklists last (their entries link to cards already imported); re-importing
            # a file changes nothing.
            call_command("import_cards", *missing, *[str(DATA / p) for p, _ in CHECKLIST_FILES], "--quiet")
    yield


@pytest.fixture
def users(db):
    return {name: UserFactory(username=name) for name in ("org", "judge", "alice", "bob", "carol", "outsider")}


def make_event(users, *, deck_format="constructed", deadline=None, published=False, name="Friday Night"):
    event = draft_services.create_event(
        name=name, date=T0.date(), created_by=users["org"], draft_format="cube", cube_list=["Island"]
    )
    event.deck_format = deck_format
    event.decklist_deadline = deadline
    event.decklists_published = published
    event.save()
    EventStaffFactory(event=event, user=users["judge"], role=StaffRole.JUDGE)
    regs = {
        who: event_services.register_player(event_id=event.pk, user=users[who], actor=SYSTEM)
        for who in ("alice", "bob", "carol")
    }
    return event, regs


@pytest.fixture
def constructed(catalogue, users):
    return make_event(users, deck_format="constructed")


@pytest.fixture
def commander_event(catalogue, users):
    return make_event(users, deck_format="commander", name="Commander night")


def login(user):
    """A page client signed in as ``user`` (anonymous for None)."""
    from django.test import Client

    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def client_for(user):
    from rest_framework.test import APIClient

    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture
def drafted(catalogue, users):
    """A whole ISD booster draft of 8 (automatic drafters), Alice in seat 1 and Bob in seat 2;
    the org user organises it."""
    report = simulate_draft(set_code="ISD", players=8, seed=3, now=T0)
    seats = list(Seat.objects.filter(pod_id=report.pod_id).select_related("pod__event").order_by("position"))
    event = seats[0].pod.event
    for seat, who in zip(seats, ("alice", "bob")):
        Registration.objects.filter(pk=seat.registration_id).update(user=users[who], name=who)
    EventStaffFactory(event=event, user=users["org"], role="organiser")
    return event, seats
