"""Hardening: login throttling, CSRF on every form, request size limits, uploads checked by
content, and clean 503s while the database is away (draftsite/middleware.py)."""

from __future__ import annotations

import json
import re
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import OperationalError
from django.db.backends.utils import CursorWrapper
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from events import roles
from events.models import Event, EventStaff


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def user(db):
    return get_user_model().objects.create_user("alice", password="right-password")


def _login(client, username, password, address="10.0.0.1"):
    return client.post("/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address)


# --- login throttling -------------------------------------------------------------------


def test_login_page_locks_after_repeated_failures(client, user, settings):
    settings.LOGIN_FAILURE_LIMIT = 3
    for _ in range(3):
        response = _login(client, "alice", "wrong")
        assert response.status_code == 200  # the ordinary "wrong password" form error
    locked = _login(client, "alice", "right-password")
    assert locked.status_code == 429
    assert locked["Retry-After"] == str(settings.LOGIN_LOCKOUT_SECONDS)
    body = locked.content.decode()
    assert "Too many failed sign-in attempts" in body
    assert 'role="alert"' in body  # shown as a form error
    assert "_auth_user_id" not in client.session  # the right password did not get in


def test_lock_is_per_username_and_address(client, user, settings):
    settings.LOGIN_FAILURE_LIMIT = 2
    for _ in range(2):
        _login(client, "alice", "wrong", address="10.0.0.1")
    assert _login(client, "alice", "right-password", address="10.0.0.1").status_code == 429
    # Another address is not locked out for the same account.
    other = Client()
    response = _login(other, "alice", "right-password", address="10.0.0.2")
    assert response.status_code == 302
    assert other.session["_auth_user_id"] == str(user.pk)


def test_behind_a_proxy_the_lock_uses_the_forwarded_address(client, user, settings):
    settings.LOGIN_FAILURE_LIMIT = 2
    settings.BEHIND_PROXY = True
    for _ in range(2):
        client.post(
            "/accounts/login/",
            {"username": "alice", "password": "wrong"},
            REMOTE_ADDR="10.9.9.9",
            HTTP_X_FORWARDED_FOR="203.0.113.5",
        )
    locked = client.post(
        "/accounts/login/",
        {"username": "alice", "password": "right-password"},
        REMOTE_ADDR="10.9.9.9",
        HTTP_X_FORWARDED_FOR="203.0.113.5, 10.9.9.9",
    )
    assert locked.status_code == 429
    # Another client behind the same proxy is not locked out.
    other = Client().post(
        "/accounts/login/",
        {"username": "alice", "password": "right-password"},
        REMOTE_ADDR="10.9.9.9",
        HTTP_X_FORWARDED_FOR="198.51.100.7",
    )
    assert other.status_code == 302


def test_successful_login_clears_the_failure_count(client, user, settings):
    settings.LOGIN_FAILURE_LIMIT = 3
    _login(client, "alice", "wrong")
    _login(client, "alice", "wrong")
    assert _login(client, "alice", "right-password").status_code == 302
    client.logout()
    _login(client, "alice", "wrong")
    _login(client, "alice", "wrong")
    assert _login(client, "alice", "right-password").status_code == 302


def test_token_endpoint_locked_after_failures_answers_429(api_client, user, settings):
    settings.LOGIN_FAILURE_LIMIT = 2
    for _ in range(2):
        response = api_client.post("/api/auth/token/", {"username": "alice", "password": "bad"}, format="json")
        assert response.status_code == 400
    response = api_client.post("/api/auth/token/", {"username": "alice", "password": "right-password"}, format="json")
    assert response.status_code == 429
    assert response.json()["errors"][0]["code"] == "login_locked"
    assert "Retry-After" in response


def test_token_endpoint_rate_limited_per_account_and_address(api_client, user, settings):
    """10 a minute for one account from one address (the lock is set high to see the throttle)."""
    settings.LOGIN_FAILURE_LIMIT = 1000
    codes = []
    for _ in range(12):
        response = api_client.post("/api/auth/token/", {"username": "alice", "password": "x"}, format="json")
        codes.append(response.status_code)
    assert codes[:10] == [400] * 10 and codes[10:] == [429, 429]
    assert response.json()["errors"][0]["code"] == "throttled"
    # Another account from the same address is not held back by alice's attempts.
    other = api_client.post("/api/auth/token/", {"username": "bob", "password": "x"}, format="json")
    assert other.status_code == 400


def test_a_room_of_200_players_behind_one_address_all_get_tokens_within_a_minute(api_client, db):
    """At a venue the whole room shares one address: 200 sign-ins in a minute all succeed."""
    User = get_user_model()
    User.objects.bulk_create([User(username=f"room{i}", password=make_password("pw")) for i in range(200)])
    statuses = [
        api_client.post("/api/auth/token/", {"username": f"room{i}", "password": "pw"}, format="json").status_code
        for i in range(200)
    ]
    assert statuses == [200] * 200


def test_token_endpoint_rate_limited_per_address_beyond_a_venue(api_client, db, settings):
    settings.LOGIN_ADDRESS_THROTTLE_RATE = "5/min"
    codes = [
        api_client.post("/api/auth/token/", {"username": f"nobody{i}", "password": "x"}, format="json").status_code
        for i in range(7)
    ]
    assert codes == [400] * 5 + [429, 429]


# --- CSRF on every HTML form ------------------------------------------------------------


def _page_urls():
    """Every non-API, non-admin URL pattern, with its parameters filled in."""
    found = []

    def walk(patterns, prefix):
        for entry in patterns:
            route = str(entry.pattern)
            if isinstance(entry, URLResolver):
                walk(entry.url_patterns, prefix + route)
            elif isinstance(entry, URLPattern):
                full = prefix + route
                if full.startswith(("api/", "admin/", "^")):
                    continue
                found.append(full)

    walk(get_resolver().url_patterns, "")
    urls = []
    for route in found:
        url = re.sub(r"<int:[^>]+>", "1", route)
        url = re.sub(r"<(?:str:|slug:)?[^>]+>", "x", url)
        urls.append("/" + url)
    return sorted(set(urls))


def test_page_url_list_covers_the_forms():
    urls = _page_urls()
    assert "/accounts/login/" in urls
    assert any(url.startswith("/events/") for url in urls)
    assert any(url.startswith("/decks/") for url in urls)
    assert any(url.startswith("/penalties/") for url in urls)


@pytest.mark.django_db
def test_every_page_refuses_a_post_without_csrf_token():
    staff = get_user_model().objects.create_superuser("boss", password="pw")
    staff.groups.add(Group.objects.get_or_create(name=roles.ORGANISER)[0])
    client = Client(enforce_csrf_checks=True)
    client.force_login(staff)
    events_before = Event.objects.count()
    accepted = []
    for url in _page_urls():
        response = client.post(url, {"name": "x", "username": "boss", "password": "pw"})
        if response.status_code not in (403, 404, 405):
            accepted.append((url, response.status_code))
        if response.status_code == 404:
            # Only a URL whose filled-in parameter does not resolve may 404 (no CSRF check
            # runs before the resolver); none of the parameter-free pages may.
            assert "1" in url or "x" in url, url
    assert accepted == []
    assert Event.objects.count() == events_before


@pytest.mark.django_db
def test_csrf_failure_is_a_403_for_the_login_form(user):
    client = Client(enforce_csrf_checks=True)
    response = client.post("/accounts/login/", {"username": "alice", "password": "right-password"})
    assert response.status_code == 403
    assert "_auth_user_id" not in client.session


# --- request size limits ----------------------------------------------------------------


@pytest.mark.django_db
def test_oversized_json_body_to_the_api_is_a_clean_413(api_client, settings, user):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    api_client.force_authenticate(user)
    body = json.dumps({"name": "x" * 20_000, "date": "2026-11-29"})
    response = api_client.post("/api/events/", body, content_type="application/json")
    assert response.status_code == 413
    assert response["Content-Type"].startswith("application/json")
    payload = response.json()
    assert payload["errors"][0]["code"] == "request_too_large"
    assert "limit" in payload["detail"]
    assert Event.objects.count() == 0


@pytest.mark.django_db
def test_oversized_form_body_to_a_page_is_a_friendly_413(client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1_000
    response = client.post("/accounts/login/", {"username": "u" * 5_000, "password": "x"})
    assert response.status_code == 413
    assert b"Request too large" in response.content


@pytest.mark.django_db
def test_body_too_big_without_content_length_is_still_413(rf, settings):
    """A body whose size is only found while reading (chunked) raises RequestDataTooBig."""
    from django.core.exceptions import RequestDataTooBig

    from draftsite.middleware import ResilienceMiddleware

    middleware = ResilienceMiddleware(lambda request: None)
    request = rf.post("/api/events/", "{}", content_type="application/json")
    response = middleware.process_exception(request, RequestDataTooBig("too big"))
    assert response.status_code == 413
    assert json.loads(response.content)["errors"][0]["code"] == "request_too_large"


def test_oversized_decklist_upload_is_refused_clearly(api_client, db):
    from decks import parsers

    big = ("1 Island\n" * (parsers.MAX_BYTES // 9 + 100)).encode()
    upload = SimpleUploadedFile("deck.txt", big, content_type="text/plain")
    response = api_client.post("/api/decks/parse", {"file": upload}, format="multipart")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "file_too_large"


def test_binary_file_named_deck_txt_is_refused(api_client, db):
    """Uploads are judged by content, not by name: a PNG renamed deck.txt is not a decklist."""
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 4
    upload = SimpleUploadedFile("deck.txt", png, content_type="text/plain")
    response = api_client.post("/api/decks/parse", {"file": upload}, format="multipart")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "unreadable_file"


# --- database unavailable ---------------------------------------------------------------


def _failing_fetch(*args, **kwargs):
    raise OperationalError("connection to server was lost")


def _database_away():
    """Every query fails as if the server were gone."""
    return mock.patch.object(CursorWrapper, "execute", _failing_fetch)


@pytest.mark.django_db
def test_api_answers_503_json_while_the_database_is_away(api_client, user):
    api_client.force_authenticate(user)
    with _database_away():
        response = api_client.get("/api/events/")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    body = response.json()
    assert body["errors"][0]["code"] == "service_unavailable"
    assert "connection" not in body["detail"]  # no driver internals leak
    # Service resumes without a restart.
    assert api_client.get("/api/events/").status_code == 200


@pytest.mark.django_db
def test_pages_answer_a_friendly_503_while_the_database_is_away(client):
    with _database_away():
        response = client.get("/cards/?q=island")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert b"Briefly unavailable" in response.content
    assert client.get("/cards/?q=island").status_code == 200


@pytest.mark.django_db
def test_failure_mid_write_leaves_nothing_half_written(api_client):
    organiser = get_user_model().objects.create_user("org", password="pw")
    organiser.groups.add(Group.objects.get_or_create(name=roles.ORGANISER)[0])
    api_client.force_authenticate(organiser)
    payload = {"name": "Friday draft", "date": "2026-11-29", "draft_format": "booster", "set_codes": ["ISD"]}
    # The event row is written, then the database goes away before the staff row.
    with mock.patch.object(EventStaff.objects, "create", side_effect=OperationalError("gone")):
        response = api_client.post("/api/events/", payload, format="json")
    assert response.status_code == 503
    assert response.json()["errors"][0]["code"] == "service_unavailable"
    assert not Event.objects.filter(name="Friday draft").exists()
    # Once it is back, the same request succeeds.
    response = api_client.post("/api/events/", payload, format="json")
    assert response.status_code == 201, response.content
    assert Event.objects.filter(name="Friday draft").count() == 1
