"""The signed-in home page lists the person's events, as player, judge and organiser, with links
that lead to each event's page and to the seat or dashboard (issue 46: it listed none)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from events.models import StaffRole
from tests.factories import EventFactory, EventStaffFactory, PodFactory, RegistrationFactory, SeatFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_the_home_page_lists_my_events_with_links_that_work():
    me = UserFactory(username="me")
    playing = EventFactory(name="Where I play")
    seat = SeatFactory(
        pod=PodFactory(event=playing, number=1),
        position=2,
        registration=RegistrationFactory(event=playing, user=me, name="Me"),
    )
    judging = EventFactory(name="Where I judge")
    EventStaffFactory(event=judging, user=me, role=StaffRole.JUDGE)
    running = EventFactory(name="What I run")
    EventStaffFactory(event=running, user=me, role=StaffRole.ORGANISER)
    EventFactory(name="Someone else's")
    client = Client()
    client.force_login(me)
    html = client.get("/").content.decode()
    section = re.search(r'<section aria-labelledby="mine-title" id="my-events">(.*?)</section>', html, re.S).group(1)
    events = dict(re.findall(r'<h3><a href="([^"]+)">([^<]+)</a></h3>', section))
    assert sorted(events.values()) == ["What I run", "Where I judge", "Where I play"]
    assert "Someone else" not in section
    assert "Player" in section and "Judge" in section and "Organiser" in section
    for href, name in events.items():
        page = client.get(href)
        assert page.status_code == 200 and name in page.content.decode()
    # The seat and the dashboards are links too, and they open.
    actions = re.findall(r'<a class="button(?: primary)?" href="([^"]+)"', section)
    assert f"/events/seats/{seat.pk}/" in actions
    assert f"/events/{running.pk}/dashboard/" in actions and f"/events/{judging.pk}/dashboard/" in actions
    for href in actions:
        assert client.get(href).status_code == 200, href
    assert client.get(re.search(r'href="([^"]+)" id="all-events"', section).group(1)).status_code == 200


def test_signed_out_the_home_page_asks_to_log_in(client):
    html = client.get("/").content.decode()
    assert 'id="my-events"' not in html and "to see your events." in html
