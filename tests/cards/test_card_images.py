"""The site's own copies of card images (cards/images.py): a stand-in image host on 127.0.0.1
counts its requests (each image fetched once), the size limit evicts the least recently
used, the copy is served with a year's immutable cache and an ETag, a host answering 404 or
too slowly leaves the card as text (404 from the site at once), and the management command
fetches a set before the event."""

from __future__ import annotations

import os
import threading
import time
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone

from cards import images
from cards.models import Card, CardImage, CardSet, Printing

pytestmark = pytest.mark.django_db

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 200


class Host:
    """A stand-in image host: /ok/<name> answers a PNG, /missing/ 404, /slow/ after 3 s,
    /gate/<name> a PNG once the test opens ``gate``."""

    def __init__(self):
        self.requests: list[str] = []
        self.gate = threading.Event()
        host = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                host.requests.append(self.path)
                if self.path.startswith("/gate/"):
                    host.gate.wait(timeout=20)
                if self.path.startswith(("/ok/", "/gate/")):
                    body = PNG + self.path.encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "image/png")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                elif self.path.startswith("/slow/"):
                    time.sleep(3)
                    self.send_error(500)
                else:
                    self.send_error(404)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.gate.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def host():
    server = Host()
    yield server
    server.close()


@pytest.fixture(autouse=True)
def image_settings(settings):
    # (MEDIA_ROOT is a temporary folder of each test's: tests/conftest.py)
    settings.CARD_IMAGE_FETCH_TIMEOUT = 1
    settings.CARD_IMAGE_MAX_BYTES = 10_000
    settings.CELERY_TASK_ALWAYS_EAGER = False  # the view books a task; tests run it by hand


def printing(number: int, uris: dict, code: str = "ZZQ") -> Printing:
    card_set, _ = CardSet.objects.get_or_create(code=code, defaults={"name": code})
    card = Card.objects.create(name=f"Card {code} {number}", search_name=f"card {code} {number}")
    return Printing.objects.create(card=card, card_set=card_set, collector_number=str(number), image_uris=uris)


def url_of(p: Printing, face: str = "front") -> str:
    return images.site_uris(p.pk, p.image_uris)[face]


def test_fetched_once_and_served_with_long_cache(host, django_capture_on_commit_callbacks, monkeypatch):
    booked = []
    monkeypatch.setattr("cards.tasks.fetch_card_images.delay", lambda ids: booked.append(ids))
    p = printing(1, {"front": host.url + "/ok/1.png"})
    client = Client()
    with django_capture_on_commit_callbacks(execute=True):
        first = client.get(url_of(p))
        again = client.get(url_of(p))
    # No copy yet: 404 at once (the page shows the text), never cached, one fetch booked.
    assert first.status_code == again.status_code == 404
    assert first["Cache-Control"] == "no-store"
    assert booked == [[p.pk]]
    assert host.requests == []

    images.fetch(booked[0], now=timezone.now())
    images.fetch([p.pk], now=timezone.now())  # already there: the host is not asked again
    assert host.requests == ["/ok/1.png"]

    served = client.get(url_of(p))
    assert served.status_code == 200
    assert b"".join(served.streaming_content) == PNG + b"/ok/1.png"
    assert served["Content-Type"] == "image/png"
    assert served["Cache-Control"] == "public, max-age=31536000, immutable"
    etag = served["ETag"]
    assert etag.startswith('"') and etag.endswith('"')
    unchanged = client.get(url_of(p), HTTP_IF_NONE_MATCH=etag)
    assert unchanged.status_code == 304 and unchanged["ETag"] == etag
    assert host.requests == ["/ok/1.png"]


def test_copies_are_stored_outside_the_checkout(host, settings):
    """Tests keep the checkout's media/ clean (tests/conftest.py): each stores its copies in a
    temporary MEDIA_ROOT, and the servers the tests start inherit one too."""
    p = printing(9, {"front": host.url + "/ok/9.png"})
    images.fetch([p.pk], now=timezone.now())
    stored = Path(images.storage().path(CardImage.objects.get(printing=p).stored_name))
    assert stored.read_bytes() == PNG + b"/ok/9.png"
    checkout = Path(settings.BASE_DIR)
    assert not stored.is_relative_to(checkout)
    assert not Path(os.environ["MEDIA_ROOT"]).is_relative_to(checkout)


@pytest.mark.django_db(transaction=True)
def test_without_a_worker_a_thread_fetches_while_the_request_answers_at_once(host, settings, monkeypatch):
    """No REDIS_URL (make demo): Celery would run the task eagerly, inside the request, so
    the view hands the fetch to a thread of its own (cards.views.pages._fetch_later). The
    request that asks answers 404 while the image host has not answered yet; the copy is
    fetched once and served from then on. (A transactional test: the thread reads the
    printing over its own connection.)"""
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.CARD_IMAGE_FETCH_TIMEOUT = 20  # the host answers when the test opens its gate
    threads: list[threading.Thread] = []

    def recorded_thread(**kwargs) -> threading.Thread:  # a real thread, kept to be joined
        threads.append(threading.Thread(**kwargs))
        return threads[-1]

    monkeypatch.setattr("cards.views.pages.threading", SimpleNamespace(Thread=recorded_thread))
    monkeypatch.setattr("cards.tasks.fetch_card_images.delay", lambda ids: pytest.fail("no worker to book a task on"))
    p = printing(20, {"front": host.url + "/gate/20.png"})
    client = Client()
    first = client.get(url_of(p))  # answered while the host holds the fetch at its gate
    assert first.status_code == 404 and first["Cache-Control"] == "no-store"
    assert len(threads) == 1
    deadline = time.monotonic() + 10
    while not host.requests and time.monotonic() < deadline:
        time.sleep(0.02)
    assert host.requests == ["/gate/20.png"]  # the thread is waiting on the host
    again = client.get(url_of(p))  # asked again meanwhile: 404, no second fetch
    assert again.status_code == 404 and len(threads) == 1
    assert not CardImage.objects.filter(printing=p, state=CardImage.State.STORED).exists()

    host.gate.set()
    threads[0].join(timeout=20)
    assert not threads[0].is_alive()
    row = CardImage.objects.get(printing=p)
    assert row.state == CardImage.State.STORED
    served = client.get(url_of(p))
    assert served.status_code == 200
    assert b"".join(served.streaming_content) == PNG + b"/gate/20.png"
    assert host.requests == ["/gate/20.png"] and len(threads) == 1  # stored once


