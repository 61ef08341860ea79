"""A waitlisted player sees their place in line on the event page and on the join page, and can
leave the waitlist there or through the API; a full event without a waitlist says it is full
instead of offering to join (issue 46 item 6)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts import error_codes, services
from accounts.models import WaitlistEntry
from events.models import EventLogEntry
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
NOW = dt.datetime(2026, 12, 5, 10, 0, tzinfo=dt.UTC)


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def form_action(html: str, button_id: str) -> str:
    """The action of the form whose button has ``button_id`` (a link is tested by following it)."""
    pattern = r'<form method="post" action="([^"]+)">(?:(?!</form>).)*id="' + re.escape(button_id) + '"'
    match = re.search(pattern, html, re.S)
    assert match, button_id
    return match.group(1)


@pytest.fixture
def full_event(event, organiser):
    link = services.open_registration(event_id=event.pk, actor=organiser, now=NOW, capacity=1, waitlist=True)
    for name in ("first", "second", "third"):
        services.join_event(token=link.token, user=UserFactory(username=name), now=NOW + dt.timedelta(minutes=1))
    return event, link


def test_the_event_page_shows_the_place_in_line_and_leaves_the_waitlist(full_event):
    event, link = full_event
    third = UserFactory(username="third")
    client = signed_in(third)
    html = client.get(f"/events/{event.pk}/").content.decode()
    assert "You are number 2 on the waitlist." in html
    assert "Register me" not in html
    response = client.post(form_action(html, "leave-waitlist"), follow=True)
    assert response.status_code == 200
    assert "You have left the waitlist of" in response.content.decode()
    assert not WaitlistEntry.objects.filter(event=event, user=third).exists()
    assert EventLogEntry.objects.filter(event=event, action="waitlist_left").count() == 1
    # Off the waitlist, the page offers to join again.
    assert "Register me" in client.get(f"/events/{event.pk}/").content.decode()


def test_the_join_page_shows_the_place_and_a_way_out(full_event):
    event, link = full_event
    second = UserFactory(username="second")
    client = signed_in(second)
    html = client.get(f"/join/{link.token}/").content.decode()
    assert "You are number 1 on the waitlist." in html and "join-button" not in html
    client.post(form_action(html, "leave-waitlist"))
    assert not WaitlistEntry.objects.filter(event=event, user=second).exists()
    # The third moved up to first in line.
    third = signed_in(UserFactory(username="third"))
    assert "You are number 1 on the waitlist." in third.get(f"/events/{event.pk}/").content.decode()
    # Full with a waitlist: joining means the waitlist, and the button says so.
    html = signed_in(UserFactory(username="newcomer")).get(f"/join/{link.token}/").content.decode()
    assert "Join the waitlist" in html and "Join this event" not in html


def test_a_full_event_without_a_waitlist_says_it_is_full(event, organiser):
    link = services.open_registration(event_id=event.pk, actor=organiser, now=NOW, capacity=1, waitlist=False)
    services.join_event(token=link.token, user=UserFactory(username="first"), now=NOW)
    client = signed_in(UserFactory(username="late"))
    join_page = client.get(f"/join/{link.token}/").content.decode()
    assert "This event is full." in join_page
    assert "join-button" not in join_page and "Join this event" not in join_page
    event_page = client.get(f"/events/{event.pk}/").content.decode()
    assert "This event is full." in event_page and "Register me" not in event_page


def test_the_api_reads_the_place_and_leaves_the_waitlist(full_event):
    event, link = full_event
    api = APIClient()
    api.force_authenticate(UserFactory(username="third"))
    assert api.get(f"/api/events/{event.pk}/waitlist/").json() == {"waitlist_position": 2}
    assert api.delete(f"/api/events/{event.pk}/waitlist/").status_code == 204
    assert api.get(f"/api/events/{event.pk}/waitlist/").json() == {"waitlist_position": None}
    again = api.delete(f"/api/events/{event.pk}/waitlist/")
    assert again.status_code == 404 and again.json()["errors"][0]["code"] == error_codes.NOT_WAITLISTED
    assert api.delete("/api/events/999999/waitlist/").status_code == 404
    anonymous = APIClient().delete(f"/api/events/{event.pk}/waitlist/")
    assert anonymous.status_code == 401
