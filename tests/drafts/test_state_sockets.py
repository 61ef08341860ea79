"""The state dialect of the draft sockets (drafts.protocol): a snapshot per viewer, then deltas.

Every frame any socket sends is checked against its type; the state a page builds from its
snapshot and the deltas equals a fresh snapshot, for every kind of viewer, over a whole draft
with pauses, a replacement and reconnects; and no frame to a player, member or spectator
holds a single-faced card of another seat (R16)."""

from __future__ import annotations

import asyncio
import copy
import random

import orjson
import pytest
import pytest_asyncio
from channels.db import database_sync_to_async
from django.db import connections
from django.utils import timezone

from drafts import presence, protocol, services
from drafts.models import DraftCard, Pack, PodState, Seat
from events.access import SYSTEM
from events.models import StaffRole
from tests.drafts import conftest
from tests.drafts.test_consumers import opened, socket
from tests.drafts.test_state import card_ids_in
from tests.factories import EventStaffFactory, UserFactory

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True), pytest.mark.asyncio]

STATE = "?protocol=state"


@pytest_asyncio.fixture(autouse=True)
async def _close_connections_of_the_orm_thread():
    yield
    await database_sync_to_async(connections.close_all)()


@pytest.fixture
def pod(organiser, players, cube_names):
    return conftest.make_pod(organiser, players, cube_names, now=timezone.now())


@pytest.fixture
def seats(pod):
    seats = list(Seat.objects.filter(pod=pod).order_by("position"))
    presence.forget([s.pk for s in seats])
    return seats


@pytest.fixture
def judge(pod):
    user = UserFactory(username="judy")
    EventStaffFactory(event=pod.event, user=user, role=StaffRole.JUDGE)
    return user


class Page:
    """What a shipped page does with the frames: the model the real page script follows."""

    def __init__(self, path: str, user, seat_id: int | None = None):
        self.path, self.user, self.seat_id = path, user, seat_id
        self.frames: list[dict] = []
        self.state: dict | None = None
        self.version = -1
        self.applied: list[tuple[int, int]] = []
        self.gaps = 0

    async def open(self):
        self.communicator = await opened(self.path + STATE, self.user)
        hello = await self.receive()
        assert hello["type"] == "hello" and hello["protocol"] == protocol.PROTOCOL_STATE
        await self.until(lambda: self.state is not None)

    async def receive(self, timeout=5):
        frame = orjson.loads(await self.communicator.receive_from(timeout=timeout))
        protocol.check_server_frame(frame)
        self.frames.append(frame)
        if frame["type"] == "snapshot":
            self.state, self.version = copy.deepcopy(frame["state"]), frame["version"]
        elif frame["type"] == "delta" or frame["type"] == "picked" and "deltas" in frame:
            for delta in frame["deltas"]:
                if delta["version"] <= self.version:
                    continue
                if delta["from"] != self.version:
                    self.gaps += 1
                    continue
                apply(self.state, delta)
                self.applied.append((delta["from"], delta["version"]))
                self.version = delta["version"]
        return frame

    async def until(self, condition, timeout=5):
        deadline = asyncio.get_running_loop().time() + timeout
        while not condition():
            await self.receive(timeout=max(0.05, deadline - asyncio.get_running_loop().time()))

    async def drain(self):
        # receive_nothing waits without cancelling the socket (a timed-out receive would)
        while not await self.communicator.receive_nothing(timeout=0.3):
            await self.receive()

    async def close(self):
        await self.communicator.disconnect()


def apply(state: dict, delta: dict) -> None:
    if "pod" in delta:
        state["pod"] = delta["pod"]
    board = delta.get("board", {})
    if "piles_open" in board:
        state["board"]["piles_open"] = board["piles_open"]
    for position, seat in board.get("seats", {}).items():
        state["board"]["seats"][int(position)] = seat
    for seat_id, parts in delta.get("seats", {}).items():
        state["seats"].setdefault(seat_id, {}).update(parts)


async def fresh(path, user) -> dict:
    page = Page(path, user)
    await page.open()
    await page.close()
    return page.state


@database_sync_to_async
def pick_for(seat: Seat, rng: random.Random) -> bool:
    pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
    if pack is None:
        return False
    card = rng.choice(list(DraftCard.objects.in_pack(pack)))
    services.make_pick(seat_id=seat.pk, draft_card_id=card.pk, position=rng.choice([None, 0]), actor=SYSTEM)
    return True


