"""Hidden information never reaches a player, through any page, API call, error message or
live message, during a whole draft and deck building (R15-R16 and the security rule).

A player (seat 0 of pod 1 of "Cube night") follows a full 3-round draft with their seat and
pod sockets open. At checkpoints we fetch everything they can ask for: every GET route of the
URL resolver (API and HTML; the route table of tests/test_authorization_matrix.py) with their
own ids, a pod-mate's, another pod's and another event's, plus a few refused writes (their
error messages). Every body and every websocket message must not contain:
- the name of a single-faced card another seat holds (in a pack or their pile), of this pod,
  the other pod or the other event; after the draft, no card of another seat's pile at all;
- anything of another player's deck before the event publishes its decklists;
- another player's penalties (their descriptions are unique strings), and a judge's reason for
  pausing a paper pod (it may name a player: staff only).
After publication the same requests do show another player's deck (the check can fail).
"""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.test import Client

from decks import services as deck_services
from draftsite.routing import websocket_urlpatterns
from drafts import services
from drafts.models import DraftCard, Pack, Pod, PodState, Seat
from tests.drafts.conftest import cube_names  # noqa: F401  (fixture)
from tests.test_authorization_matrix import (
    ENDPOINTS,
    PAPER_SECRET,
    _converter,
    build_world,
    project_routes,
    targets,
)

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True), pytest.mark.asyncio]

router = URLRouter(websocket_urlpatterns)
SOCKET_KEYS = {"type", "pod", "version", "role", "server_time", "code"}


def hidden_names(world, *, piles_too: bool) -> set[str]:
    """Names the player may not receive: single-faced cards of every other seat (every pod, every
    event), in packs or piles; with ``piles_too``, every card of another seat's pile."""
    me = world.seats["own"]
    mine = set(DraftCard.objects.filter(seat=me).values_list("card__name", flat=True)) | set(
        DraftCard.objects.filter(pack__holder=me).values_list("card__name", flat=True))
    others = DraftCard.objects.exclude(seat=me).exclude(pack__holder=me)
    names = set(others.filter(is_dfc=False).exclude(seat=None, pack__holder=None)
                .values_list("card__name", flat=True))
    if piles_too:
        names |= set(others.exclude(seat=None).values_list("card__name", flat=True))
    return names - mine


def secret_penalty_texts(world) -> list[str]:
    """Other players' penalty descriptions, and a judge's reason for pausing a paper pod."""
    return [p.description for key, p in world.penalties.items() if key != "own"] + [PAPER_SECRET]


def player_requests(world) -> list[tuple[str, str, dict | None]]:
    """(method, url, body): every GET route with every id the matrix knows, and refused writes."""
    requests = []
    for name, route, params in project_routes():
        for method, kind, _rule, _body in ENDPOINTS[name]:
            if method != "GET" or name in ("api-schema", "api-docs", "api-redoc"):
                continue
            for target in targets(world, kind, params):
                url = "/" + route
                for key, value in target.kwargs.items():
                    url = url.replace(f"<{_converter(route, key)}{key}>", str(value))
                requests.append(("GET", url, None))
    own, mate = world.seats["own"], world.seats["mate"]
    stranger = DraftCard.objects.filter(pack__holder=mate).first() or DraftCard.objects.filter(seat=mate).first()
    if stranger is not None:
        requests += [
            ("POST", f"/api/seats/{own.pk}/picks/", {"card": stranger.pk}),
            ("POST", f"/api/seats/{own.pk}/pile/", {"card": stranger.pk, "position": 0}),
            ("POST", f"/events/seats/{own.pk}/pick/", {"card": stranger.pk}),
        ]
    requests += [("GET", f"/api/seats/{own.pk}/?format=json", None),
                 ("GET", "/api/me/penalties/", None), ("GET", "/penalties/", None)]
    return requests


def fetch_everything(world) -> dict[str, str]:
    client = Client()
    client.force_login(world.users["player"])
    bodies = {}
    for method, url, body in player_requests(world):
        if method == "GET":
            response = client.get(url)
        elif url.startswith("/api/"):
            response = client.post(url, data=json.dumps(body), content_type="application/json")
        else:
            response = client.post(url, data=body)
        assert response.status_code < 500, f"{method} {url}: {response.status_code}"
        bodies[f"{method} {url}"] = b"".join(response).decode() if response.streaming else response.content.decode()
    return bodies


