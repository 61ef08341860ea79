"""The organiser's CSV of an event's players (issue 46 item 9): registrations with check-in,
seat and drop, then the waitlist in its order; read back with Python's csv module, reached by
following the event page's link, and refused to anyone but the organisers."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts import services
from accounts.exports import PLAYER_COLUMNS
from accounts.models import Profile
from events import services as draft_services
from events.access import SYSTEM
from matches import services as match_services
from matches.models import PairingMode
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
NOW = dt.datetime(2026, 12, 5, 10, 0, tzinfo=dt.UTC)


def read(body: bytes) -> list[dict]:
    return list(csv.DictReader(io.StringIO(body.decode("utf-8"))))


@pytest.fixture
def desk(event, organiser):
    """Three registered (one checked in, one a guest whose name would be a formula, one
    dropped) and two waiting."""
    link = services.open_registration(event_id=event.pk, actor=organiser, now=NOW, capacity=3, waitlist=True)
    ann = UserFactory(username="ann")
    Profile.objects.create(user=ann, display_name="Ann Able")
    services.join_event(token=link.token, user=ann, now=NOW)
    services.join_event(token=link.token, user=UserFactory(username="bob"), now=NOW)
    draft_services.register_player(event_id=event.pk, name="=HYPERLINK(1)", actor=SYSTEM)
    for name in ("wait1", "wait2"):
        services.join_event(token=link.token, user=UserFactory(username=name), now=NOW)
    services.set_check_in_open(event_id=event.pk, actor=organiser, now=NOW, is_open=True)
    services.check_in(event_id=event.pk, user=ann, now=NOW)
    match_services.configure_matches(event_id=event.pk, actor=organiser, mode=PairingMode.ACROSS_EVENT, swiss_rounds=3)
    bob = event.registrations.get(user__username="bob")
    match_services.drop_player(event_id=event.pk, registration_id=bob.pk, actor=organiser)
    return event


def test_the_event_page_link_gives_the_players_csv(desk, organiser):
    page = Client()
    page.force_login(organiser)
    html = page.get(f"/events/{desk.pk}/").content.decode()
    href = re.search(r'href="([^"]+)" id="players-csv"', html).group(1)
    response = page.get(href)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert f'filename="event-{desk.pk}-players.csv"' in response["Content-Disposition"]
    rows = read(response.content)
    assert list(rows[0]) == PLAYER_COLUMNS
    by_name = {row["name"]: row for row in rows}
    assert [row["status"] for row in rows] == ["registered"] * 3 + ["waitlisted"] * 2
    ann = by_name["Ann Able"]
    assert (ann["username"], ann["checked_in"], ann["dropped"]) == ("ann", "yes", "no") and ann["checked_in_at"]
    assert by_name["bob"]["dropped"] == "yes" and by_name["bob"]["dropped_after_round"] == "0"
    # A guest's typed name never starts a spreadsheet formula.
    assert by_name["'=HYPERLINK(1)"]["username"] == ""
    assert [(r["name"], r["waitlist_place"]) for r in rows if r["status"] == "waitlisted"] == [
        ("wait1", "1"),
        ("wait2", "2"),
    ]


def test_the_api_gives_the_same_csv_to_organisers_only(desk, organiser):
    api = APIClient()
    api.force_authenticate(organiser)
    response = api.get(f"/api/events/{desk.pk}/players.csv")
    assert response.status_code == 200
    assert len(read(response.content)) == 5
    player = APIClient()
    player.force_authenticate(desk.registrations.get(user__username="ann").user)
    assert player.get(f"/api/events/{desk.pk}/players.csv").status_code == 403
    assert APIClient().get(f"/api/events/{desk.pk}/players.csv").status_code == 401
    page = Client()
    page.force_login(UserFactory(username="wait1"))
    assert page.get(f"/events/{desk.pk}/registration/players.csv").status_code == 403
