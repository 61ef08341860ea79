"""Joining an event by its link: capacity, deadline, waitlist (moved up once, by email),
dropping before seating, the organiser's page with the QR code, the venue printout."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.core import mail
from django.utils import timezone

from accounts import error_codes, services
from accounts.models import Profile, WaitlistEntry
from accounts.services.joining import REGISTERED, WAITLISTED, may_hold_online_seat, require_online_seat
from draftsite.errors import DomainError, ForbiddenError
from events.models import Registration
from tests.factories import EventFactory, UserFactory

pytestmark = pytest.mark.django_db
NOW = dt.datetime(2026, 12, 5, 10, 0, tzinfo=dt.UTC)


def people(n, prefix="p"):
    return [UserFactory(username=f"{prefix}{i}", email=f"{prefix}{i}@example.test") for i in range(n)]


def test_only_an_organiser_opens_registration(event, organiser):
    with pytest.raises(ForbiddenError):
        services.open_registration(event_id=event.pk, actor=UserFactory(), now=NOW)
    with pytest.raises(DomainError) as exc:
        services.open_registration(event_id=event.pk, actor=organiser, now=NOW, capacity=0)
    assert exc.value.code == error_codes.INVALID_CAPACITY
    link = services.open_registration(event_id=event.pk, actor=organiser, now=NOW, capacity=8)
    again = services.open_registration(event_id=event.pk, actor=organiser, now=NOW, capacity=10)
    assert again.token == link.token and again.capacity == 10  # the printed QR code stays good


def test_join_registers_then_waitlists_then_refuses_when_full_without_waitlist(event, organiser):
    link = services.open_registration(event_id=event.pk, actor=organiser, now=NOW, capacity=2, waitlist=True)
    a, b, c = people(3)
    Profile.objects.create(user=a, display_name="Ann")
    first = services.join_event(token=link.token, user=a, now=NOW)
    assert first.status == REGISTERED and first.registration.name == "Ann"
    assert services.join_event(token=link.token, user=a, now=NOW).already  # twice: nothing new
    assert services.join_event(token=link.token, user=b, now=NOW).status == REGISTERED
    third = services.join_event(token=link.token, user=c, now=NOW)
    assert third.status == WAITLISTED and Registration.objects.filter(event=event).count() == 2
    services.open_registration(event_id=event.pk, actor=organiser, now=NOW, capacity=2, waitlist=False)
    with pytest.raises(DomainError) as exc:
        services.join_event(token=link.token, user=UserFactory(), now=NOW)
    assert exc.value.code == error_codes.REGISTRATION_FULL


def test_join_after_the_deadline_or_when_closed_is_refused(event, organiser):
    link = services.open_registration(event_id=event.pk, actor=organiser, now=NOW, deadline=NOW)
    with pytest.raises(DomainError) as exc:
        services.join_event(token=link.token, user=UserFactory(), now=NOW + dt.timedelta(seconds=1))
    assert exc.value.code == error_codes.REGISTRATION_CLOSED
    services.join_event(token=link.token, user=UserFactory(), now=NOW)  # on the deadline: still in
    services.close_registration(event_id=event.pk, actor=organiser, now=NOW)
    with pytest.raises(DomainError) as exc:
        services.join_event(token=link.token, user=UserFactory(), now=NOW - dt.timedelta(hours=1))
    assert exc.value.code == error_codes.REGISTRATION_CLOSED


def test_unknown_or_garbled_token_is_not_found(event):
    for token in ("nope", "a\x00b", "x" * 100):
        with pytest.raises(DomainError) as exc:
            services.join_event(token=token, user=UserFactory(), now=NOW)
        assert exc.value.code == error_codes.UNKNOWN_JOIN_LINK


def test_a_drop_moves_the_first_waitlisted_up_once_and_mails_them(event, organiser, django_capture_on_commit_callbacks):
    link = services.open_registration(event_id=event.pk, actor=organiser, now=NOW, capacity=1, waitlist=True)
    a, b, c = people(3)
    Profile.objects.create(user=b, language="it")
    services.join_event(token=link.token, user=a, now=NOW)
    services.join_event(token=link.token, user=b, now=NOW + dt.timedelta(seconds=1))
    services.join_event(token=link.token, user=c, now=NOW + dt.timedelta(seconds=2))
    with django_capture_on_commit_callbacks(execute=True):
        services.drop_registration(event_id=event.pk, user=a, now=NOW)
    assert list(Registration.objects.filter(event=event).values_list("user__username", flat=True)) == ["p1"]
    assert list(WaitlistEntry.objects.filter(event=event).values_list("user__username", flat=True)) == ["p2"]
    assert [m.to for m in mail.outbox] == [["p1@example.test"]]
    assert "lista d'attesa" in mail.outbox[0].body  # in b's language
    event_url = re.search(r"http://\S+/events/\d+/", mail.outbox[0].body).group(0)
    assert event_url.endswith(f"/events/{event.pk}/")
    # c leaves the waitlist: nothing else changes, nobody else is mailed.
    services.drop_registration(event_id=event.pk, user=c, now=NOW)
    assert not WaitlistEntry.objects.filter(event=event).exists() and len(mail.outbox) == 1


def test_raising_the_capacity_moves_the_waitlist_up(event, organiser):
    link = services.open_registration(event_id=event.pk, actor=organiser, now=NOW, capacity=1, waitlist=True)
    for user in people(3):
        services.join_event(token=link.token, user=user, now=NOW)
    services.open_registration(event_id=event.pk, actor=organiser, now=NOW, capacity=2, waitlist=True)
    assert Registration.objects.filter(event=event).count() == 2
    assert WaitlistEntry.objects.filter(event=event).count() == 1


def test_a_seated_player_cannot_drop_here(event, organiser):
    from drafts import services as draft_services

    link = services.open_registration(event_id=event.pk, actor=organiser, now=NOW)
    users = people(2)
    for user in users:
        services.join_event(token=link.token, user=user, now=NOW)
    draft_services.seat_players(event_id=event.pk, seed=1, actor=organiser)
    with pytest.raises(DomainError) as exc:
        services.drop_registration(event_id=event.pk, user=users[0], now=NOW)
    assert exc.value.code == error_codes.ALREADY_SEATED
    with pytest.raises(DomainError) as exc:
        services.drop_registration(event_id=event.pk, user=UserFactory(), now=NOW)
    assert exc.value.code == error_codes.NOT_REGISTERED


def test_guests_cannot_hold_an_online_seat(organiser):
    online, paper = EventFactory(draft_format="cube"), EventFactory(draft_format="paper")
    guest = Registration.objects.create(event=online, name="Gwen Guest")
    account = Registration.objects.create(event=online, name="Acc", user=UserFactory())
    assert not may_hold_online_seat(guest, online) and may_hold_online_seat(account, online)
    assert may_hold_online_seat(Registration.objects.create(event=paper, name="Gwen Guest"), paper)
    with pytest.raises(DomainError) as exc:
        require_online_seat(guest, online)
    assert exc.value.code == error_codes.GUEST_ONLINE_SEAT


# --- pages ----------------------------------------------------------------------------------


def test_organiser_page_opens_registration_and_shows_the_link_and_a_qr_code(client, event, organiser):
    client.force_login(organiser)
    page = client.get(f"/events/{event.pk}/registration/")
    assert page.status_code == 200 and "join-qr" not in page.content.decode()
    bad = client.post(f"/events/{event.pk}/registration/", {"capacity": "-3"})
    assert bad.status_code == 200 and "capacity" in bad.context["form"].errors
    response = client.post(f"/events/{event.pk}/registration/", {"capacity": "16", "waitlist": "on"}, follow=True)
    html = response.content.decode()
    join_url = re.search(r'id="join-url">([^<]+)<', html).group(1)
    assert re.search(r'id="join-qr"><svg[^>]*>', html)  # drawn on the server
    # The link works when followed.
    path = join_url.replace("http://testserver", "")
    assert client.get(path).status_code == 200
    venue = client.get(f"/events/{event.pk}/registration/venue/").content.decode()
    assert join_url in venue and "<svg" in venue
    for text in ("Scan the code", "Escanea el código", "Inquadra il codice", "Leia o código", "Отсканируйте код"):
        assert text in venue  # every language at the venue


def test_a_stranger_follows_the_link_signs_up_and_joins(client, event, organiser):
    link = services.open_registration(event_id=event.pk, actor=organiser, now=timezone.now(), capacity=8)
    path = f"/join/{link.token}/"
    page = client.get(path).content.decode()
    href = re.search(r'id="join-signup" href="([^"]+)"', page).group(1)
    pw = "a-long-pass-phrase-9"
    client.post(
        href.replace("&amp;", "&"),
        {"username": "nina", "email": "n@example.test", "password1": pw, "password2": pw, "next": path},
    )
    assert "join-button" in client.get(path).content.decode()
    response = client.post(path)
    assert response.status_code == 302 and response["Location"] == f"/events/{event.pk}/"
    assert Registration.objects.filter(event=event, user__username="nina").exists()
    # And drops again from the event page before seating.
    assert client.post(f"/events/{event.pk}/drop/").status_code == 302
    assert not Registration.objects.filter(event=event, user__username="nina").exists()


def test_join_post_signed_out_goes_to_the_login_page(client, event, organiser):
    link = services.open_registration(event_id=event.pk, actor=organiser, now=timezone.now())
    response = client.post(f"/join/{link.token}/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/?next=/join/")
    assert client.get("/join/not-a-token/").status_code == 404


def test_register_me_on_the_event_page_goes_through_the_join_link_once_open(client, event, organiser):
    """With registration open, the capacity counts for the event page's button too."""
    link = services.open_registration(event_id=event.pk, actor=organiser, now=timezone.now(), capacity=1)
    services.join_event(token=link.token, user=UserFactory(), now=timezone.now())
    client.force_login(UserFactory(username="late"))
    response = client.post(f"/events/{event.pk}/join/", follow=True)
    assert response.redirect_chain[0][0] == f"/join/{link.token}/"
    assert not Registration.objects.filter(event=event, user__username="late").exists()
    assert "Registration for this event is closed." not in response.content.decode()
    client.post(f"/join/{link.token}/")
    assert not Registration.objects.filter(event=event, user__username="late").exists()  # full, no waitlist