def assert_nothing_hidden(world, bodies: dict[str, str], messages: list, *, piles_too: bool,
                          decks_published: bool = False) -> None:
    # Once decklists are published, every pile is public (decks, logs): only penalties stay hidden.
    names = set() if decks_published else hidden_names(world, piles_too=piles_too)
    secrets = secret_penalty_texts(world)
    assert (names or decks_published) and secrets
    leaks = []
    for where, body in bodies.items():
        leaks += [f"{where}: card {n!r}" for n in names if n in body]
        leaks += [f"{where}: secret {s!r}" for s in secrets if s in body]
    for message in messages:
        assert set(message) <= SOCKET_KEYS, message  # versions only, never card data
        text = json.dumps(message)
        leaks += [f"socket: {n!r}" for n in names if n in text]
    assert leaks == []
    # Control: the same bodies do carry the player's own cards and own penalty (the check can fail).
    me = world.seats["own"]
    own_cards = set(DraftCard.objects.filter(seat=me).values_list("card__name", flat=True)) | set(
        DraftCard.objects.filter(pack__holder=me).values_list("card__name", flat=True))
    assert own_cards and all(any(n in body for body in bodies.values()) for n in own_cards)
    assert world.penalties["own"].description in bodies["GET /api/me/penalties/"]
    # Penalties and decks of other players: refused outright, not just scrubbed.
    for key in ("mate", "foreign"):
        assert '"not_your_penalty"' in bodies[f"GET /api/penalties/{world.penalties[key].pk}/"]
        deck = world.decks.get(key)
        if deck is not None and not (decks_published and deck.event_id == world.event.pk):
            assert '"not_your_deck"' in bodies[f"GET /api/decks/{deck.pk}/"]


async def drain(communicator) -> list:
    messages = []
    while not await communicator.receive_nothing(timeout=0.01):
        messages.append(await communicator.receive_json_from())
    return messages


def draft_step(pod_id: int) -> str:
    """Every seat holding a pack picks its top card; a finished round advances."""
    pod = Pod.objects.get(pk=pod_id)
    if pod.state != PodState.DRAFTING:
        if pod.state == PodState.REVIEWING:
            services.advance_round(pod_id=pod_id)
        return Pod.objects.get(pk=pod_id).state
    picked = False
    for seat in Seat.objects.filter(pod_id=pod_id).order_by("position"):
        pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
        if pack is not None:
            card = DraftCard.objects.filter(pack=pack).order_by("-slot").first()
            services.make_pick(seat_id=seat.pk, draft_card_id=card.pk)
            picked = True
    if not picked:
        services.advance_round(pod_id=pod_id)
    return Pod.objects.get(pk=pod_id).state


def register_decks(world) -> None:
    """Seats 0-3 of pod 1 register 23 cards of their pile (+ basics) as their limited deck."""
    world.decks = {}
    for key, seat in (("own", world.seats["own"]), ("mate", world.seats["mate"])):
        names = list(DraftCard.objects.filter(seat=seat).order_by("pile_position")
                     .values_list("card__name", flat=True)[:23])
        main = [{"name": n, "count": 1} for n in names] + [{"name": "Island", "count": 17}]
        world.decks[key], _ = deck_services.register_deck(event_id=world.event.pk, actor=seat.registration.user,
                                                          main=main)


def publish(world) -> None:
    world.event.decklists_published = True
    world.event.save(update_fields=["decklists_published"])


async def test_a_player_receives_no_hidden_information_during_a_whole_draft(cube_names):  # noqa: F811
    world = await database_sync_to_async(build_world)(cube_names, deck_format="limited", with_decks=False)
    player = world.users["player"]
    sockets = []
    for path in (f"ws/seats/{world.seats['own'].pk}/", f"ws/pods/{world.pod.pk}/"):
        communicator = WebsocketCommunicator(router, path)
        communicator.scope["user"] = player
        connected, _ = await communicator.connect()
        assert connected
        sockets.append(communicator)
    messages: list = []
    checks = 0
    try:
        steps, state = 0, PodState.DRAFTING
        checkpoints = {1, 6, 14, 20, 31, 40}  # rounds 1, 2 and 3, first and late picks
        while state != PodState.DECK_BUILDING:
            state = await database_sync_to_async(draft_step)(world.pod.pk)
            steps += 1
            assert steps < 100
            for communicator in sockets:
                messages += await drain(communicator)
            if steps in checkpoints:
                bodies = await database_sync_to_async(fetch_everything)(world)
                await database_sync_to_async(assert_nothing_hidden)(world, bodies, messages, piles_too=False)
                checks += 1
        # The socket said "changed" as the draft went on, and nothing else.
        assert sum(m["type"] == "changed" for m in messages) > 40
        # Deck building: every pile is private, DFCs too; decks are private until published.
        await database_sync_to_async(register_decks)(world)
        bodies = await database_sync_to_async(fetch_everything)(world)
        await database_sync_to_async(assert_nothing_hidden)(world, bodies, messages, piles_too=True)
        own_deck = world.decks["own"]
        assert f'"id":{own_deck.pk}' in bodies[f"GET /api/decks/{own_deck.pk}/"].replace(" ", "")
        # Publication: now another player's deck is readable, through the same requests.
        await database_sync_to_async(publish)(world)
        bodies = await database_sync_to_async(fetch_everything)(world)
        mate_deck = world.decks["mate"]
        published = bodies[f"GET /api/decks/{mate_deck.pk}/"]
        assert '"not_your_deck"' not in published and f'"id":{mate_deck.pk}' in published.replace(" ", "")
        await database_sync_to_async(assert_nothing_hidden)(world, bodies, messages, piles_too=False,
                                                            decks_published=True)
        checks += 3
    finally:
        for communicator in sockets:
            await communicator.disconnect()
        await database_sync_to_async(connections.close_all)()
    assert checks == 9
