"""A name someone chose must show (issue 46 item 14): a display name or a guest's name made
only of a right-to-left override, zero-width or invisible characters, combining marks or
spaces is refused, on sign-up, on the profile and through the API, in the reader's language."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from accounts import services
from accounts.models import Profile
from drafts import services as draft_services
from draftsite.errors import DomainError
from draftsite.names import has_visible_character
from events.models import Registration
from tests.accounts.test_accounts import signup_data
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

INVISIBLE = [
    "\u202e",  # RIGHT-TO-LEFT OVERRIDE
    "\u202e\u202e\u202e",
    "\u200b\u200b",  # ZERO WIDTH SPACE
    "\u2066\u2067\u2068\u2069",  # the isolates
    "\u0301\u0308",  # combining marks only
    "\u3164",  # HANGUL FILLER
    "\u2800",  # BRAILLE PATTERN BLANK
    "\u00a0\u200b\u202e",
]
VISIBLE = ["Ana", "\u202eAna", "Zoë", "李", "٣", "!", "\u0627\u0644\u0633"]


@pytest.mark.parametrize("name", INVISIBLE)
def test_invisible(name):
    assert not has_visible_character(name)


@pytest.mark.parametrize("name", VISIBLE)
def test_visible(name):
    assert has_visible_character(name)


@pytest.mark.parametrize("name", INVISIBLE)
def test_sign_up_refuses_an_invisible_display_name(client, name):
    response = client.post("/accounts/signup/", signup_data(display_name=name))
    assert response.status_code == 200
    assert "needs at least one visible letter, digit or symbol" in response.content.decode()
    assert not get_user_model().objects.filter(username="newbie").exists()


def test_sign_up_says_so_in_the_readers_language(client):
    response = client.post("/accounts/signup/", signup_data(display_name="\u202e"), HTTP_ACCEPT_LANGUAGE="pt-br")
    body = response.content.decode()
    assert "needs at least one visible" not in body
    assert "visível" in body


@pytest.mark.parametrize("name", INVISIBLE)
def test_the_profile_refuses_an_invisible_display_name(name):
    user = UserFactory(username="someone")
    services.update_profile(user=user, display_name="Someone", language="")
    client = Client()
    client.force_login(user)
    response = client.post("/accounts/profile/", {"display_name": name, "language": ""})
    assert response.status_code == 200
    assert "needs at least one visible letter, digit or symbol" in response.content.decode()
    assert Profile.objects.get(user=user).display_name == "Someone"


def test_an_empty_display_name_still_means_the_username():
    user = UserFactory(username="someone")
    assert services.update_profile(user=user, display_name="  ", language="").display_name == ""


def test_a_display_name_past_100_characters_is_refused_not_cut():
    user = UserFactory(username="someone")
    with pytest.raises(DomainError) as refused:
        services.update_profile(user=user, display_name="n" * 101, language="")
    assert refused.value.code == "name_too_long"
    assert services.update_profile(user=user, display_name="n" * 100, language="").display_name == "n" * 100


@pytest.mark.parametrize("name", INVISIBLE[:3])
def test_the_api_refuses_an_invisible_guest_name(name):
    organiser = UserFactory(username="org")
    event = draft_services.create_event(
        name="Friday", date=dt.date(2026, 1, 2), created_by=organiser, draft_format="cube", cube_list=["Island"]
    )
    client = APIClient()
    client.force_authenticate(organiser)
    response = client.post(f"/api/events/{event.pk}/registrations/", {"name": name}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "invalid_name"
    assert not Registration.objects.filter(event=event).exists()
    assert client.post(f"/api/events/{event.pk}/registrations/", {"name": "Guest"}, format="json").status_code == 201