def test_the_join_page_and_the_join_take_a_bounded_number_of_queries(
    client, event, organiser, django_assert_max_num_queries
):
    """500 players join in a minute (bench/join_load): each query is a round trip, and the
    join's are made while every other joiner of the event waits on the link's lock."""
    link = services.open_registration(event_id=event.pk, actor=organiser, now=timezone.now(), capacity=8)
    path = f"/join/{link.token}/"
    services.join_event(token=link.token, user=UserFactory(), now=timezone.now())
    client.force_login(UserFactory(username="quick"))
    # Session, user, profile language, link, places (with one's own), waitlist, roles.
    with django_assert_max_num_queries(7):
        page = client.get(path).content.decode()
    assert "join-button" in page and "1 of 8 places taken." in page
    # Session, user, profile language, display name, BEGIN, then under the lock: the link,
    # places (with one's own), waitlist place, the insert in a savepoint (3), COMMIT.
    with django_assert_max_num_queries(12):
        response = client.post(path)
    assert response.status_code == 302 and response["Location"] == f"/events/{event.pk}/"
    assert Registration.objects.filter(event=event, user__username="quick").exists()
    page = client.get(path).content.decode()
    assert 'id="join-status"' in page and "You are registered for this event." in page and "2 of 8" in page


def test_a_display_name_taken_in_the_event_gets_the_username(event, organiser):
    link = services.open_registration(event_id=event.pk, actor=organiser, now=NOW, capacity=8)
    first, second = people(2, prefix="ana")
    Profile.objects.create(user=first, display_name="Ana")
    Profile.objects.create(user=second, display_name="Ana")
    services.join_event(token=link.token, user=first, now=NOW)
    result = services.join_event(token=link.token, user=second, now=NOW)
    assert result.status == REGISTERED and result.registration.name == "Ana (ana1)"
    again = services.join_event(token=link.token, user=second, now=NOW)
    assert again.already and again.registration.pk == result.registration.pk
    assert sorted(Registration.objects.filter(event=event).values_list("name", flat=True)) == ["Ana", "Ana (ana1)"]


def test_a_signed_in_join_by_an_unknown_token_is_not_found(client):
    client.force_login(UserFactory())
    assert client.post("/join/not-a-token/").status_code == 404
    assert client.post("/join/%00/").status_code == 400
