"""Check-in before seating: players from their phone, staff on a list; once check-in is open,
seating takes the checked-in players only, and the organiser sees who is missing."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from accounts import error_codes, services
from accounts.models import CheckIn
from drafts import services as draft_services
from drafts.models import Seat
from draftsite.errors import DomainError, ForbiddenError
from events import services as event_services
from events.access import SYSTEM
from events.models import EventStaff, Registration, StaffRole
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
NOW = dt.datetime(2026, 12, 5, 10, 0, tzinfo=dt.UTC)


def names_listed(html):
    """The player names in a check-in list's items (each item ends with its form, then the name)."""
    return re.findall(r"</form> (\S+)</li>", html)


@pytest.fixture
def registered(event):
    users = [UserFactory(username=f"p{i}") for i in range(4)]
    for user in users:
        event_services.register_player(event_id=event.pk, user=user, actor=SYSTEM)
    return users


def test_player_checks_in_only_while_open_and_once(event, organiser, registered):
    with pytest.raises(DomainError) as exc:
        services.check_in(event_id=event.pk, user=registered[0], now=NOW)
    assert exc.value.code == error_codes.CHECK_IN_CLOSED
    services.set_check_in_open(event_id=event.pk, actor=organiser, now=NOW, is_open=True)
    services.check_in(event_id=event.pk, user=registered[0], now=NOW)
    services.check_in(event_id=event.pk, user=registered[0], now=NOW)  # a double tap
    assert CheckIn.objects.filter(registration__event=event).count() == 1
    with pytest.raises(DomainError) as exc:
        services.check_in(event_id=event.pk, user=UserFactory(), now=NOW)
    assert exc.value.code == error_codes.NOT_REGISTERED


def test_seating_takes_checked_in_players_only(event, organiser, registered):
    draft_services.seat_players(event_id=event.pk, seed=3, actor=organiser)
    assert Seat.objects.filter(pod__event=event).count() == 4  # no check-in opened: everyone
    services.set_check_in_open(event_id=event.pk, actor=organiser, now=NOW, is_open=True)
    for user in registered[:3]:
        services.check_in(event_id=event.pk, user=user, now=NOW)
    draft_services.seat_players(event_id=event.pk, seed=3, actor=organiser)
    seated = set(Seat.objects.filter(pod__event=event).values_list("registration__user__username", flat=True))
    assert seated == {"p0", "p1", "p2"}


def test_staff_tick_and_untick_and_others_may_not(event, organiser, registered):
    judge = UserFactory(username="judge")
    EventStaff.objects.create(event=event, user=judge, role=StaffRole.JUDGE)
    reg = Registration.objects.get(event=event, user=registered[1])
    services.staff_check_in(event_id=event.pk, registration_id=reg.pk, actor=judge, now=NOW, checked=True)
    assert CheckIn.objects.get(registration=reg).by == judge
    services.staff_check_in(event_id=event.pk, registration_id=reg.pk, actor=judge, now=NOW, checked=False)
    assert not CheckIn.objects.filter(registration=reg).exists()
    with pytest.raises(ForbiddenError):
        services.staff_check_in(event_id=event.pk, registration_id=reg.pk, actor=registered[0], now=NOW, checked=True)
    with pytest.raises(ForbiddenError):
        services.set_check_in_open(event_id=event.pk, actor=judge, now=NOW, is_open=True)
    with pytest.raises(DomainError) as exc:
        services.staff_check_in(event_id=event.pk, registration_id=10**9, actor=judge, now=NOW, checked=True)
    assert exc.value.code == error_codes.UNKNOWN_REGISTRATION


def test_the_list_shows_who_is_missing_and_updates(client, event, organiser, registered):
    client.force_login(organiser)
    url = f"/events/{event.pk}/check-in/list/"
    client.post(url, {"action": "open"})
    reg = Registration.objects.get(event=event, user=registered[2])
    client.post(url, {"action": "check", "registration": reg.pk})
    fragment = client.get(url + "?fragment=1").content.decode()
    missing, here = (names_listed(part) for part in fragment.split('id="check-in-here"'))
    assert here == ["p2"] and missing == ["p0", "p1", "p3"]
    assert "1 of 4 checked in." in fragment
    assert client.post(url, {"action": "check", "registration": "x"}).status_code == 302  # an error message
    # A player checks in from their phone: the list has them on its next read.
    phone = client.__class__()
    phone.force_login(registered[0])
    assert phone.post(f"/events/{event.pk}/check-in/").status_code == 302
    assert "2 of 4 checked in." in client.get(url + "?fragment=1").content.decode()