async def test_a_seat_page_gets_a_snapshot_of_its_own_cards_and_the_open_board(pod, seats, players):
    page = Page(f"/ws/seats/{seats[0].pk}/", players[0])
    await page.open()
    snapshot = page.frames[-1]
    assert snapshot["type"] == "snapshot" and snapshot["version"] == pod.version
    assert snapshot["cards_url"].startswith(f"/events/{pod.event_id}/cards/")
    mine = snapshot["state"]["seats"][str(seats[0].pk)]
    front = await database_sync_to_async(lambda: list(Pack.objects.filter(holder=seats[0]).first().card_ids))()
    assert sorted(c[0] for c in mine["queue"][0]["cards"]) == sorted(front)
    assert len(snapshot["state"]["board"]["seats"]) == 8
    await page.close()


async def test_a_pick_reaches_the_next_seat_as_a_delta_with_the_pack(pod, seats, players):
    picker = Page(f"/ws/seats/{seats[0].pk}/", players[0])
    neighbour = Page(f"/ws/seats/{seats[1].pk}/", players[1])
    await picker.open()
    await neighbour.open()
    pack = await database_sync_to_async(lambda: Pack.objects.filter(holder=seats[0]).first())()
    await pick_for(seats[0], random.Random(1))
    queue = lambda: neighbour.state["seats"][str(seats[1].pk)]["queue"]  # noqa: E731
    await neighbour.until(lambda: any(p["pack_id"] == pack.pk for p in queue()))
    waiting = next(p for p in queue() if p["pack_id"] == pack.pk)
    assert waiting.get("waiting") is True  # behind the neighbour's own first pack: DFCs only (R15)
    assert all(card[5] for card in waiting["cards"])
    assert neighbour.state == await fresh(f"/ws/seats/{seats[1].pk}/", players[1])
    await picker.close()
    await neighbour.close()


async def test_a_socket_pick_answers_with_the_pickers_own_delta_in_one_frame(pod, seats, players):
    """The picker's pile and queue change in the ``picked`` answer itself: no ``delta`` frame
    follows for that version, and the page then equals a fresh snapshot."""
    picker = Page(f"/ws/seats/{seats[0].pk}/", players[0])
    await picker.open()
    before = picker.version
    pack = await database_sync_to_async(lambda: Pack.objects.filter(holder=seats[0]).order_by("queue_seq").first())()
    card = await database_sync_to_async(lambda: min(Pack.objects.get(pk=pack.pk).card_ids))()
    await picker.communicator.send_to(text_data=orjson.dumps({"type": "pick", "card": card, "pack": pack.pk}).decode())
    answer = await picker.receive()
    assert answer["type"] == "picked" and answer["deltas"][0]["from"] == before
    assert picker.version == answer["pick"]["pod_version"] > before
    own = answer["deltas"][0]["seats"][str(seats[0].pk)]
    assert card in [row[0] for row in own["pile"]] and pack.pk not in [p["pack_id"] for p in own["queue"]]
    await picker.drain()
    sent_again = [d for f in picker.frames if f["type"] == "delta" for d in f["deltas"] if d["from"] == before]
    assert sent_again == []
    assert picker.state == await fresh(f"/ws/seats/{seats[0].pk}/", players[0])
    await picker.close()


