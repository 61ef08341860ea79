"""Hidden information never reaches a player, through any page, API call, error message or
live message, during a whole draft and deck building (R15-R16 and the security rule).

A player (seat 0 of pod 1 of "Cube night") follows a full 3-round draft with their seat and
pod sockets open, and makes their own picks over the seat socket (the other seats pick through
the service); a pod-mate's seat socket, the spectator link and the organiser's pod and event
sockets listen too. At checkpoints we fetch everything they can ask for: every GET route of the
URL resolver (API and HTML; the route table of tests/test_authorization_matrix.py) with their
own ids, a pod-mate's, another pod's and another event's, plus a few refused writes (their
error messages). Every body and every websocket message must not contain:
- the name of a single-faced card another seat holds (in a pack or their pile), of this pod,
  the other pod or the other event; after the draft, no card of another seat's pile at all;
- anything of another player's deck before the event publishes its decklists;
- another player's penalties (their descriptions are unique strings), and a judge's reason for
  pausing a paper pod (it may name a player: staff only).
After publication the same requests do show another player's deck (the check can fail).

Over the sockets, card data goes only to the seat it belongs to: the ``picked`` answer and the
``queue`` push carry the seat's own packs (the one in front in full, those waiting behind it as
counts plus their DFCs, R15), checked against what each pack held at that moment (the picks'
recorded pack contents); every other message, on every other socket, is a version number.
"""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.db import connections
from django.test import Client

from decks import services as deck_services
from drafts import services
from drafts.models import DraftCard, Pack, Pick, Pod, PodState, Seat
from draftsite.routing import websocket_urlpatterns
from events.access import SYSTEM
from tests.drafts.conftest import cube_names  # noqa: F401  (fixture)
from tests.places import held, piled
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
CARD_MESSAGES = {"picked", "queue"}  # seat sockets only, and only of that seat's own cards


def visible_names(seat) -> set[str]:
    """What a seat's player sees in full: their pile and the pack in front of them. The packs
    waiting behind it are face down (only their DFCs show, and those are open to everyone)."""
    front = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
    names = set(DraftCard.objects.in_pile(seat).values_list("card__name", flat=True))
    if front is not None:
        names |= set(DraftCard.objects.in_pack(front).values_list("card__name", flat=True))
    return names


def hidden_names(world, *, piles_too: bool) -> set[str]:
    """Names the player may not receive: single-faced cards of every other seat (every pod, every
    event), in packs or piles, and of the packs waiting behind the one in front of the player;
    with ``piles_too``, every card of another seat's pile."""
    me = world.seats["own"]
    front = Pack.objects.filter(holder=me).order_by("queue_seq").first()
    mine = set(piled(pk=me.pk)) | set(front.card_ids if front else [])
    in_play = DraftCard.objects.filter(pk__in=set(held(holder__isnull=False)) | set(piled()))
    others = in_play.exclude(pk__in=mine)
    names = set(others.filter(is_dfc=False).values_list("card__name", flat=True))
    if piles_too:
        names |= set(DraftCard.objects.filter(pk__in=set(piled()) - mine).values_list("card__name", flat=True))
    return names - visible_names(me)


def secret_penalty_texts(world) -> list[str]:
    """Other players' penalty descriptions, and a judge's reason for pausing a paper pod."""
    return [p.description for key, p in world.penalties.items() if key != "own"] + [PAPER_SECRET]


# The card sheet and the card look-up serve catalogue cards by the event's definition (its sets,
# or its cube list), the same before and after packs open: they name every card of the cube by
# design, and tests/drafts/test_cardsheet.py shows that nothing of the packs reaches them.
CATALOGUE_ROUTES = {"drafts:card-sheet", "drafts:card-batch"}


def player_requests(world) -> list[tuple[str, str, dict | None]]:
    """(method, url, body): every GET route with every id the matrix knows, and refused writes."""
    requests: list[tuple[str, str, dict | None]] = []
    for name, route, params in project_routes():
        for method, kind, _rule, _body in ENDPOINTS[name]:
            if method != "GET" or name in ("api-schema", "api-docs", "api-redoc"):
                continue
            if name in CATALOGUE_ROUTES:
                continue
            for target in targets(world, kind, params):
                url = "/" + route
                for key, value in target.kwargs.items():
                    url = url.replace(f"<{_converter(route, key)}{key}>", str(value))
                requests.append(("GET", url, None))
    own, mate = world.seats["own"], world.seats["mate"]
    stranger = DraftCard.objects.filter(pk__in=held(holder=mate)).first() or DraftCard.objects.in_pile(mate).first()
    if stranger is not None:
        requests += [
            ("POST", f"/api/seats/{own.pk}/picks/", {"card": stranger.pk}),
            ("POST", f"/api/seats/{own.pk}/pile/", {"card": stranger.pk, "position": 0}),
            ("POST", f"/events/seats/{own.pk}/pick/", {"card": stranger.pk}),
        ]
    requests += [
        ("GET", f"/api/seats/{own.pk}/?format=json", None),
        ("GET", "/api/me/penalties/", None),
        ("GET", "/penalties/", None),
    ]
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
        content = b"".join(response) if response.streaming else response.content
        if response.get("Content-Type", "").startswith("image/"):
            continue  # a card's picture (the site's copy) carries no text to leak
        bodies[f"{method} {url}"] = content.decode()
    return bodies


