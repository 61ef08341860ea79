"""Hidden information through judge calls: a call's context never reaches a player.

The context of a call (/judge-calls/<id>/) joins both players' registered decks, their
penalties with the next upgrade, every reason and judge's note: staff only. The caller (player
A) calls, the opponent (player B, with a registered deck and a penalty) calls too, a judge
claims, escalates, the head judge resolves with a penalty. At every step player A fetches
everything a caller can ask for (their match page and its panel, where the call box is; the
call API; the queue, context and proposal routes, pages and API; refused steps) and listens on
every socket they can open; what they receive must not contain:
- the opponent's decklist (its cards' names) before decklists are published;
- the opponent's penalty, call reason or the judges' notes;
- the context's own parts (the earlier-Warnings count, the issue-penalty button).
The judge queue socket refuses the player: they receive a close, nothing else. Controls: the
same requests as a judge do carry those secrets (the checks can fail), and the caller does
read their own call's state and judge.
"""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.test import Client
from django.urls import reverse

from decks import services as deck_services
from draftsite.routing import websocket_urlpatterns
from judgecalls import services
from judgecalls.models import CallStatus, Outcome
from penalties import services as penalty_services
from tests.decks.conftest import catalogue  # noqa: F401  (fixture: the real DFCs)
from tests.judgecalls.conftest import T0, Floor

DELVER = "Delver of Secrets // Insectile Aberration"
B_PENALTY = "Opponent penalty text 7f3a"
B_REASON = "Opponent call reason 91c2"
A_REASON = "My own reason 2b44"
ESCALATION_NOTE = "Escalation note 5d1e"
RESOLVE_NOTE = "Resolution note c0d9"
DECK_NAMES = ["Delver of Secrets", "Insectile Aberration"]
# Markers of the context page itself (judgecalls/context.html): never on a player's screen.
CONTEXT_MARKERS = ["earlier Warning(s) count", "issue-penalty", "data-registration=", "call-penalties", "next-upgrade"]
CALLER_VIEW_KEYS = {"id", "status", "judge", "created_at"}