async def test_pages_build_the_same_state_as_a_fresh_snapshot_over_a_whole_draft(pod, seats, players, organiser, judge):
    """Random picks, a pause and resume, a seat replaced by an automatic drafter, readies
    between rounds and a reconnect, with a page of every kind open: every frame has its type,
    each version is applied once and in order, and every page equals a fresh snapshot."""
    rng = random.Random(11)
    spectator_token = await database_sync_to_async(
        lambda: services.regenerate_spectator_token(pod_id=pod.pk, actor=organiser)
    )()
    pages = {
        "player": Page(f"/ws/seats/{seats[2].pk}/", players[2]),
        "staff seat": Page(f"/ws/seats/{seats[5].pk}/", judge),
        "member": Page(f"/ws/pods/{pod.pk}/", players[3]),
        "staff pod": Page(f"/ws/pods/{pod.pk}/", judge),
        "spectator": Page(f"/ws/watch/{_token(spectator_token)}/", None),
    }
    for page in pages.values():
        await page.open()
    dashboard = await opened(f"/ws/events/{pod.event_id}/{STATE}", organiser)
    steps = 0
    while steps < 200:
        steps += 1
        state = await database_sync_to_async(lambda: type(pod).objects.get(pk=pod.pk).state)()
        if state == PodState.REVIEWING:
            await database_sync_to_async(_everyone_ready)(pod)
            continue
        if state != PodState.DRAFTING:
            break
        if steps == 20:
            await database_sync_to_async(services.pause_pod)(pod_id=pod.pk, actor=organiser)
            await database_sync_to_async(services.resume_pod)(pod_id=pod.pk, actor=organiser)
        if steps == 30:
            await database_sync_to_async(services.replace_with_automatic)(seat_id=seats[7].pk, actor=organiser)
        if steps == 40:  # the member's page drops and comes back
            await pages["member"].close()
            pages["member"] = Page(f"/ws/pods/{pod.pk}/", players[3])
            await pages["member"].open()
        for seat in rng.sample(seats[:7], 3):
            await pick_for(seat, rng)
        for page in pages.values():
            await page.drain() if steps % 10 == 0 else None
    for name, page in pages.items():
        await page.drain()
        assert page.gaps == 0, name
        assert len({v for _, v in page.applied}) == len(page.applied), name
        assert all(a < b for a, b in page.applied), name
        assert page.state == await fresh(page.path, page.user), name
    summaries = []
    while not await dashboard.receive_nothing(timeout=2.5):
        frame = orjson.loads(await dashboard.receive_from())
        protocol.check_server_frame(frame)
        summaries.append(frame)
    assert any(frame["type"] == "summary" and frame["pods"] for frame in summaries)
    await dashboard.disconnect()
    for page in pages.values():
        await page.close()
    # R16: no frame to a player, member or spectator holds another seat's single-faced card
    # that was never in the pack in front of that player.
    single = await database_sync_to_async(
        lambda: set(DraftCard.objects.filter(pod=pod, is_dfc=False).values_list("pk", flat=True))
    )()
    for name in ("member", "spectator"):
        assert not set(card_ids_in(pages[name].frames)) & single, name
    player_pile = await database_sync_to_async(
        lambda: set(DraftCard.objects.in_pile(seats[2]).values_list("pk", flat=True))
    )()
    seen = set(card_ids_in(pages["player"].frames)) & single
    fronts = set()
    for frame in pages["player"].frames:
        for queue in _queues_of(frame, seats[2].pk):
            if queue:
                fronts |= {card[0] for card in queue[0]["cards"]}
    assert seen <= fronts | player_pile


def _everyone_ready(pod) -> None:
    from draftsite.errors import ConflictError

    for seat in Seat.objects.filter(pod=pod, ready=False, is_automatic=False):
        try:
            services.mark_ready(seat_id=seat.pk, actor=SYSTEM)
        except ConflictError:  # the last one started the next round
            return


def _token(value) -> str:
    return value if isinstance(value, str) else value.spectator_token


def _queues_of(frame, seat_id):
    if frame["type"] == "snapshot":
        yield frame["state"]["seats"].get(str(seat_id), {}).get("queue", [])
    elif frame["type"] == "delta":
        for delta in frame["deltas"]:
            part = delta.get("seats", {}).get(str(seat_id), {})
            if "queue" in part:
                yield part["queue"]


async def test_a_page_that_asks_for_sync_gets_a_new_snapshot(pod, seats, players):
    page = Page(f"/ws/seats/{seats[0].pk}/", players[0])
    await page.open()
    await page.communicator.send_to(text_data='{"type":"sync"}')
    frame = await page.receive()
    assert frame["type"] == "snapshot"
    await page.close()


async def test_ready_over_the_socket_marks_the_seat_ready_or_says_why_not(pod, seats, players, judge):
    page = Page(f"/ws/seats/{seats[0].pk}/", players[0])
    await page.open()
    await page.communicator.send_to(text_data='{"type":"ready","ref":"r1"}')
    frame = await page.receive()
    assert frame["type"] == "refused" and frame["ref"] == "r1" and frame["status"] == 409  # not reviewing
    await page.close()
    staff = Page(f"/ws/seats/{seats[0].pk}/", judge)
    await staff.open()
    await staff.communicator.send_to(text_data='{"type":"ready","ref":2}')
    frame = await staff.receive()
    assert frame["type"] == "refused" and frame["status"] == 403
    await staff.close()


