"""A player added by the organiser (by username, by the API, by a CSV list) is shown by the name
they chose for their account, like one who joined by link: on pairings and standings, which read
the registration's name (issue 46 item 7)."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import Profile
from accounts.services.invitations import import_players
from events.models import Registration
from matches import services as match_services
from matches.models import PairingMode
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def account(username: str, display_name: str):
    user = UserFactory(username=username, email=f"{username}@example.test")
    Profile.objects.create(user=user, display_name=display_name)
    return user


def test_players_added_by_username_api_or_csv_show_their_display_name(event, organiser):
    dana, api_user, zed = account("dana", "Dana Display"), account("api_amy", "Amy Api"), account("zed", "Zed Zebra")
    plain = UserFactory(username="plain_paul")  # no display name: the username is all there is
    page = Client()
    page.force_login(organiser)
    page.post(f"/events/{event.pk}/register/", {"username": "dana"})
    page.post(f"/events/{event.pk}/register/", {"username": "plain_paul"})
    api = APIClient()
    api.force_authenticate(organiser)
    assert api.post(f"/api/events/{event.pk}/registrations/", {"username": "api_amy"}, format="json").status_code == 201
    import_players(event_id=event.pk, actor=organiser, text="zed,zed@example.test,zed\n")
    names = dict(Registration.objects.filter(event=event).values_list("user__username", "name"))
    assert names == {"dana": "Dana Display", "api_amy": "Amy Api", "zed": "Zed Zebra", "plain_paul": "plain_paul"}
    assert {dana.pk, api_user.pk, zed.pk, plain.pk} == set(Registration.objects.values_list("user_id", flat=True))

    # The pages that show players: pairings and standings.
    match_services.configure_matches(event_id=event.pk, actor=organiser, mode=PairingMode.ACROSS_EVENT, swiss_rounds=3)
    match_services.pair_next_round(event_id=event.pk, actor=organiser)
    for url in (f"/matches/events/{event.pk}/", f"/matches/events/{event.pk}/standings/"):
        html = page.get(url).content.decode()
        assert "Dana Display" in html and "Zed Zebra" in html and "Amy Api" in html, url
        assert ">dana<" not in html and ">zed<" not in html


def test_two_accounts_with_one_display_name_are_told_apart_by_username(event, organiser):
    account("ann1", "Ann")
    account("ann2", "Ann")
    page = Client()
    page.force_login(organiser)
    page.post(f"/events/{event.pk}/register/", {"username": "ann1"})
    page.post(f"/events/{event.pk}/register/", {"username": "ann2"})
    assert sorted(Registration.objects.filter(event=event).values_list("name", flat=True)) == ["Ann", "Ann (ann2)"]
