"""Fixtures for Web Push: a push service stand-in on 127.0.0.1 that records every push, the
site's VAPID keys, a browser's real P-256 key pair and auth secret, and Celery run eagerly."""

from __future__ import annotations

import base64
import dataclasses
import http.server
import os
import threading

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from push.config import make_key_pair


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@dataclasses.dataclass
class Received:
    path: str
    headers: dict
    body: bytes


class PushService:
    """Answers 201 to every push, or the status set for a path (``answer["/gone"] = 410``)."""

    def __init__(self):
        self.received: list[Received] = []
        self.answer: dict[str, int] = {}
        self.delay = 0.0
        service = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                service.received.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                if service.delay:
                    threading.Event().wait(service.delay)
                self.send_response(service.answer.get(self.path, 201))
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@dataclasses.dataclass
class Browser:
    """A browser's push subscription, with the private half a real browser keeps."""

    endpoint: str
    private_key: ec.EllipticCurvePrivateKey
    auth_secret: bytes

    @property
    def p256dh(self) -> str:
        public = self.private_key.public_key()
        return b64url(public.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))

    def as_json(self) -> dict:
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": b64url(self.auth_secret)}}


@pytest.fixture
def push_service():
    service = PushService()
    yield service
    service.close()


@pytest.fixture
def vapid(settings):
    public, private = make_key_pair()
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = public, private
    settings.VAPID_SUBJECT = "mailto:organiser@example.org"
    settings.PUSH_ALLOW_HTTP_ENDPOINTS = True
    settings.PUSH_TIMEOUT_SECONDS = 2
    return public


@pytest.fixture
def new_browser(push_service):
    def make(name: str) -> Browser:
        return Browser(f"{push_service.base}/{name}", ec.generate_private_key(ec.SECP256R1()), os.urandom(16))

    return make


@pytest.fixture
def eager_celery():
    """Tasks run in the caller (the tests have no worker), as in the embedded site."""
    from draftsite.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield app
    app.conf.task_always_eager = before
