"""Web Push end to end against a push service stand-in on 127.0.0.1: every payload decrypted
with the browser's private key (RFC 8291, aes128gcm), its text in the player's language, its
TTL, the VAPID JWT verified against the site's public key (RFC 8292); 404/410 remove the
subscription; a slow push service does not delay the pairing."""

from __future__ import annotations

import base64
import json
import time

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from django.utils import timezone

from accounts.models import CheckIn, Profile
from judgecalls import services as call_services
from push import services
from push.models import PushSent, PushSubscription
from tests.matches.conftest import Tournament


def unb64(value: str) -> bytes:
    return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))


def decrypt(browser, received) -> dict:
    plain = http_ece.decrypt(
        received.body, private_key=browser.private_key, auth_secret=browser.auth_secret, version="aes128gcm"
    )
    return json.loads(plain)


def verify_vapid(received, public_key: str, audience: str) -> dict:
    """The Authorization header's JWT is signed (ES256) by the site's key; returns its claims."""
    scheme, _, rest = received.headers["authorization"].partition(" ")
    assert scheme == "vapid"
    parts = dict(p.strip().split("=", 1) for p in rest.split(","))
    assert parts["k"] == public_key
    header, claims, signature = parts["t"].split(".")
    assert json.loads(unb64(header)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(public_key))
    key.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    decoded = json.loads(unb64(claims))
    assert decoded["aud"] == audience
    assert decoded["sub"] == "mailto:organiser@example.org"
    assert time.time() < decoded["exp"] <= time.time() + 24 * 3600
    return decoded


def opt_in(t, user, browser, triggers=None):
    client = t.client(user)
    response = client.post("/api/push/subscriptions/", browser.as_json(), format="json")
    assert response.status_code == 201, response.content
    body = {"on": True} if triggers is None else {"on": True, "triggers": triggers}
    response = client.put(f"/api/events/{t.event.pk}/push/", body, format="json")
    assert response.status_code == 200, response.content


@pytest.fixture
def tournament(db):
    t = Tournament(size=4)
    t.configure()
    return t


def test_pairings_reach_each_player_encrypted_in_their_language(
    tournament, vapid, push_service, new_browser, eager_celery, django_capture_on_commit_callbacks
):
    t = tournament
    Profile.objects.update_or_create(user=t.users[0], defaults={"language": "pt-br"})
    Profile.objects.update_or_create(user=t.users[1], defaults={"language": "ru"})
    browsers = {user.pk: new_browser(f"sub-{user.username}") for user in t.users[:2]}
    for user in t.users[:2]:
        opt_in(t, user, browsers[user.pk])
    Profile.objects.update_or_create(user=t.users[2], defaults={"language": "es"})
    opt_in(t, t.users[2], new_browser("sub-p3"), triggers=["judge"])  # not pairings: told nothing

    with django_capture_on_commit_callbacks(execute=True):
        round_obj = t.pair()
    assert len(push_service.received) == 2
    by_path = {r.path: r for r in push_service.received}
    tables = {}
    for match in round_obj.matches.select_related("player_a", "player_b"):
        tables[match.player_a.user_id] = (match.table, match.player_b.name)
        tables[match.player_b.user_id] = (match.table, match.player_a.name)
    p1, p2 = t.users[0], t.users[1]

    received = by_path["/sub-p1"]
    payload = decrypt(browsers[p1.pk], received)
    table, opponent = tables[p1.pk]
    assert payload["lang"] == "pt-br"
    assert payload["title"] == "Rodada 1 emparelhada"
    assert payload["body"] == f"Mesa {table} contra {opponent}"
    assert payload["url"] == f"/matches/events/{t.event.pk}/me/"
    assert received.headers["ttl"] == "3600"
    assert received.headers["content-encoding"] == "aes128gcm"
    verify_vapid(received, vapid, push_service.base)

    payload = decrypt(browsers[p2.pk], by_path["/sub-p2"])
    table, opponent = tables[p2.pk]
    assert payload["lang"] == "ru"
    assert payload["title"] == "Раунд 1: пары готовы"
    assert payload["body"] == f"Стол {table}, соперник: {opponent}"
    with pytest.raises(http_ece.ECEException):  # p2's payload is not readable with p1's keys
        decrypt(browsers[p1.pk], by_path["/sub-p2"])


def test_gone_subscription_is_removed_and_others_still_delivered(
    tournament, vapid, push_service, new_browser, eager_celery, django_capture_on_commit_callbacks
):
    t = tournament
    user = t.users[0]
    old, current = new_browser("gone"), new_browser("phone")
    opt_in(t, user, old)
    opt_in(t, user, current)
    push_service.answer["/gone"] = 410
    with django_capture_on_commit_callbacks(execute=True):
        t.pair()
    assert sorted(r.path for r in push_service.received) == ["/gone", "/phone"]
    assert list(PushSubscription.objects.filter(user=user).values_list("endpoint", flat=True)) == [current.endpoint]


def test_not_found_subscription_is_removed_and_server_error_kept(tournament, vapid, push_service, new_browser):
    t = tournament
    round_obj = t.pair()
    a, b = new_browser("missing"), new_browser("broken")
    opt_in(t, t.users[0], a)
    opt_in(t, t.users[1], b)
    push_service.answer.update({"/missing": 404, "/broken": 500})
    assert services.deliver("pairings", round_obj.pk, t.users[0].pk).removed == 1
    result = services.deliver("pairings", round_obj.pk, t.users[1].pk)
    assert (result.removed, result.failed) == (0, 1)
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [b.endpoint]