def browser(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def secrets() -> list[str]:
    return [B_PENALTY, B_REASON, ESCALATION_NOTE, RESOLVE_NOTE]


def caller_requests(floor, call, other_call) -> list[tuple[str, str]]:
    event = floor.event.pk
    my_seat = floor.pod.seats.get(registration_id=floor.match.player_a_id)
    their_seat = floor.pod.seats.get(registration_id=floor.match.player_b_id)
    return [
        # The draft page's call box (fetched by callbox.js): the player's own, and the opponent's.
        ("GET", reverse("judgecalls:seat-box", args=[my_seat.pk])),
        ("GET", reverse("judgecalls:seat-box", args=[their_seat.pk])),
        ("GET", reverse("matches:me", args=[event])),
        ("GET", reverse("matches:me-panel", args=[event])),
        ("GET", reverse("judgecalls:context", args=[call.pk])),
        ("GET", reverse("judgecalls:context", args=[other_call.pk])),
        ("GET", reverse("judgecalls:queue", args=[event])),
        ("GET", reverse("judgecalls:queue-panel", args=[event])),
        ("GET", reverse("judgecalls:proposals", args=[event])),
        ("GET", f"/api/judge-calls/{call.pk}/"),
        ("GET", f"/api/judge-calls/{other_call.pk}/"),
        ("GET", f"/api/events/{event}/judge-calls/"),
        ("GET", f"/api/events/{event}/penalty-proposals/"),
        ("GET", f"/api/events/{event}/penalties/"),
        ("GET", "/api/me/penalties/"),
        ("POST", f"/api/judge-calls/{call.pk}/claim/"),
        ("POST", f"/api/judge-calls/{other_call.pk}/resolve/"),
        ("POST", reverse("judgecalls:step", args=[call.pk, "claim"])),
    ]


def fetch(client: Client, requests) -> dict[str, tuple[int, str]]:
    out = {}
    for method, url in requests:
        if method == "GET":
            response = client.get(url)
        elif url.startswith("/api/"):
            response = client.post(url, data="{}", content_type="application/json")
        else:
            response = client.post(url, {})
        assert response.status_code < 500, (method, url, response.status_code)
        out[f"{method} {url}"] = (response.status_code, response.content.decode())
    return out


def leaks_in(bodies: dict[str, tuple[int, str]], *, deck_too: bool = True) -> list[str]:
    words = secrets() + CONTEXT_MARKERS + (DECK_NAMES if deck_too else [])
    return [f"{where}: {word!r}" for where, (_status, body) in bodies.items() for word in words if word in body]


@pytest.fixture
def table(catalogue):  # noqa: F811
    """Round 1, table 1: B registered a deck with Delver and has a penalty; both called."""
    floor = Floor()
    floor.event.deck_format = "constructed"
    floor.event.save(update_fields=["deck_format"])
    deck_services.register_deck(
        event_id=floor.event.pk,
        actor=floor.player_b(),
        main=[{"name": DELVER, "count": 2}, {"name": "Island", "count": 38}],
        now=T0,
    )
    floor.b_penalty = penalty_services.issue_penalty(
        event_id=floor.event.pk,
        registration_id=floor.match.player_b_id,
        infraction_code="slow_play",
        actor=floor.judge,
        description=B_PENALTY,
        now=T0,
    )
    call = services.call_from_match(match_id=floor.match.pk, actor=floor.player_a(), reason=A_REASON, now=T0)
    other = services.call_from_match(match_id=floor.match.pk, actor=floor.player_b(), reason=B_REASON, now=T0)
    return floor, call, other


@pytest.mark.django_db
def test_the_caller_never_receives_the_calls_context_at_any_step(table):
    floor, call, other = table
    player = browser(floor.player_a())
    requests = caller_requests(floor, call, other)
    b_link = f'href="{reverse("penalties:detail", args=[floor.b_penalty.pk])}"'
    steps = [
        ("called", lambda: None),
        ("claimed", lambda: services.claim_call(call_id=call.pk, actor=floor.judge, now=T0)),
        ("escalated", lambda: services.escalate_call(call_id=call.pk, actor=floor.judge, note=ESCALATION_NOTE)),
        ("claimed by the head judge", lambda: services.claim_call(call_id=call.pk, actor=floor.head_judge)),
    ]
    for label, step in steps:
        step()
        bodies = fetch(player, requests)
        assert leaks_in(bodies) == [], label
        assert [k for k, (_s, body) in bodies.items() if b_link in body] == [], label  # B's penalty, linked
        # The staff routes are refused outright, not scrubbed.
        for key in (
            f"GET /judge-calls/{call.pk}/",
            f"GET /judge-calls/{other.pk}/",
            f"GET /judge-calls/events/{floor.event.pk}/",
            f"GET /api/events/{floor.event.pk}/judge-calls/",
            f"GET /api/events/{floor.event.pk}/penalty-proposals/",
            f"GET /api/judge-calls/{other.pk}/",
            f"POST /api/judge-calls/{call.pk}/claim/",
            f"GET {reverse('judgecalls:seat-box', args=[floor.pod.seats.get(registration_id=other.caller_id).pk])}",
        ):
            assert bodies[key][0] == 403, (label, key, bodies[key][0])
        # What the caller does read of their own call: its state and the judge coming.
        status, body = bodies[f"GET /api/judge-calls/{call.pk}/"]
        mine = json.loads(body)
        assert status == 200 and set(mine) == CALLER_VIEW_KEYS, mine
    assert mine["status"] == CallStatus.CLAIMED and mine["judge"] == "hj"
    assert "A judge is coming: hj." in bodies[f"GET /matches/events/{floor.event.pk}/me/"][1]
    my_box = reverse("judgecalls:seat-box", args=[floor.pod.seats.get(registration_id=call.caller_id).pk])
    assert "A judge is coming: hj." in bodies[f"GET {my_box}"][1]
    # Resolved with a penalty to B: A reads nothing of it (B reads their own notice elsewhere).
    penalty = penalty_services.issue_penalty(
        event_id=floor.event.pk,
        registration_id=floor.match.player_b_id,
        infraction_code="slow_play",
        actor=floor.head_judge,
        description="Second slow play",
    )
    services.resolve_call(
        call_id=call.pk, actor=floor.head_judge, outcome=Outcome.PENALTY, note=RESOLVE_NOTE, penalty_id=penalty.pk
    )
    bodies = fetch(player, requests)
    assert leaks_in(bodies) == [] and "Second slow play" not in json.dumps(bodies)
    assert json.loads(bodies[f"GET /api/judge-calls/{call.pk}/"][1]) == {
        "id": call.pk,
        "status": "resolved",
        "judge": "hj",
        "created_at": call.created_at.isoformat(),
    }
    # Control: a judge's same requests carry every secret (the checks above can fail).
    staff = fetch(browser(floor.judge), requests)
    context = staff[f"GET /judge-calls/{other.pk}/"][1]
    for word in ["Delver of Secrets", "earlier Warning(s) count", "issue-penalty", "call-penalties", b_link]:
        assert word in context, word
    assert B_PENALTY in staff[f"GET /api/events/{floor.event.pk}/penalties/"][1]
    assert B_REASON in staff[f"GET /api/events/{floor.event.pk}/judge-calls/"][1]


@pytest.mark.django_db
def test_after_publication_the_deck_is_public_but_the_context_is_not(table):
    """Published decklists are anyone's to read; penalties, reasons and the context stay staff's."""
    floor, call, other = table
    floor.event.decklists_published = True
    floor.event.save(update_fields=["decklists_published"])
    services.claim_call(call_id=other.pk, actor=floor.judge, now=T0)
    services.escalate_call(call_id=other.pk, actor=floor.judge, note=ESCALATION_NOTE)
    bodies = fetch(browser(floor.player_a()), caller_requests(floor, call, other))
    assert leaks_in(bodies, deck_too=False) == []
    assert bodies[f"GET /judge-calls/{other.pk}/"][0] == 403


# --- sockets: what the caller actually receives while the call is handled ----------------------

router = URLRouter(websocket_urlpatterns)


async def drain(communicator) -> list:
    heard = []
    while not await communicator.receive_nothing(timeout=0.2):
        heard.append(await communicator.receive_json_from())
    return heard


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_callers_sockets_carry_no_context_and_the_queue_socket_refuses_them():
    floor = Floor()
    penalty_services.issue_penalty(
        event_id=floor.event.pk,
        registration_id=floor.match.player_b_id,
        infraction_code="slow_play",
        actor=floor.judge,
        description=B_PENALTY,
        now=T0,
    )
    player = floor.player_a()
    seat = floor.pod.seats.get(registration_id=floor.match.player_a_id)

    async def scenario():
        # The judge queue socket: the player gets a close and nothing else.
        refused = WebsocketCommunicator(router, f"ws/judgecalls/events/{floor.event.pk}/")
        refused.scope["user"] = player
        connected, _ = await refused.connect()
        refused_output = []
        while not await refused.receive_nothing(timeout=0.2):
            refused_output.append(await refused.receive_output())
        # The sockets the player may open, and the judge's queue socket as the control.
        listeners = {
            "match": (f"ws/matches/events/{floor.event.pk}/", player),
            "seat": (f"ws/seats/{seat.pk}/", player),
            "call box": (f"ws/judgecalls/seats/{seat.pk}/", player),
            "judge queue": (f"ws/judgecalls/events/{floor.event.pk}/", floor.judge),
        }
        sockets = {}
        for name, (path, user) in listeners.items():
            communicator = WebsocketCommunicator(router, path)
            communicator.scope["user"] = user
            ok, _ = await communicator.connect()
            assert ok, name
            sockets[name] = communicator
        heard = {name: await drain(c) for name, c in sockets.items()}
        calls = []

        def act(step):
            return database_sync_to_async(step)()

        calls.append(
            await act(lambda: services.call_from_match(match_id=floor.match.pk, actor=player, reason=A_REASON, now=T0))
        )
        calls.append(
            await act(
                lambda: services.call_from_match(
                    match_id=floor.match.pk, actor=floor.player_b(), reason=B_REASON, now=T0
                )
            )
        )
        mine = calls[0].pk
        await act(lambda: services.claim_call(call_id=mine, actor=floor.judge, now=T0))
        await act(lambda: services.escalate_call(call_id=mine, actor=floor.judge, note=ESCALATION_NOTE))
        await act(lambda: services.claim_call(call_id=mine, actor=floor.head_judge))
        await act(
            lambda: services.resolve_call(call_id=mine, actor=floor.head_judge, outcome="ruling", note=RESOLVE_NOTE)
        )
        for name, communicator in sockets.items():
            heard[name] += await drain(communicator)
            await communicator.disconnect()
        await database_sync_to_async(connections.close_all)()
        return connected, refused_output, heard, calls

    connected, refused_output, heard, calls = async_to_sync(scenario)()
    assert connected is False
    assert refused_output == []  # closed at the handshake: not one frame
    # The call box socket heard A's own call only: on connect, then its five steps; B's call
    # (made in between) pushed nothing to it, and no frame names a call, a reason or a judge.
    assert heard["call box"][0] == {"type": "hello", "role": "caller"}
    assert heard["call box"][1:] == [{"type": "call_box"}] * 6, heard["call box"]
    for name in ("match", "seat", "call box"):
        text = json.dumps(heard[name])
        assert [w for w in secrets() + [A_REASON, "Delver"] if w in text] == [], name
        assert all(m.get("type") != "call" for m in heard[name]), name  # the queue's frames are staff's
    # The match socket did hear the steps (the caller's page refreshes on it): the check ran on frames.
    assert sum(m["type"] == "changed" for m in heard["match"]) >= 4, heard["match"]
    # Control: the judge's queue socket heard every call, by id only.
    assert {m["call"] for m in heard["judge queue"] if m["type"] == "call"} == {c.pk for c in calls}
    assert [w for w in secrets() + [A_REASON] if w in json.dumps(heard["judge queue"])] == []