def _to_review(pod) -> None:
    """Every seat picks its whole round 1: the pod reviews, waiting for its players' "ready"."""
    seats = list(Seat.objects.filter(pod=pod).order_by("position"))
    while Pack.objects.filter(pod=pod, holder__isnull=False).exists():
        for seat in seats:
            front = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
            if front is not None:
                card = DraftCard.objects.in_pack(front).order_by("pk").first()
                services.make_pick(seat_id=seat.pk, draft_card_id=card.pk, pack_id=front.pk, actor=SYSTEM)
    pod.refresh_from_db()
    assert pod.state == PodState.REVIEWING


async def test_the_last_ready_over_the_socket_opens_the_next_round_and_every_page_hears_it(pod, seats, players):
    await database_sync_to_async(_to_review)(pod)
    pages = [Page(f"/ws/seats/{seat.pk}/", player) for seat, player in zip(seats, players)]
    for page in pages:
        await page.open()
    for page in pages:
        await page.communicator.send_to(text_data='{"type":"ready","ref":"r"}')
        await page.until(lambda p=page: p.frames[-1]["type"] in ("readied", "refused"))
        assert page.frames[-1]["type"] == "readied", page.frames[-1]
    await database_sync_to_async(pod.refresh_from_db)()
    assert pod.state == PodState.DRAFTING and pod.round == 2
    # Every page draws round 2 from its deltas: its own new pack in front, each seat not ready.
    for seat, page in zip(seats, pages):
        await page.until(lambda p=page, s=seat: p.state["pod"]["round"] == 2 and p.state["seats"][str(s.pk)]["queue"])
        assert not any(board["ready"] for board in page.state["board"]["seats"])
        assert page.state == await fresh(page.path, page.user)
        await page.close()


async def test_the_versions_dialect_is_unchanged_for_api_clients(pod, seats, players):
    communicator = socket(f"/ws/seats/{seats[0].pk}/", players[0])
    await communicator.connect(timeout=5)
    hello = orjson.loads(await communicator.receive_from())
    changed = orjson.loads(await communicator.receive_from())
    protocol.check_server_frame(hello)
    protocol.check_server_frame(changed)
    assert hello == {"type": "hello", "role": "player"} and changed["type"] == "changed"
    await communicator.disconnect()


async def test_the_dashboard_hears_each_pods_clock_and_offline_count_without_a_panel(
    monkeypatch, organiser, pod, seats, players
):
    """The dashboard's summaries carry every column of a pod's line: the clock (a pick clock's
    deadline as ``due``; a paused pod's time left as ``frozen``) and the offline count, read
    from the presence store every ``OFFLINE_EVERY`` seconds for the whole event, sent again
    only when it changed."""
    from drafts.consumers import EventSocket

    monkeypatch.setattr(EventSocket, "OFFLINE_EVERY", 0.2)
    monkeypatch.setattr(EventSocket, "SUMMARY_EVERY", 0.2)
    dashboard = await opened(f"/ws/events/{pod.event_id}/{STATE}", organiser)

    digest: dict = {}  # the pod's line as the page merges the summaries' fields

    async def summaries_until(test):
        heard = []
        while True:
            frame = orjson.loads(await dashboard.receive_from(timeout=5))
            protocol.check_server_frame(frame)
            if frame["type"] == "summary":
                for fields in frame["pods"]:
                    if fields["id"] == pod.pk:
                        heard.append(fields)
                        digest.update(fields)
                if any(test(fields) for fields in heard):
                    return heard

    await summaries_until(lambda fields: "offline" in fields)
    assert digest["clock"] == "pick" and isinstance(digest["due"], int) and digest.get("frozen") is None
    assert digest["offline"] == 8  # nobody's page is open

    page = await opened(f"/ws/seats/{seats[0].pk}/{STATE}", players[0])  # one player comes back
    heard = await summaries_until(lambda fields: fields.get("offline") == 7)
    assert [fields["offline"] for fields in heard if "offline" in fields] == [7]  # once, when it changed

    await database_sync_to_async(services.pause_pod)(pod_id=pod.pk, actor=organiser)
    await summaries_until(lambda fields: fields.get("state") == PodState.PAUSED)
    assert digest["clock"] == "pick" and digest["due"] is None and digest["frozen"] > 0
    await page.disconnect()
    await dashboard.disconnect()
