"""End-to-end fixtures: a real ASGI server (daphne, websockets included) on the test
database, and headless Chromium windows driven by Selenium.

The server runs in its own process on a free port, pointed at the database pytest-django
created (the PostgreSQL test database, embedded or DATABASE_URL's), so data a test commits is what
the browsers see. Everything that should reach live pages goes through that server (HTTP
from the browsers or the API helper below): with the in-memory channel layer only its own
writes notify its sockets (with Redis, any process's would).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from tests.drafts.conftest import cube_names, make_pod, organiser, players  # noqa: F401 (fixtures)

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM_BINARY", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
CHROME_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--window-size=1280,900",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _database_url(settings: dict) -> str:
    engine = settings["ENGINE"]
    if "postgresql" in engine:
        user = urllib.parse.quote(settings.get("USER") or "")
        password = urllib.parse.quote(settings.get("PASSWORD") or "")
        auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
        return (
            # The embedded server's host is its socket folder: percent-encoded for dj-database-url.
            f"postgres://{auth}{urllib.parse.quote(settings.get('HOST') or '127.0.0.1', safe='')}"
            f":{settings.get('PORT') or 5432}/{settings['NAME']}"
        )
    raise RuntimeError(f"e2e tests do not know how to share a {engine} database")


# The origins the tests' servers answer on: each browser forgets their service workers and
# caches between tests (Browsers.reset), whatever page it was left on.
SERVED_ORIGINS: set[str] = set()


@pytest.fixture(scope="session")
def server_url(django_db_setup, django_db_blocker, tmp_path_factory):
    """daphne serving draftsite.asgi on the test database; yields its base URL."""
    from django.db import connection

    with django_db_blocker.unblock():
        url = _database_url(connection.settings_dict)
    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DEBUG": "0",
        "SECURE_HTTPS": "0",
        "DB_CONN_MAX_AGE": "0",
        "CACHE_KEY_PREFIX": f"e2e-{os.getpid()}-{port}",
        "LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "draftsite.settings",
    }
    log_path = tmp_path_factory.mktemp("daphne") / "daphne.log"
    log = open(log_path, "w")
    process = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "draftsite.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 40
    while True:
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=2) as response:
                if response.status == 200:
                    break
        except (urllib.error.URLError, ConnectionError, OSError):
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError("daphne did not start:\n" + log_path.read_text()[-3000:])
        time.sleep(0.2)
    SERVED_ORIGINS.add(base)
    yield base
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=5)
    log.close()


class Browsers:
    """Chromium windows started once per session and reused (each one costs seconds)."""

    def __init__(self):
        self.drivers = []
        self.profiles = []
        self.in_use = 0

    def _start(self):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        profile = tempfile.mkdtemp(prefix="e2e-chromium-")
        self.profiles.append(profile)
        for flag in CHROME_FLAGS + [f"--user-data-dir={profile}"]:
            options.add_argument(flag)
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        driver.set_page_load_timeout(30)
        return driver

    def get(self):
        if self.in_use == len(self.drivers):
            self.drivers.append(self._start())
        driver = self.drivers[self.in_use]
        self.in_use += 1
        return driver

    def reset(self):
        for driver in self.drivers[: self.in_use]:
            try:
                driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
                # The next test starts as a stranger: no cookie (a language chosen, a session)
                # and no stored page data of this one. WebDriver's delete_all_cookies only
                # clears the current page's site, and about:blank has none.
                driver.execute_script("try { localStorage.clear(); sessionStorage.clear(); } catch (e) {}")
                # Nor a service worker (static/js/sw.js, registered by every page) or its
                # copies: it would answer the next test's requests past the DevTools
                # interception some tests use to feed a page.
                for origin in SERVED_ORIGINS:
                    driver.execute_cdp_cmd(
                        "Storage.clearDataForOrigin",
                        {"origin": origin, "storageTypes": "service_workers,cache_storage"},
                    )
                driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
                driver.get("about:blank")
            except Exception:  # a broken window is replaced next time
                self.drivers.remove(driver)
                driver.quit()
        self.in_use = 0

    def quit(self):
        for driver in self.drivers:
            driver.quit()
        for profile in self.profiles:
            shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="session")
def _browser_pool():
    if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
        pytest.fail(f"e2e tests need {CHROMIUM} and {CHROMEDRIVER} (apt-get install chromium chromium-driver)")
    pool = Browsers()
    yield pool
    pool.quit()


@pytest.fixture
def browsers(_browser_pool):
    yield _browser_pool
    _browser_pool.reset()


@pytest.fixture
def login(server_url):
    """Put a logged-in session for ``user`` into a browser window."""
    from django.test import Client

    def log_in(driver, user):
        client = Client()
        client.force_login(user)
        driver.get(server_url + "/healthz")
        driver.add_cookie({"name": "sessionid", "value": client.cookies["sessionid"].value, "path": "/"})
        return driver

    return log_in


class Api:
    """The REST API over HTTP as a player (token auth), so the server sends the live updates."""

    def __init__(self, base: str, token: str):
        self.base = base
        self.token = token

    def call(self, method: str, path: str, body: dict | None = None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            self.base + path,
            data=data,
            method=method,
            headers={
                "Authorization": f"Token {self.token}",
                "Content-Type": "application/json",
                "Accept": "application/json",
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=20) as response:
                return response.status, json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")

    def seat(self, seat_id: int) -> dict:
        status, body = self.call("GET", f"/api/seats/{seat_id}/")
        assert status == 200, body
        return body

    def pick_first(self, seat_id: int, view: dict | None = None) -> bool:
        """Pick the first card of the pack in front of the seat, if any. Returns whether it did."""
        view = view or self.seat(seat_id)
        if not view["queue"] or view["pod"]["state"] != "drafting":
            return False
        pack = view["queue"][0]
        status, body = self.call(
            "POST", f"/api/seats/{seat_id}/picks/", {"card": pack["cards"][0]["id"], "pack": pack["pack_id"]}
        )
        assert status in (201, 409), body
        return status == 201


@pytest.fixture
def api_for(server_url):
    from rest_framework.authtoken.models import Token

    def make(user) -> Api:
        token, _ = Token.objects.get_or_create(user=user)
        return Api(server_url, token.key)

    return make
