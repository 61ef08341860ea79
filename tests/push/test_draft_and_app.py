"""Draft pushes carry no card (R16: single-faced cards are hidden during the draft; a pack's
contents are the holder's only), a waiting pack is told at most once per wait and only to a
closed page; the installable app's manifest and service worker; the notifications page."""

from __future__ import annotations

import datetime as dt
import json

from django.test import Client
from django.utils import timezone

from drafts import services as draft_services
from drafts.models import DraftCard, Pack, Seat
from events import services as event_services
from events.access import SYSTEM
from push import tasks
from push.models import EventPush
from tests.drafts.conftest import cube_names, make_pod, organiser, players  # noqa: F401 (fixtures)
from tests.push.test_delivery import decrypt


def _subscribe(user, browser, event, **switches):
    client = Client()
    client.force_login(user)
    response = client.post("/api/push/subscriptions/", browser.as_json(), content_type="application/json")
    assert response.status_code == 201, response.content
    response = client.put(f"/api/events/{event.pk}/push/", {"on": True}, content_type="application/json")
    assert response.status_code == 200
    if switches:
        EventPush.objects.filter(user=user, event=event).update(**switches)


def _card_names(pod) -> set[str]:
    names = set()
    for card in DraftCard.objects.filter(pod=pod).select_related("card"):
        names.add(card.card.name)
        names.update(card.card.name.split(" // "))
    return names


def test_r16_draft_pushes_name_no_card_and_one_per_wait(
    organiser,  # noqa: F811
    players,  # noqa: F811
    cube_names,  # noqa: F811
    vapid,
    push_service,
    new_browser,
    eager_celery,
    django_capture_on_commit_callbacks,
):
    pod = make_pod(organiser, players, cube_names, start=False, now=timezone.now())
    browsers = {u.pk: new_browser(u.username) for u in players[:2]}
    for user in players[:2]:
        _subscribe(user, browsers[user.pk], pod.event)
    with django_capture_on_commit_callbacks(execute=True):
        draft_services.start_pod(pod_id=pod.pk, actor=organiser)
    started = [decrypt(browsers[r_user.pk], r) for r_user, r in zip(players[:2], _by_user(push_service, players[:2]))]
    assert [p["title"] for p in started] == ["Your draft is starting"] * 2
    seat = Seat.objects.get(pod=pod, registration__user=players[0])
    assert started[0]["url"] == f"/events/seats/{seat.pk}/"

    push_service.received.clear()
    tasks.sweep()  # no page open: both players are told their first pack waits
    tasks.sweep()  # and not twice for the same wait
    assert sorted(r.path for r in push_service.received) == ["/p0", "/p1"]
    waiting = decrypt(browsers[players[0].pk], _by_user(push_service, players[:1])[0])
    assert waiting["title"] == "A pack is waiting for you" and waiting["tag"] == f"seat-{seat.pk}"
    assert push_service.received[0].headers["ttl"] == "120"

    # The player picks; the next pack arrives: a new wait, one new push.
    pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
    draft_services.make_pick(seat_id=seat.pk, draft_card_id=pack.card_ids[0], actor=players[0])
    push_service.received.clear()
    for other in Seat.objects.filter(pod=pod).exclude(pk=seat.pk):
        first = Pack.objects.filter(holder=other).order_by("queue_seq").first()
        if first is not None:
            draft_services.make_pick(seat_id=other.pk, draft_card_id=first.card_ids[0], actor=other.registration.user)
    tasks.sweep()
    tasks.sweep()
    assert sorted(r.path for r in push_service.received) == ["/p0", "/p1"]

    # Hidden information: no payload names any card of the pod (neither face).
    names = _card_names(pod)
    texts = json.dumps(
        started
        + [waiting]
        + [decrypt(browsers[p.pk], r) for p, r in zip(players[:2], _by_user(push_service, players[:2]))],
        ensure_ascii=False,
    )
    assert names and not any(name in texts for name in names)


def _by_user(push_service, users):
    by_path = {r.path: r for r in push_service.received}
    return [by_path[f"/{u.username}"] for u in users]


def test_pack_waiting_not_pushed_while_the_page_is_open(
    organiser,  # noqa: F811
    players,  # noqa: F811
    cube_names,  # noqa: F811
    vapid,
    push_service,
    new_browser,
    eager_celery,
):
    from drafts import presence

    pod = make_pod(organiser, players, cube_names, now=timezone.now())
    _subscribe(players[0], new_browser("p0"), pod.event, draft_start=False)
    seat = Seat.objects.get(pod=pod, registration__user=players[0])
    presence.touch(seat.pk, "channel-1")  # the draft page is open (it notifies by itself)
    tasks.sweep()
    assert push_service.received == []
    presence.leave(seat.pk, "channel-1")
    tasks.sweep()
    assert [r.path for r in push_service.received] == ["/p0"]


