"""Guests (a registration without an account) never hold a live online seat (issue 28: "paper
or automatic only"; issue 27: a live seat handed to a guest could never pick). Seating makes a
guest's online seat an automatic drafter's; handing a live seat to a guest is refused with
``guest_online_seat``, on the page (a message) and the API (400). After a hand-over the staff
pod page shows the new holder, not the previous holder's last sighting."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.contrib.messages import get_messages
from django.test import Client
from rest_framework.test import APIClient

from drafts import error_codes, presence, services
from drafts.models import PodLogEntry, Seat
from draftsite.errors import DomainError
from events import roles
from events import services as event_services
from events.access import SYSTEM
from events.models import EventStaff, StaffRole
from tests.drafts.conftest import T0, make_pod
from tests.drafts.conftest import cube_names as cube_names  # the fixture
from tests.factories import EventFactory, UserFactory

pytestmark = pytest.mark.django_db


def seat_row(page: str, position: int) -> str:
    """The staff pod page's table row of the seat at ``position``."""
    start = page.index(f'data-position="{position}"')
    return page[start : page.index("</tr>", start)]


@pytest.fixture
def boss(db):
    user = UserFactory(username="boss")
    user.groups.add(Group.objects.get_or_create(name=roles.ORGANISER)[0])
    return user


@pytest.fixture
def drafters(db):
    return [UserFactory(username=f"d{i}") for i in range(8)]


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def api_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def online_event(boss, cube_names):
    return services.create_event(
        name="Online cube", date=T0.date(), created_by=boss, draft_format="cube", cube_list=cube_names
    )


def test_seating_an_online_event_makes_a_guests_seat_automatic(boss, drafters, cube_names):
    event = online_event(boss, cube_names)
    accounts = [event_services.register_player(event_id=event.pk, user=u, actor=SYSTEM) for u in drafters[:3]]
    guest = event_services.register_player(event_id=event.pk, name="Gwen Guest", actor=boss)
    services.seat_players(event_id=event.pk, seed=3, actor=boss)
    seats = {s.registration_id: s for s in Seat.objects.filter(pod__event=event)}
    assert seats[guest.pk].is_automatic
    assert not any(seats[r.pk].is_automatic for r in accounts)


def test_seating_by_hand_through_the_api_makes_a_guests_seat_automatic(boss, drafters, cube_names):
    event = online_event(boss, cube_names)
    account = event_services.register_player(event_id=event.pk, user=drafters[0], actor=SYSTEM)
    guest = event_services.register_player(event_id=event.pk, name="Gwen Guest", actor=boss)
    answer = api_for(boss).post(f"/api/events/{event.pk}/seating/", {"pods": [[account.pk, guest.pk]]}, format="json")
    assert answer.status_code == 201
    assert Seat.objects.get(registration=guest).is_automatic
    assert not Seat.objects.get(registration=account).is_automatic


def test_seating_a_paper_event_keeps_a_guest_at_the_table(boss):
    event = EventFactory(name="Paper night", draft_format="paper")
    EventStaff.objects.create(event=event, user=boss, role=StaffRole.ORGANISER)
    guests = [event_services.register_player(event_id=event.pk, name=n, actor=boss) for n in ("Ann", "Ben")]
    services.seat_players(event_id=event.pk, seed=1, actor=boss)
    assert not Seat.objects.filter(registration__in=guests, is_automatic=True).exists()


def test_handing_a_live_seat_to_a_guest_is_refused(boss, drafters, cube_names):
    pod = make_pod(boss, drafters, cube_names, pick_timer=False)
    seat = Seat.objects.get(pod=pod, position=5)
    guest = event_services.register_player(event_id=pod.event_id, name="Gwen Guest", actor=boss)
    with pytest.raises(DomainError) as refused:
        services.hand_seat(seat_id=seat.pk, registration_id=guest.pk, actor=boss, now=T0)
    assert refused.value.code == error_codes.GUEST_ONLINE_SEAT == "guest_online_seat"
    assert refused.value.status_code == 400 and "Gwen Guest" in refused.value.message
    seat.refresh_from_db()
    assert seat.registration.user == drafters[5] and not seat.is_automatic
    assert not PodLogEntry.objects.filter(pod=pod, action="hand_seat").exists()


def test_the_api_answers_400_for_a_hand_over_to_a_guest(boss, drafters, cube_names):
    pod = make_pod(boss, drafters, cube_names, pick_timer=False)
    seat = Seat.objects.get(pod=pod, position=5)
    guest = event_services.register_player(event_id=pod.event_id, name="Gwen Guest", actor=boss)
    answer = api_for(boss).post(f"/api/seats/{seat.pk}/replace/", {"registration": guest.pk}, format="json")
    assert answer.status_code == 400 and answer.json()["errors"][0]["code"] == "guest_online_seat"
    assert Seat.objects.get(pk=seat.pk).registration.user == drafters[5]


def test_the_pod_page_says_why_a_guest_cannot_take_the_seat(boss, drafters, cube_names):
    pod = make_pod(boss, drafters, cube_names, pick_timer=False)
    seat = Seat.objects.get(pod=pod, position=5)
    guest = event_services.register_player(event_id=pod.event_id, name="Gwen Guest", actor=boss)
    answer = signed_in(boss).post(
        f"/events/pods/{pod.pk}/control/hand-seat/",
        {"confirmed": "yes", "seat": seat.pk, "registration": guest.pk},
        follow=True,
    )
    said = [str(m) for m in get_messages(answer.wsgi_request)] or [answer.content.decode()]
    assert any("Gwen Guest is a guest without an account and cannot hold an online seat" in m for m in said)
    assert Seat.objects.get(pk=seat.pk).registration.user == drafters[5]


def test_after_a_hand_over_the_pod_page_shows_the_new_holder_not_the_old_sighting(
    boss, drafters, cube_names, django_capture_on_commit_callbacks
):
    pod = make_pod(boss, drafters, cube_names, pick_timer=False)
    seat = Seat.objects.get(pod=pod, position=5)
    presence.forget([seat.pk])
    presence.touch(seat.pk, "old-holder-tab")
    presence.leave(seat.pk, "old-holder-tab")  # the old holder was seen a moment ago
    page = signed_in(boss).get(f"/events/pods/{pod.pk}/").content.decode()
    assert ", seen " in seat_row(page, seat.position)
    newcomer = UserFactory(username="newcomer")
    registration = event_services.register_player(
        event_id=pod.event_id, user=newcomer, name="Nina Newcomer", actor=boss
    )
    with django_capture_on_commit_callbacks(execute=True):
        answer = signed_in(boss).post(
            f"/events/pods/{pod.pk}/control/hand-seat/",
            {"confirmed": "yes", "seat": seat.pk, "registration": registration.pk},
        )
    assert answer.status_code == 302
    page = signed_in(boss).get(answer["Location"]).content.decode()
    row = seat_row(page, seat.position)
    assert "Nina Newcomer" in row and ", seen " not in row
    assert presence.status([seat.pk])[seat.pk] == {"connections": 0, "last_seen": None}