def assert_nothing_hidden(
    world, bodies: dict[str, str], messages: list, *, piles_too: bool, decks_published: bool = False
) -> None:
    # Once decklists are published, every pile is public (decks, logs): only penalties stay hidden.
    names = set() if decks_published else hidden_names(world, piles_too=piles_too)
    secrets = secret_penalty_texts(world)
    assert (names or decks_published) and secrets
    leaks = []
    for where, body in bodies.items():
        leaks += [f"{where}: card {n!r}" for n in names if n in body]
        leaks += [f"{where}: secret {s!r}" for s in secrets if s in body]
    for message in messages:
        if message["type"] in CARD_MESSAGES:
            continue  # checked against the seat's own packs when received (assert_own_cards_only)
        assert set(message) <= SOCKET_KEYS, message  # versions only, never card data
        text = json.dumps(message)
        leaks += [f"socket: {n!r}" for n in names if n in text]
    assert leaks == []
    # Control: the same bodies do carry the player's own cards and own penalty (the check can fail).
    own_cards = visible_names(world.seats["own"])
    missing = {n for n in own_cards if not any(n in body for body in bodies.values())}
    assert own_cards and not missing, missing
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


def assert_own_cards_only(message: dict, seat_id: int) -> None:
    """A card-carrying socket message shows only the seat's own packs, as they were when sent:
    the pack in front in full, each pack waiting behind it only as a count plus its DFCs."""
    if message["type"] == "queue":
        assert message["seat"] == seat_id and set(message) == {"type", "seat", "version", "queue"}, message
    else:
        assert set(message) == {"type", "ref", "pick", "pod", "queue"}, message
        pick = Pick.objects.get(pk=message["pick"]["id"])
        assert pick.seat_id == seat_id and pick.draft_card_id == message["pick"]["card"]
        assert not any(isinstance(v, (list, dict)) for v in message["pod"].values()), message["pod"]
    for index, entry in enumerate(message["queue"]):
        shown = [card["id"] for card in entry["cards"]]
        # What the pack held then: the contents recorded by the pick made from it next, or
        # (nobody has picked from it since) what it holds now.
        later = Pick.objects.filter(pack_id=entry["pack_id"], pick_number=entry["pick_number"]).first()
        if later is not None:
            contents, holder = list(later.pack_contents), later.seat_id
        else:
            pack = Pack.objects.get(pk=entry["pack_id"])
            contents, holder = list(DraftCard.objects.in_pack(pack).values_list("pk", flat=True)), pack.holder_id
        assert holder == seat_id, f"a pack of seat {holder} sent to seat {seat_id}"
        assert entry["cards_left"] == len(contents)
        if index == 0:
            assert sorted(shown) == sorted(contents) and not entry.get("waiting"), entry
        else:
            dfcs = set(DraftCard.objects.filter(pk__in=contents, is_dfc=True).values_list("pk", flat=True))
            assert entry.get("waiting") is True and set(shown) == dfcs, entry  # R15: only the DFCs


def pick_over_the_socket_first(pod_id: int, seat_id: int) -> dict | None:
    """The frame the player sends for their top card, if a pack is in front of them."""
    pod = Pod.objects.get(pk=pod_id)
    if pod.state != PodState.DRAFTING:
        return None
    pack = Pack.objects.filter(holder_id=seat_id).order_by("queue_seq").first()
    if pack is None:
        return None
    card = DraftCard.objects.in_pack(pack).order_by("-place").first()
    return {"type": "pick", "card": card.pk, "pack": pack.pk, "ref": f"{pack.pk}-{pack.picks_made}"}


def draft_step(pod_id: int, *, skip_seat: int | None = None, picked: bool = False) -> str:
    """Every seat holding a pack picks its top card (but ``skip_seat``, who picked over its
    socket, making ``picked`` true); a finished round advances."""
    pod = Pod.objects.get(pk=pod_id)
    if pod.state != PodState.DRAFTING:
        if pod.state == PodState.REVIEWING:
            services.advance_round(pod_id=pod_id, actor=SYSTEM)
        return Pod.objects.get(pk=pod_id).state
    for seat in Seat.objects.filter(pod_id=pod_id).exclude(pk=skip_seat).order_by("position"):
        pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
        if pack is not None:
            card = DraftCard.objects.in_pack(pack).order_by("-place").first()
            services.make_pick(seat_id=seat.pk, draft_card_id=card.pk, actor=SYSTEM)
            picked = True
    if not picked:
        services.advance_round(pod_id=pod_id, actor=SYSTEM)
    return Pod.objects.get(pk=pod_id).state


