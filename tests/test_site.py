"""The foundation: health, errors as JSON with stable codes, auth, schema, settings from env."""

import json
import os
import subprocess
import sys

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from drafts.demo import DEMO_ACCOUNTS, create_demo_accounts
from events import roles

pytestmark = pytest.mark.django_db


def test_healthz_reports_database_and_cache(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert {k: body[k] for k in ("status", "checks")} == {"status": "ok", "checks": {"database": "ok", "cache": "ok"}}


def test_openapi_schema_and_docs_are_served(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    paths = json.loads(schema.content)["paths"]
    assert "/api/cards/" in paths and "/api/cards/{id}/" in paths
    docs = client.get("/api/docs/")
    assert docs.status_code == 200 and b"swagger" in docs.content.lower()


@pytest.mark.parametrize("url", ["/api/docs/", "/api/redoc/"])
def test_api_docs_load_everything_from_the_site_itself(client, url):
    """Without internet (a venue), a CDN script leaves a blank page: every asset is local."""
    import re

    page = client.get(url).content.decode()
    assets = re.findall(r'(?:src|href)="([^"]+\.(?:js|css|png|svg))"', page)
    assets += re.findall(r'(?:src|href)=\\?"([^"\\]+\.(?:js|css|png|svg))', page)
    assert assets, page[:500]
    for asset in assets:
        assert asset.startswith("/"), f"{url} loads {asset} from outside the site"
        assert client.get(asset).status_code == 200, asset
    assert "cdn" not in page.lower()
    # Nothing else from outside either: no web fonts or scripts from another host (issue 27:
    # ReDoc linked Google Fonts, so offline it half worked).
    outside = re.findall(r'(?:src|href)=\\?"((?:https?:)?//[^"\\]+)', page)
    assert outside == [], f"{url} loads {outside} from outside the site"
    assert "fonts.googleapis" not in page and "fonts.gstatic" not in page


def test_redoc_draws_with_the_systems_fonts(client):
    page = client.get("/api/redoc/").content.decode()
    assert "Redoc.init(" in page and "system-ui" in page


def test_the_schema_lists_each_endpoint_once_and_both_url_forms_still_work(client):
    """Issue 27: Swagger listed /api/decks/parse and /api/decks/parse/ (one endpoint) twice."""
    paths = json.loads(client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").content)["paths"]
    doubled = [p for p in paths if p.endswith("/") and p[:-1] in paths]
    assert doubled == []
    for documented in ("/api/decks/parse", "/api/decks/validate", "/api/rules/simulate", "/api/standings/compute"):
        assert documented in paths
        for form in (documented, documented + "/"):
            response = client.post(form, data="{}", content_type="application/json")
            assert response.status_code != 404 and response["Content-Type"].startswith("application/json"), form


def test_favicon_is_served(client):
    response = client.get("/favicon.ico", follow=True)
    assert response.status_code == 200
    assert b"<svg" in b"".join(response.streaming_content if response.streaming else [response.content])
    assert 'rel="icon"' in client.get("/").content.decode()


@pytest.mark.parametrize("debug", [False, True])
@pytest.mark.parametrize("url", ["/api/nothing-here/", "/api/cards/not-a-number/", "/api/", "/api/nothing-here"])
def test_unknown_api_paths_answer_the_json_error_shape(client, settings, url, debug):
    """With DEBUG on (the demo) too: Django's HTML debug page is for pages, not the API."""
    settings.DEBUG = debug
    response = client.get(url)
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["errors"][0]["code"] == "not_found"
    # Pages keep their HTML 404, and a known endpoint without its slash still redirects to it.
    assert client.get("/nothing-here/")["Content-Type"].startswith("text/html")
    assert client.get("/api/cards")["Location"].endswith("/api/cards/")


@pytest.mark.parametrize(
    "method, url, body, status, code",
    [
        ("get", "/api/cards/999999/", None, 404, "unknown_card"),
        ("get", "/api/cards/?q=" + "x" * 201, None, 400, "query_too_long"),
        ("get", "/api/cards/?layout=banana", None, 400, "invalid_filter"),
        ("delete", "/api/cards/", None, 405, "method_not_allowed"),
        ("post", "/api/auth/token/", "{not json", 400, "malformed_request"),
        ("post", "/api/auth/token/", "{}", 400, "required"),
    ],
)
def test_every_api_error_has_the_one_shape(api_client, method, url, body, status, code):
    response = getattr(api_client, method)(url, data=body, content_type="application/json")
    assert response.status_code == status
    payload = response.json()
    assert set(payload) == {"detail", "errors"}
    assert isinstance(payload["detail"], str) and payload["detail"]
    assert payload["errors"][0]["code"] == code
    assert all({"code", "message"} <= set(e) for e in payload["errors"])


def test_validation_errors_name_their_fields(api_client):
    payload = api_client.post("/api/auth/token/", {}, format="json").json()
    assert {e["field"] for e in payload["errors"]} == {"username", "password"}


def test_token_auth_round_trip(api_client):
    create_demo_accounts()
    response = api_client.post("/api/auth/token/", {"username": "judge", "password": "demo-judge"}, format="json")
    assert response.status_code == 200
    token = response.json()["token"]
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api_client.get("/api/cards/").status_code == 200


def test_bad_token_is_a_clean_401(api_client):
    api_client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    response = api_client.get("/api/cards/")
    assert response.status_code == 401
    assert response.json()["errors"][0]["code"] == "authentication_failed"


def test_wrong_password_is_refused(api_client):
    create_demo_accounts()
    response = api_client.post("/api/auth/token/", {"username": "judge", "password": "nope"}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "authorization"


def test_demo_accounts_hold_their_roles():
    create_demo_accounts()
    create_demo_accounts()  # idempotent
    User = get_user_model()
    assert User.objects.filter(username__startswith="player").count() == 8
    for account in DEMO_ACCOUNTS:
        user = User.objects.get(username=account.username)
        assert roles.user_roles(user) == [account.role]


def test_login_page_logs_in_and_nav_shows_role(client):
    create_demo_accounts()
    assert client.get(reverse("login")).status_code == 200
    response = client.post(reverse("login"), {"username": "organiser", "password": "demo-organiser"}, follow=True)
    assert response.status_code == 200
    assert b"role-badge" in response.content and b"organiser" in response.content
    response = client.post(reverse("logout"), follow=True)
    assert b"Log in" in response.content


def test_login_with_wrong_password_shows_form_error(client):
    create_demo_accounts()
    response = client.post(reverse("login"), {"username": "organiser", "password": "wrong"})
    assert response.status_code == 200
    assert b"form-errors" in response.content


def test_unknown_page_is_a_friendly_404(client, settings):
    settings.DEBUG = False
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    assert b"There is nothing at this address" in response.content


def _settings_in_subprocess(env: dict[str, str]) -> dict:
    code = (
        "import json, django; from django.conf import settings as s; django.setup();"
        "print(json.dumps({'engine': s.DATABASES['default']['ENGINE'], 'host': s.DATABASES['default']['HOST'],"
        " 'eager': s.CELERY_TASK_ALWAYS_EAGER, 'broker': s.CELERY_BROKER_URL,"
        " 'layer': s.CHANNEL_LAYERS['default']['BACKEND'], 'cache': s.CACHES['default']['BACKEND'],"
        " 'debug': s.DEBUG, 'hosts': s.ALLOWED_HOSTS, 'apps': s.INSTALLED_APPS,"
        " 'runserver': __import__('django.core.management', fromlist=['x']).get_commands()['runserver'],"
        " 'twisted': __import__('draftsite.asgi') and __import__('sys').modules.get('twisted') is not None}))"
    )
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG", "ALLOWED_HOSTS"}}
    clean.update(env, DJANGO_SETTINGS_MODULE="draftsite.settings")
    out = subprocess.run([sys.executable, "-c", code], env=clean, capture_output=True, text=True, check=True)
    return {**json.loads(out.stdout.strip().splitlines()[-1]), "stderr": out.stderr}


def test_embedded_defaults_need_no_services():
    """No DATABASE_URL: the embedded PostgreSQL in var/pgdata (started, or joined when this
    run's own tests use it), and one line on stderr saying so."""
    found = _settings_in_subprocess({})
    assert found["engine"] == "django.db.backends.postgresql"
    assert found["host"]  # its socket folder (Windows: 127.0.0.1)
    assert "Database: embedded PostgreSQL in " in found["stderr"] and "pgdata" in found["stderr"]
    assert found["eager"] is True
    assert found["layer"] == "channels.layers.InMemoryChannelLayer"
    assert found["cache"].endswith("LocMemCache")
    assert found["debug"] is False
    # A production process (DEBUG off) serves through uvicorn: it loads no daphne nor Twisted.
    assert "daphne" not in found["apps"] and found["twisted"] is False


def test_services_come_from_the_environment():
    found = _settings_in_subprocess(
        {
            "DATABASE_URL": "postgres://u@db.example:5432/x",
            "REDIS_URL": "redis://r.example:6379/1",
            "DEBUG": "true",
            "ALLOWED_HOSTS": "draft.example,other.example",
        }
    )
    assert found["engine"] == "django.db.backends.postgresql"
    assert "embedded" not in found["stderr"]  # nothing of its own started
    assert found["eager"] is False and found["broker"] == "redis://r.example:6379/1"
    assert found["layer"] == "channels_redis.core.RedisChannelLayer"
    assert found["cache"].endswith("RedisCache")
    assert found["debug"] is True and found["hosts"] == ["draft.example", "other.example"]
    assert found["runserver"] == "daphne"  # `make demo`'s runserver speaks websockets


@pytest.mark.parametrize(
    "accept, reason, title",
    [
        ("en", "Only an organiser of this event may do that.", "Not allowed"),
        ("pt-br", "Só um organizador deste evento pode fazer isso.", "Não permitido"),
    ],
)
def test_the_403_page_says_why_in_the_readers_language(client, accept, reason, title):
    """Issue 27: the refusal's own message, not only "You do not have access to this page"."""
    from tests.factories import EventFactory, UserFactory

    event = EventFactory()
    client.force_login(UserFactory(username="curious"))
    response = client.get(f"/events/{event.pk}/staff/", HTTP_ACCEPT_LANGUAGE=accept)
    assert response.status_code == 403
    html = response.content.decode()
    assert f"<p>{reason}</p>" in html and f"<h1>{title}</h1>" in html