def test_pages_point_at_the_sites_copy(host):
    from drafts import cardinfo

    p = printing(2, {"front": host.url + "/ok/2.png", "back": host.url + "/ok/2b.png"})
    cardinfo._image_cache.clear()
    uris = cardinfo.images({p.pk})[p.pk]
    assert set(uris) == {"front", "back"}
    assert all(u.startswith(f"/card-images/{p.pk}/") for u in uris.values())
    assert host.url not in str(uris)


@pytest.mark.parametrize("path", ["/missing/3.png", "/slow/3.png"])
def test_host_404_or_timeout_leaves_text(host, path, django_capture_on_commit_callbacks, monkeypatch):
    booked = []
    monkeypatch.setattr("cards.tasks.fetch_card_images.delay", lambda ids: booked.append(ids))
    p = printing(3, {"front": host.url + path})
    started = time.monotonic()
    counts = images.fetch([p.pk], now=timezone.now())
    assert time.monotonic() - started < 2.5  # the 1 s timeout, not the host's 3 s
    assert counts["failed"] == 1
    row = CardImage.objects.get(printing=p)
    assert row.state == CardImage.State.FAILED
    client = Client()
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.get(url_of(p))
    assert answer.status_code == 404 and answer["Cache-Control"] == "no-store"
    assert booked == []  # not asked again within the hour
    # An hour later one view books one more try.
    CardImage.objects.filter(pk=row.pk).update(attempted_at=timezone.now() - timedelta(hours=2))
    with django_capture_on_commit_callbacks(execute=True):
        client.get(url_of(p))
        client.get(url_of(p))
    assert booked == [[p.pk]]


def test_wrong_key_or_face_is_404_without_fetch(host, django_capture_on_commit_callbacks, monkeypatch):
    booked = []
    monkeypatch.setattr("cards.tasks.fetch_card_images.delay", lambda ids: booked.append(ids))
    p = printing(4, {"front": host.url + "/ok/4.png"})
    client = Client()
    with django_capture_on_commit_callbacks(execute=True):
        assert client.get(f"/card-images/{p.pk}/front/0000000000000000/").status_code == 404
        assert client.get(f"/card-images/{p.pk}/side/{images.key_of(host.url + '/ok/4.png')}/").status_code == 404
        assert client.get("/card-images/999999/front/0000000000000000/").status_code == 404
    assert booked == [] and not CardImage.objects.exists()


def test_size_limit_evicts_least_recently_used(host, settings, django_capture_on_commit_callbacks):
    one_image = len(PNG) + len("/ok/0.png")
    settings.CARD_IMAGE_MAX_BYTES = 2 * one_image + 5  # room for two
    now = timezone.now()
    a, b, c = (printing(n, {"front": f"{host.url}/ok/{n}.png"}) for n in (5, 6, 7))
    images.fetch([a.pk], now=now - timedelta(hours=3))
    images.fetch([b.pk], now=now - timedelta(hours=2))
    # a is used again (shown on a page): b is now the least recently used
    assert Client().get(url_of(a)).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):  # the file goes once the row has
        images.fetch([c.pk], now=now)
    kept = set(CardImage.objects.filter(state=CardImage.State.STORED).values_list("printing_id", flat=True))
    assert kept == {a.pk, c.pk}
    assert sum(CardImage.objects.values_list("size", flat=True)) <= settings.CARD_IMAGE_MAX_BYTES
    stored = sorted(p.name for p in (settings.MEDIA_ROOT / "card-images").iterdir())
    assert len(stored) == 2 and not any(f"{b.pk}-front" in name for name in stored)


def test_not_an_image_is_refused(host):
    p = printing(8, {"front": host.url + "/missing/8.png"})
    p.image_uris = {"front": "ftp://example.invalid/8.png"}
    p.save()
    assert images.site_uris(p.pk, p.image_uris) == {}  # not a web link: no image, the text


def test_management_command_fetches_a_set(host, capsys):
    dsk = [printing(n, {"front": f"{host.url}/ok/{n}.png"}) for n in (10, 11)]
    dsk.append(printing(12, {"front": f"{host.url}/missing/12.png"}))
    printing(13, {"front": f"{host.url}/ok/13.png"}, code="ZZR")
    call_command("fetch_card_images", "zzq")
    assert sorted(host.requests) == ["/missing/12.png", "/ok/10.png", "/ok/11.png"]
    assert "2 stored, 0 already there, 1 not available" in capsys.readouterr().out
    call_command("fetch_card_images", "ZZQ")
    assert len(host.requests) == 3  # nothing fetched twice
    with pytest.raises(CommandError):
        call_command("fetch_card_images", "NOPE")
