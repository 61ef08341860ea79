"""Accounts: sign-up (open or by event link only), sign-in and out, password change and reset
by email, the profile's display name and preferred language (pages and mails)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.utils import timezone

from accounts import services
from accounts.models import Profile
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
User = get_user_model()
PASSWORD = "a-long-pass-phrase-9"


def signup_data(**overrides):
    data = {
        "username": "newbie",
        "email": "newbie@example.test",
        "password1": PASSWORD,
        "password2": PASSWORD,
        "display_name": "Nina Newbie",
        "language": "es",
    }
    data.update(overrides)
    return data


def test_sign_up_creates_the_account_and_profile_and_signs_in(client):
    response = client.post("/accounts/signup/", signup_data())
    assert response.status_code == 302
    user = User.objects.get(username="newbie")
    assert user.email == "newbie@example.test" and user.check_password(PASSWORD)
    assert Profile.objects.get(user=user).display_name == "Nina Newbie"
    # Signed in, and the next page speaks the preferred language.
    page = client.get("/accounts/profile/")
    assert page.status_code == 200 and page["Content-Language"] == "es"


def test_sign_up_with_bad_input_shows_form_errors_and_creates_nothing(client):
    UserFactory(username="taken", email="taken@example.test")
    response = client.post("/accounts/signup/", signup_data(password2="other", email="TAKEN@example.test"))
    assert response.status_code == 200
    assert response.context["form"].errors.keys() >= {"password2", "email"}
    response = client.post("/accounts/signup/", signup_data(username="taken", email="x@example.test"))
    assert "username" in response.context["form"].errors
    assert not User.objects.filter(username="newbie").exists()


def test_link_only_sign_up_refuses_without_an_open_join_link(client, settings, event, organiser):
    settings.SIGNUP_MODE = "link"
    assert client.get("/accounts/signup/").status_code == 403
    assert client.post("/accounts/signup/", signup_data()).status_code == 403
    assert "nav-signup" not in client.get("/").content.decode()
    link = services.open_registration(event_id=event.pk, actor=organiser, now=timezone.now())
    join_path = f"/join/{link.token}/"
    # Follow the link as a stranger: the sign-up button carries the link along.
    page = client.get(join_path).content.decode()
    signup_href = re.search(r'id="join-signup" href="([^"]+)"', page).group(1).replace("&amp;", "&")
    assert client.get(signup_href).status_code == 200
    response = client.post(signup_href, {**signup_data(), "next": join_path})
    assert response.status_code == 302 and response["Location"] == join_path
    assert User.objects.filter(username="newbie").exists()
    services.close_registration(event_id=event.pk, actor=organiser, now=timezone.now())
    assert client.get(f"/accounts/signup/?next={join_path}").status_code in (302, 403)  # signed in now: redirect


def test_sign_in_and_out(client):
    UserFactory(username="sam", password=PASSWORD)
    response = client.post("/accounts/login/", {"username": "sam", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get("/accounts/profile/").status_code == 200
    client.post("/accounts/logout/")
    assert client.get("/accounts/profile/").status_code == 302  # to the login page


def test_login_throttle_still_locks_the_html_login(client, settings):
    settings.LOGIN_FAILURE_LIMIT = 2
    UserFactory(username="sam", password=PASSWORD)
    for _ in range(2):
        client.post("/accounts/login/", {"username": "sam", "password": "wrong"})
    assert client.post("/accounts/login/", {"username": "sam", "password": PASSWORD}).status_code == 429


def test_password_change(client):
    user = UserFactory(username="sam", password=PASSWORD)
    client.force_login(user)
    assert client.get("/accounts/password/change/").status_code == 200
    bad = client.post(
        "/accounts/password/change/",
        {"old_password": "wrong", "new_password1": "x-new-phrase-77", "new_password2": "x-new-phrase-77"},
    )
    assert bad.status_code == 200 and "old_password" in bad.context["form"].errors
    response = client.post(
        "/accounts/password/change/",
        {"old_password": PASSWORD, "new_password1": "x-new-phrase-77", "new_password2": "x-new-phrase-77"},
        follow=True,
    )
    assert response.redirect_chain[-1][0] == "/accounts/password/change/done/"
    user.refresh_from_db()
    assert user.check_password("x-new-phrase-77")


def test_password_reset_by_email_in_the_accounts_language(client):
    user = UserFactory(username="sam", email="sam@example.test", password=PASSWORD)
    Profile.objects.create(user=user, language="pt-br")
    # Asked for from an English page: the mail is still in the account's Portuguese.
    response = client.post("/accounts/password/reset/", {"email": "sam@example.test"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 302 and response["Location"] == "/accounts/password/reset/done/"
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["sam@example.test"]
    assert "senha" in message.body.lower()  # Django's own reset mail, translated
    # Follow the link in the mail, set a new password, sign in with it.
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", message.body).group(1)
    page = client.get(link, follow=True)
    assert page.status_code == 200 and page.context["validlink"]
    done = client.post(
        page.redirect_chain[-1][0], {"new_password1": "x-new-phrase-77", "new_password2": "x-new-phrase-77"}
    )
    assert done.status_code == 302 and done["Location"] == "/accounts/reset/done/"
    user.refresh_from_db()
    assert user.check_password("x-new-phrase-77")
    # Used once: the same link is no longer valid.
    assert not client.get(link, follow=True).context["validlink"]


def test_password_reset_for_an_unknown_address_sends_nothing_and_says_the_same(client):
    response = client.post("/accounts/password/reset/", {"email": "nobody@example.test"})
    assert response.status_code == 302 and mail.outbox == []


def test_profile_language_wins_over_the_cookie_and_the_switcher_updates_it(client):
    user = UserFactory(username="sam")
    client.force_login(user)
    response = client.post(
        "/accounts/profile/",
        {"display_name": "Sammy", "language": "ru", "email_pairings": "on"},
        HTTP_ACCEPT_LANGUAGE="it",
    )
    assert response.status_code == 302
    profile = Profile.objects.get(user=user)
    assert (profile.display_name, profile.language, profile.email_pairings) == ("Sammy", "ru", True)
    assert client.get("/events/", HTTP_ACCEPT_LANGUAGE="it")["Content-Language"] == "ru"
    client.post("/i18n/setlang/", {"language": "it", "next": "/"})
    profile.refresh_from_db()
    assert profile.language == "it"
    assert client.get("/events/")["Content-Language"] == "it"


def test_profile_refuses_an_unknown_language(client):
    user = UserFactory(username="sam")
    client.force_login(user)
    response = client.post("/accounts/profile/", {"display_name": "S", "language": "xx"})
    assert response.status_code == 200 and "language" in response.context["form"].errors
    assert not Profile.objects.filter(user=user).exists()


def test_user_mail_is_written_in_the_readers_language(event):
    from accounts.services.mail import render_user_mail

    user = UserFactory(username="sam", email="sam@example.test")
    Profile.objects.create(user=user, language="es", display_name="Samuel")
    subject, body = render_user_mail(user, "moved_up", {"event": event, "url": "http://x/"})
    assert "Friday Draft" in subject and "Samuel" in body
    assert "lista de espera" in body


@pytest.mark.parametrize(
    "language, welcome",
    [
        ("pt-br", "Bem-vindo! Sua conta está pronta."),
        ("es", "¡Bienvenido! Tu cuenta está lista."),
        ("it", "Benvenuto! Il tuo account è pronto."),
        ("ru", "Добро пожаловать! Учётная запись готова."),
    ],
)
def test_sign_up_welcomes_in_the_language_chosen_on_the_form(client, language, welcome):
    """Issue 46: the language picked at sign-up applies to that very response, not only to the
    next page (the browser here asks for English)."""
    response = client.post("/accounts/signup/", signup_data(language=language), HTTP_ACCEPT_LANGUAGE="en", follow=True)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Welcome! Your account is ready." not in html
    assert welcome in html