def register_decks(world) -> None:
    """Seats 0-3 of pod 1 register 23 cards of their pile (+ basics) as their limited deck."""
    world.decks = {}
    for key, seat in (("own", world.seats["own"]), ("mate", world.seats["mate"])):
        names = list(DraftCard.objects.in_pile(seat).values_list("card__name", flat=True)[:23])
        main = [{"name": n, "count": 1} for n in names] + [{"name": "Island", "count": 17}]
        world.decks[key], _ = deck_services.register_deck(
            event_id=world.event.pk, actor=seat.registration.user, main=main
        )


def publish(world) -> None:
    world.event.decklists_published = True
    world.event.save(update_fields=["decklists_published"])


async def test_a_player_receives_no_hidden_information_during_a_whole_draft(cube_names):  # noqa: F811
    world = await database_sync_to_async(build_world)(cube_names, deck_format="limited", with_decks=False)
    player, own_seat, mate_seat = world.users["player"], world.seats["own"], world.seats["mate"]
    listeners = {  # name -> (path, user)
        "own seat": (f"ws/seats/{own_seat.pk}/", player),
        "own pod": (f"ws/pods/{world.pod.pk}/", player),
        "mate seat": (f"ws/seats/{mate_seat.pk}/", world.mates[1]),
        "spectator": (f"ws/watch/{world.pod.spectator_token}/", None),
        "organiser pod": (f"ws/pods/{world.pod.pk}/", world.users["organiser"]),
        "dashboard": (f"ws/events/{world.event.pk}/", world.users["organiser"]),
    }
    sockets = {}
    for name, (path, user) in listeners.items():
        communicator = WebsocketCommunicator(router, path)
        communicator.scope["user"] = user or AnonymousUser()
        connected, _ = await communicator.connect()
        assert connected, name
        sockets[name] = communicator
    messages: list = []
    checks = 0
    picked_before = await database_sync_to_async(Pick.objects.filter(seat=own_seat).count)()  # build_world's
    try:
        steps, state = 0, PodState.DRAFTING
        checkpoints = {1, 6, 14, 20, 31, 40}  # rounds 1, 2 and 3, first and late picks
        seen = {name: [] for name in sockets}
        while state != PodState.DECK_BUILDING:
            # The player dawdles for two steps first: packs pile up behind the one in front.
            frame = (
                None
                if steps < 2
                else await database_sync_to_async(pick_over_the_socket_first)(world.pod.pk, own_seat.pk)
            )
            if frame is not None:
                await sockets["own seat"].send_json_to(frame)
            state = await database_sync_to_async(draft_step)(
                world.pod.pk, skip_seat=own_seat.pk, picked=frame is not None
            )
            steps += 1
            assert steps < 100
            for name, communicator in sockets.items():
                heard = await drain(communicator)
                if frame is not None and name == "own seat":
                    while not any(m["type"] in ("picked", "pick_refused") for m in heard):
                        heard += [await communicator.receive_json_from(timeout=10)] + await drain(communicator)
                    (answer,) = [m for m in heard if m["type"] in ("picked", "pick_refused")]
                    assert answer["type"] == "picked" and answer["ref"] == frame["ref"], answer
                for message in heard:
                    if message["type"] in CARD_MESSAGES:
                        assert name in ("own seat", "mate seat"), (name, message)
                        seat_id = own_seat.pk if name == "own seat" else mate_seat.pk
                        await database_sync_to_async(assert_own_cards_only)(message, seat_id)
                seen[name] += heard
                messages += heard
            if steps in checkpoints:
                bodies = await database_sync_to_async(fetch_everything)(world)
                await database_sync_to_async(assert_nothing_hidden)(world, bodies, messages, piles_too=False)
                checks += 1
        # The pages that are not a seat's heard versions only; the seats heard their own cards
        # (answers to every pick over the socket, and packs pushed to an empty queue).
        for name, heard in seen.items():
            kinds = {m["type"] for m in heard}
            assert sum(m["type"] == "changed" for m in heard) > 40, name
            if name == "own seat":
                assert kinds == {"hello", "changed", "picked", "queue"}, kinds
                manual = await database_sync_to_async(Pick.objects.filter(seat=own_seat, kind="manual").count)()
                # Every pick of theirs since the sockets opened went over the socket.
                assert sum(m["type"] == "picked" for m in heard) == manual - picked_before > 30
                assert any(len(m["queue"]) > 1 for m in heard if m["type"] in CARD_MESSAGES), (
                    "no answer showed a pack waiting behind the front one (the R15 check ran on nothing)"
                )
            elif name == "mate seat":
                assert kinds == {"hello", "changed", "queue"}, kinds
            else:
                assert kinds == {"hello", "changed"}, (name, kinds)
                assert all(set(m) <= SOCKET_KEYS for m in heard), name
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
        await database_sync_to_async(assert_nothing_hidden)(
            world, bodies, messages, piles_too=False, decks_published=True
        )
        checks += 3
    finally:
        for communicator in sockets.values():
            await communicator.disconnect()
        await database_sync_to_async(connections.close_all)()
    assert checks == 9