def test_a_slow_push_service_never_delays_the_pairing(tournament, vapid, push_service, new_browser, settings):
    """The pairing only books a task after its commit; a broker-side worker sends. Here the
    push service takes 3 s per push and the pairing's answer does not wait for it."""
    t = tournament
    for user in t.users:
        opt_in(t, user, new_browser(f"slow-{user.username}"))
    push_service.delay = 3
    started = time.monotonic()
    t.pair()  # on_commit callbacks book the fan-out in Redis: no worker runs it here
    assert time.monotonic() - started < 2.5
    assert push_service.received == []
    settings.PUSH_TIMEOUT_SECONDS = 0.5  # and a worker gives up on it after its timeout
    started = time.monotonic()
    result = services.deliver("pairings", t.event.match_rounds.get().pk, t.users[0].pk)
    assert result.failed == 1 and time.monotonic() - started < 2.5
    assert PushSubscription.objects.filter(user=t.users[0]).exists()  # a timeout is not a 410


def test_push_off_without_keys(tournament, settings, push_service, new_browser):
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    response = tournament.client(tournament.users[0]).post(
        "/api/push/subscriptions/", new_browser("x").as_json(), format="json"
    )
    assert response.status_code == 409 and response.json()["errors"][0]["code"] == "push_off"
    status = tournament.client(None).get("/api/push/").json()
    assert status["enabled"] is False and "VAPID_PUBLIC_KEY" in status["reason"]


@pytest.mark.parametrize(
    "body",
    [
        {"endpoint": "https://push.example/x", "keys": {"p256dh": "AAAA", "auth": "AAAAAAAAAAAAAAAAAAAAAA"}},
        {"endpoint": "ftp://push.example/x", "keys": {"p256dh": "A" * 87, "auth": "A" * 22}},
        {"endpoint": ["x"], "keys": "nope"},
        {},
    ],
)
def test_bad_subscriptions_are_400(tournament, vapid, body):
    response = tournament.client(tournament.users[0]).post("/api/push/subscriptions/", body, format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["code"] == "invalid_subscription"


def test_unknown_trigger_is_400_and_strangers_403(tournament, vapid):
    t = tournament
    response = t.client(t.users[0]).put(f"/api/events/{t.event.pk}/push/", {"triggers": ["lunch"]}, format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["code"] == "unknown_trigger"
    response = t.client(t.outsider).put(f"/api/events/{t.event.pk}/push/", {"on": True}, format="json")
    assert response.status_code == 403


def test_judge_call_claimed_and_answered(
    tournament, vapid, push_service, new_browser, eager_celery, django_capture_on_commit_callbacks
):
    t = tournament
    round_obj = t.pair()
    user = t.users[0]
    browser = new_browser("caller")
    opt_in(t, user, browser, triggers=["judge"])
    match = round_obj.matches.get(player_a__user=user) if round_obj.matches.filter(player_a__user=user) else None
    match = match or round_obj.matches.get(player_b__user=user)
    with django_capture_on_commit_callbacks(execute=True):
        call = call_services.call_from_match(match_id=match.pk, actor=user)
    assert push_service.received == []  # a call waiting: nothing to tell the caller yet
    with django_capture_on_commit_callbacks(execute=True):
        call_services.claim_call(call_id=call.pk, actor=t.judge)
    with django_capture_on_commit_callbacks(execute=True):
        call_services.resolve_call(call_id=call.pk, actor=t.judge, outcome="ruling")
    titles = [decrypt(browser, r)["title"] for r in push_service.received]
    assert titles == ["A judge is on the way", "A judge answered your call"]
    assert push_service.received[0].headers["urgency"] == "high"


def test_announcement_reaches_checked_in_players_only(
    tournament, vapid, push_service, new_browser, eager_celery, django_capture_on_commit_callbacks
):
    t = tournament
    here, away = t.users[0], t.users[1]
    browsers = {u.pk: new_browser(u.username) for u in (here, away)}
    for user in (here, away):
        opt_in(t, user, browsers[user.pk], triggers=[])
    CheckIn.objects.create(registration=t.regs[0], at=timezone.now())
    response = t.client(t.users[2]).post(f"/api/events/{t.event.pk}/announcements/", {"text": "hi"}, format="json")
    assert response.status_code == 403
    with django_capture_on_commit_callbacks(execute=True):
        response = t.client(t.organiser).post(
            f"/api/events/{t.event.pk}/announcements/", {"text": "Lunch until 13:30"}, format="json"
        )
    assert response.status_code == 201
    assert [r.path for r in push_service.received] == [f"/{here.username}"]
    payload = decrypt(browsers[here.pk], push_service.received[0])
    assert payload["body"] == "Lunch until 13:30" and payload["title"] == "Announcement: Friday draft"
    response = t.client(t.organiser).post(f"/api/events/{t.event.pk}/announcements/", {"text": " "}, format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["code"] == "invalid_announcement"


def test_round_ending_goes_once(tournament, vapid, push_service, new_browser, eager_celery):
    from matches import services as match_services
    from push import tasks

    t = tournament
    round_obj = t.pair()
    for user in t.users[:2]:
        opt_in(t, user, new_browser(user.username), triggers=["round_ending"])
    now = timezone.now()
    match_services.start_round(round_id=round_obj.pk, actor=t.organiser, now=now - dt_minutes(45))
    tasks.sweep()
    tasks.sweep()
    assert sorted(r.path for r in push_service.received) == ["/p1", "/p2"]
    assert push_service.received[0].headers["ttl"] == "600"
    # The guarantee is per player (PushSent), not only the sweep's booking: a second delivery is refused.
    assert services.deliver("round_ending", round_obj.pk, t.users[0].pk).sent == 0
    assert PushSent.objects.filter(key=f"round-ending:{round_obj.pk}").count() == 2


def dt_minutes(n: int):
    import datetime as dt

    return dt.timedelta(minutes=n)
