"""Every link on every page leads somewhere: crawl the site as each role and follow each link.

Asserting a URL's text proves nothing (the "Register my deck" link once pointed at a 404 and a
test checked the broken string); here each internal link is fetched and must answer.
"""

from __future__ import annotations

import re
from collections import deque
from urllib.parse import urldefrag, urlsplit

import pytest
from django.test import Client
from django.utils import timezone

from drafts import services
from drafts.models import DraftCard, Pack, PodState, Seat
from events.access import SYSTEM
from events.models import StaffRole
from tests.drafts import conftest
from tests.factories import EventStaffFactory, UserFactory

pytestmark = pytest.mark.django_db

HREF = re.compile(r'href="([^"]+)"')
# Not followed: leaving the session, the admin (its own app), and static assets (checked once).
SKIP = ("/accounts/logout/", "/admin/")
MAX_PAGES = 120


def to_deck_building(pod):
    while pod.state not in (PodState.DECK_BUILDING, PodState.DONE):
        if pod.state == PodState.REVIEWING:
            services.advance_round(pod_id=pod.pk, actor=SYSTEM)
        for seat in Seat.objects.filter(pod=pod).order_by("position"):
            pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
            if pack is not None:
                card = DraftCard.objects.in_pack(pack).first()
                services.make_pick(seat_id=seat.pk, draft_card_id=card.pk, pack_id=pack.pk, actor=SYSTEM)
        pod.refresh_from_db()


def crawl(client: Client, starts: list[str]) -> dict[str, int]:
    """Breadth-first over internal links; returns each fetched URL's final status."""
    seen: dict[str, int] = {}
    queue = deque(starts)
    while queue and len(seen) < MAX_PAGES:
        url = urldefrag(queue.popleft())[0]
        if not url or url in seen or url.startswith(SKIP):
            continue
        response = client.get(url, follow=True)
        seen[url] = response.status_code
        if "text/html" not in response.get("Content-Type", "") or url.startswith("/static/"):
            continue
        html = response.content.decode()
        # A time ending a sentence once read "2:46 p.m.." on the deck page.
        assert not re.search(r"[ap]\.m\.\.", html), f"double period on {url}"
        for href in HREF.findall(html):
            href = href.replace("&amp;", "&")
            parts = urlsplit(href)
            if parts.scheme or parts.netloc or not href.startswith("/"):
                continue  # outside links and in-page anchors
            queue.append(href)
    return seen


@pytest.fixture
def finished_pod(organiser, players, cube_names):
    pod = conftest.make_pod(organiser, players, cube_names, pick_timer=False, now=timezone.now())
    to_deck_building(pod)
    return pod


def test_every_link_on_every_page_answers_for_every_role(finished_pod, organiser, players):
    event = finished_pod.event
    judge = UserFactory(username="judy")
    EventStaffFactory(event=event, user=judge, role=StaffRole.JUDGE)
    head = UserFactory(username="hj")
    EventStaffFactory(event=event, user=head, role=StaffRole.HEAD_JUDGE)
    seat = Seat.objects.get(pod=finished_pod, registration__user=players[0])
    starts = [
        "/",
        "/events/",
        f"/events/{event.pk}/",
        f"/events/seats/{seat.pk}/",
        "/decks/",
        "/penalties/",
        "/cards/",
        "/rules/",
    ]
    for user in (players[0], organiser, judge, head):
        client = Client()
        client.force_login(user)
        statuses = crawl(client, starts)
        broken = {url: status for url, status in statuses.items() if status >= 400}
        assert not broken, f"{user.username} followed links that fail: {broken}"
        # The crawl really walked the site, including the deck registration link.
        assert len(statuses) > 10
    player = Client()
    player.force_login(players[0])
    page = player.get(f"/events/seats/{seat.pk}/").content.decode()
    deck_link = re.search(r'href="([^"]+)"[^>]*>Register my deck<', page).group(1)
    assert player.get(deck_link).status_code == 200
