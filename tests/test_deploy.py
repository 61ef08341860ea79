"""Production settings pass ``check --deploy``; /healthz tells a load balancer the truth."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
from django.db import OperationalError

ROOT = Path(__file__).resolve().parent.parent


def _env(**overrides) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key
        not in {
            "DATABASE_URL",
            "REDIS_URL",
            "DEBUG",
            "SECRET_KEY",
            "SECURE_HTTPS",
            "SECURE_SSL_REDIRECT",
            "SECURE_HSTS_SECONDS",
            "DJANGO_SETTINGS_MODULE",
        }
    }
    env["DJANGO_SETTINGS_MODULE"] = "draftsite.settings"
    env.update(overrides)
    return env


PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": secrets.token_urlsafe(64),
    "ALLOWED_HOSTS": "draft.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://draft.example.org",
    "SECURE_SSL_REDIRECT": "1",
    "BEHIND_PROXY": "1",
}


def _manage(*args, env) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def test_check_deploy_is_clean_with_production_settings():
    result = _manage("check", "--deploy", "--fail-level", "WARNING", env=_env(**PRODUCTION))
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "System check identified no issues" in output
    assert "WARNINGS" not in output


def test_check_deploy_catches_a_missing_secret_key():
    """The check is meaningful: the laptop fallback key is reported (security.W009)."""
    env = _env(**{**PRODUCTION, "SECRET_KEY": ""})
    result = _manage("check", "--deploy", "--fail-level", "WARNING", env=env)
    assert result.returncode != 0
    assert "security.W009" in result.stdout + result.stderr


def test_healthz_is_503_when_the_database_port_is_closed():
    """A real process whose DATABASE_URL points at a closed port answers 503, not 500."""
    script = (
        "import django, json; django.setup();"
        "from django.test import Client;"
        "r = Client().get('/healthz');"
        "print(json.dumps({'status': r.status_code, 'body': r.json()}))"
    )
    env = _env(DATABASE_URL="postgres://postgres@127.0.0.1:1/draftsite_nowhere", DB_POOL="0", PGCONNECT_TIMEOUT="2")
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout.strip().splitlines()[-1])
    assert answer["status"] == 503
    assert answer["body"]["status"] == "unavailable"
    assert answer["body"]["checks"]["database"].startswith("error")
    assert answer["body"]["checks"]["cache"] == "ok"


@pytest.mark.django_db
def test_healthz_is_503_when_queries_fail(client):
    with mock.patch(
        "django.db.backends.utils.CursorWrapper.execute", side_effect=OperationalError("server closed the connection")
    ):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"]["database"] == "error: OperationalError"
    assert client.get("/healthz").status_code == 200


# --- deploy/ files ------------------------------------------------------------------------


def test_every_setting_read_from_the_environment_is_in_env_example():
    import re

    settings_text = (ROOT / "draftsite" / "settings.py").read_text()
    names = set(re.findall(r'(?:os\.environ\.get|env_bool|env_list)\(\s*"([A-Z_]+)"', settings_text))
    documented = set(re.findall(r"^#?\s*([A-Z_]+)=", (ROOT / "deploy" / "env.example").read_text(), re.M))
    assert names, "no settings found"
    assert sorted(names - documented) == []


def test_compose_runs_uvicorn_workers_celery_postgres_and_redis():
    import yaml

    compose = yaml.safe_load((ROOT / "deploy" / "compose.yaml").read_text())
    services = compose["services"]
    assert {"web", "worker", "beat", "postgres", "redis", "migrate"} <= set(services)
    assert "celery -A draftsite beat" in services["beat"]["command"]
    assert "uvicorn draftsite.asgi:application" in services["web"]["command"]
    assert "--workers" in services["web"]["command"]
    assert "celery -A draftsite worker" in services["worker"]["command"]
    assert "healthz" in " ".join(services["web"]["healthcheck"]["test"])


def test_systemd_units_run_web_worker_and_beat_from_the_environment_file():
    web = (ROOT / "deploy" / "systemd" / "draftsite-web.service").read_text()
    worker = (ROOT / "deploy" / "systemd" / "draftsite-worker.service").read_text()
    beat = (ROOT / "deploy" / "systemd" / "draftsite-beat.service").read_text()
    assert "celery -A draftsite beat" in beat
    for unit in (web, worker, beat):
        assert "EnvironmentFile=/etc/draftsite/env" in unit and "[Install]" in unit
    assert "uvicorn draftsite.asgi:application" in web and "--workers" in web
    assert "celery -A draftsite worker" in worker


def test_local_cluster_script_is_valid_bash_and_explains_its_usage():
    script = ROOT / "deploy" / "local_cluster"
    assert os.access(script, os.X_OK)
    assert subprocess.run(["bash", "-n", str(script)], capture_output=True).returncode == 0
    result = subprocess.run([str(script), "bogus"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "start|stop|restart|status" in result.stderr


def test_local_cluster_status_of_a_stopped_cluster(tmp_path):
    env = _env(RUN_DIR=str(tmp_path), WEB_PORT="1")
    result = subprocess.run(
        [str(ROOT / "deploy" / "local_cluster"), "status"], capture_output=True, text=True, timeout=60, env=env
    )
    assert result.returncode == 3
    assert "web     stopped" in result.stdout and "worker  stopped" in result.stdout
    assert "beat    stopped" in result.stdout


# --- `make test` on a fresh machine: the browser tests' Chromium ------------------------


def _make_dry_run(target: str) -> list[str]:
    result = subprocess.run(["make", "-n", target], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_make_test_all_installs_or_names_the_browser_before_the_suite():
    """`make test-all` (the README's test command, what CI runs) runs .ci/install_browser before
    pytest, so a machine without Chromium gets it installed (root + apt) or a clear message,
    never five failing browser tests."""
    commands = _make_dry_run("test-all")
    browser = next(i for i, line in enumerate(commands) if ".ci/install_browser" in line)
    suite = next(i for i, line in enumerate(commands) if "-m pytest" in line)
    assert browser < suite
    assert "not e2e" not in commands[suite]
    assert "make test-all" in (ROOT / ".ci/run").read_text()


def test_make_test_runs_all_but_the_browser_tests_and_says_so():
    commands = _make_dry_run("test")
    assert not any(".ci/install_browser" in line for line in commands)
    suite = next(line for line in commands if "-m pytest" in line)
    assert '-m "not e2e"' in suite
    assert any("make test-all runs everything" in line for line in commands)


def test_install_browser_is_quiet_when_present_and_explains_when_it_cannot_install(tmp_path):
    script = str(ROOT / ".ci" / "install_browser")
    fake = tmp_path / "chromium"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    present = subprocess.run(
        ["bash", script],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "CHROMIUM_BINARY": str(fake), "CHROMEDRIVER": str(fake)},
    )
    assert present.returncode == 0 and present.stdout == ""
    # No apt-get on PATH (not Debian): stop with the exact install instructions.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("id", "cat"):
        (bin_dir / tool).symlink_to(subprocess.run(["which", tool], capture_output=True, text=True).stdout.strip())
    missing = subprocess.run(
        ["/bin/bash", script],
        capture_output=True,
        text=True,
        env={"PATH": str(bin_dir), "CHROMIUM_BINARY": str(tmp_path / "none"), "CHROMEDRIVER": str(tmp_path / "none")},
    )
    assert missing.returncode == 1
    assert "apt-get install chromium chromium-driver" in missing.stderr
    assert "CHROMIUM_BINARY" in missing.stderr