def test_deck_deadline_warning(
    organiser,  # noqa: F811
    players,  # noqa: F811
    cube_names,  # noqa: F811
    vapid,
    push_service,
    new_browser,
    eager_celery,
):
    pod = make_pod(organiser, players, cube_names, start=False, now=timezone.now())
    _subscribe(players[3], browser := new_browser("p3"), pod.event)
    event = pod.event
    event.decklist_deadline = timezone.now() + dt.timedelta(minutes=30)
    event.save(update_fields=["decklist_deadline"])
    tasks.sweep()
    assert push_service.received == []  # not yet: 30 minutes left
    event.decklist_deadline = timezone.now() + dt.timedelta(minutes=9, seconds=50)
    event.save(update_fields=["decklist_deadline"])
    tasks.sweep()
    tasks.sweep()
    assert len(push_service.received) == 1
    payload = decrypt(browser, push_service.received[0])
    assert payload["body"] == "Cube night: register your deck within 10 minutes."
    assert payload["url"] == f"/decks/events/{event.pk}/"


def test_manifest_names_the_players_current_event(
    organiser,  # noqa: F811
    players,  # noqa: F811
    cube_names,  # noqa: F811
):
    pod = make_pod(organiser, players, cube_names, start=False, now=timezone.now())
    client = Client()
    response = client.get("/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone" and manifest["scope"] == "/"
    sizes = {(icon["sizes"], icon.get("purpose")) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in manifest["icons"]:  # each icon is a PNG of the size it claims
        body = b"".join(client.get(icon["src"]).streaming_content)
        assert body[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = int.from_bytes(body[16:20], "big"), int.from_bytes(body[20:24], "big")
        assert f"{width}x{height}" == icon["sizes"]
    client.force_login(players[2])
    assert client.get("/manifest.webmanifest").json()["start_url"] == f"/matches/events/{pod.event.pk}/me/"
    page = client.get("/").content.decode()
    assert 'rel="manifest"' in page and 'rel="apple-touch-icon"' in page and "js/app.js" in page
    apple = b"".join(client.get("/static/icons/apple-touch-icon.png").streaming_content)
    assert int.from_bytes(apple[16:20], "big") == 180


def test_service_worker_is_served_from_the_root(db):
    response = Client().get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    assert b'addEventListener("push"' in response.content


def test_notifications_page_says_why_push_is_off(organiser, players, cube_names, settings):  # noqa: F811
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    pod = make_pod(organiser, players, cube_names, start=False, now=timezone.now())
    client = Client()
    client.force_login(players[0])
    page = client.get(f"/notifications/events/{pod.event.pk}/", HTTP_ACCEPT_LANGUAGE="it")
    assert page.status_code == 200
    assert "Questo sito non ha chiavi push" in page.content.decode()
    # The choices still save (push comes on once the site has keys).
    response = client.post(f"/notifications/events/{pod.event.pk}/", {"on": "1", "trigger": ["pairings", "judge"]})
    assert response.status_code == 302
    choice = EventPush.objects.get(user=players[0], event=pod.event)
    assert choice.triggers() == ["pairings", "judge"]
    stranger = Client()
    stranger.force_login(organiser.__class__.objects.create(username="stranger"))
    assert stranger.get(f"/notifications/events/{pod.event.pk}/").status_code == 403


def test_seating_tells_players_where_they_sit(
    organiser,  # noqa: F811
    players,  # noqa: F811
    cube_names,  # noqa: F811
    vapid,
    push_service,
    new_browser,
    eager_celery,
    django_capture_on_commit_callbacks,
):
    event = draft_services.create_event(
        name="Seated", date=timezone.localdate(), created_by=organiser, draft_format="cube", cube_list=cube_names
    )
    regs = [event_services.register_player(event_id=event.pk, user=u, actor=SYSTEM) for u in players[:4]]
    browser = new_browser("p0")
    _subscribe(players[0], browser, event)
    with django_capture_on_commit_callbacks(execute=True):
        draft_services.seat_players(event_id=event.pk, pods=[[r.pk for r in regs]], actor=SYSTEM)
    (received,) = push_service.received
    assert decrypt(browser, received)["body"] == "Pod 1, seat 1. The draft starts soon."
