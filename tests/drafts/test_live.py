"""drafts.live: a change's messages reach this process's sockets at once and the other
processes' through one Redis message, which the publishing process does not deliver twice."""

from __future__ import annotations

import asyncio

import orjson
import pytest

from drafts import live


class Page:
    """A listener as a socket is one: what it was handed, in order."""

    def __init__(self) -> None:
        self.heard: list[tuple[str, int, dict]] = []

    async def deliver(self, topic: str, version: int, text: str) -> None:
        self.heard.append((topic, version, orjson.loads(text)))


CHANGE = (
    ("pod:7", {"type": "changed", "pod": 7, "version": 3}),
    ("seat:70", {"type": "queue", "seat": 70, "version": 3, "queue": []}),
)


async def _settle() -> None:
    for _ in range(20):  # let the loop run the deliveries and read the subscription
        await asyncio.sleep(0.02)


def test_without_redis_the_change_reaches_this_process_s_pages(settings):
    settings.LIVE_UPDATES_URL = ""

    async def scenario():
        hub, page, other = await live.hub(), Page(), Page()
        hub.join("pod:7", page)
        hub.join("seat:70", page)
        hub.join("pod:8", other)
        await live.apublish(*CHANGE)
        await _settle()
        return page.heard, other.heard

    heard, other = asyncio.run(scenario())
    assert heard == [("pod:7", 3, CHANGE[0][1]), ("seat:70", 3, CHANGE[1][1])]
    assert other == []


def test_one_redis_message_per_change_heard_once_by_its_own_process_and_once_by_others(private_redis, settings):
    import redis.asyncio as aioredis

    settings.LIVE_UPDATES_URL = private_redis["url"]

    async def scenario():
        hub, page = await live.hub(), Page()
        hub.join("pod:7", page)
        hub.join("seat:70", page)
        watcher = aioredis.Redis.from_url(private_redis["url"]).pubsub()
        await watcher.subscribe(live.channel())
        await watcher.get_message(timeout=1)  # the subscription's confirmation
        await live.apublish(*CHANGE)
        await _settle()
        sent = await watcher.get_message(timeout=2)
        assert await watcher.get_message(timeout=0.2) is None  # one message for the whole change
        own = list(page.heard)
        # The same change from another process (the worker, another web process) on the wire.
        sender, messages = live.decode(sent["data"])
        assert sender == live.origin() and [m[0] for m in messages] == ["pod:7", "seat:70"]
        client = aioredis.Redis.from_url(private_redis["url"])
        await client.publish(live.channel(), b"garbage")  # ignored; the subscription stays
        await client.publish(live.channel(), orjson.dumps(["another-process", messages]))
        await _settle()
        await client.aclose()
        await watcher.aclose()
        hub.task.cancel()
        return own, page.heard[len(own) :]

    own, foreign = asyncio.run(scenario())
    expected = [("pod:7", 3, CHANGE[0][1]), ("seat:70", 3, CHANGE[1][1])]
    assert own == expected  # delivered here at once, and not again when Redis echoed it
    assert foreign == expected


def test_changes_made_while_a_message_is_on_the_wire_share_the_next_one_in_order(private_redis, settings):
    """The Outbox: a busy loop publishes one Redis message for many changes; each other process
    still hears every message once, in the order the changes were made."""
    import redis.asyncio as aioredis

    settings.LIVE_UPDATES_URL = private_redis["url"]
    changes = [(("pod:7", {"type": "changed", "pod": 7, "version": version}),) for version in range(1, 6)]

    async def scenario():
        await live.hub()
        watcher = aioredis.Redis.from_url(private_redis["url"]).pubsub()
        await watcher.subscribe(live.channel())
        await watcher.get_message(timeout=1)
        await live.apublish(*changes[0])  # leaves on the loop's next step, alone
        await asyncio.sleep(0)
        for change in changes[1:]:  # made while the first is on the wire
            await live.apublish(*change)
        received = []
        while (message := await watcher.get_message(timeout=1)) is not None:
            received.append(live.decode(message["data"])[1])
        await watcher.aclose()
        return received

    received = asyncio.run(scenario())
    assert [[version for _, version, _ in messages] for messages in received] == [[1], [2, 3, 4, 5]]


def test_an_outbox_redis_does_not_take_keeps_only_the_newest_messages(settings, monkeypatch):
    """Redis away: a web process neither raises nor grows without bound (pages resynchronise
    by version when it is back)."""
    monkeypatch.setattr(live, "OUTBOX_LIMIT", 3)
    settings.LIVE_UPDATES_URL = "redis://127.0.0.1:1/0"  # nothing listens there

    async def scenario():
        for version in range(1, 8):
            await live.apublish(("pod:7", {"type": "changed", "pod": 7, "version": version}))
        outbox = live._outbox(settings.LIVE_UPDATES_URL)
        kept = [version for _, version, _ in outbox.waiting]
        while outbox.task is not None:  # every send fails, and is logged, not raised
            await asyncio.sleep(0.01)
        return kept, outbox.waiting

    kept, left = asyncio.run(scenario())
    assert kept == [5, 6, 7]
    assert left == []


def test_a_sync_publish_from_a_thread_reaches_the_loop_s_pages(settings):
    """Views and Celery tasks publish from threads; the sockets' loop delivers."""
    settings.LIVE_UPDATES_URL = ""

    async def scenario():
        hub, page = await live.hub(), Page()
        hub.join("pod:7", page)
        await asyncio.to_thread(live.publish, CHANGE[0])
        await _settle()
        return page.heard

    assert asyncio.run(scenario()) == [("pod:7", 3, CHANGE[0][1])]


@pytest.mark.parametrize("data", [b"not json", b"[1]", b'["x", [["pod:1"]]]'])
def test_a_malformed_message_is_refused_by_decode(data):
    with pytest.raises((ValueError, TypeError)):
        live.decode(data)


@pytest.mark.asyncio
async def test_changes_committed_while_a_document_is_read_share_the_next_read(monkeypatch):
    """drafts.aio.DocumentReader: a caller always gets a document read after its change; the
    changes that come while a read is on its way share one more read, and only the first of
    them publishes it."""
    from drafts import aio

    reads = []

    async def aread(pod_id):
        reads.append(pod_id)
        await asyncio.sleep(0.01)
        return f"document {len(reads)}"

    monkeypatch.setattr(aio, "aread_document", aread)
    first = asyncio.ensure_future(aio.reader(7).document())
    await asyncio.sleep(0)  # the first read is on its way
    later = [asyncio.ensure_future(aio.reader(7).document()) for _ in range(5)]
    results = [await first] + [await f for f in later]
    assert reads == [7, 7]
    assert results[0] == ("document 1", True)
    assert results[1:] == [("document 2", True)] + [("document 2", False)] * 4
    assert (asyncio.get_running_loop(), 7) not in aio._readers


def test_a_document_travels_as_json_and_is_shared_as_it_was_read():
    """A pod's document is JSON text already: the Redis message embeds it as JSON (not as an
    escaped string of it), the other process parses it once, with its envelope, into the same
    data; and the process that read it shares that very document with its own sockets."""
    from drafts import state

    text = '{"pod": {"id": 7, "version": 4}, "seats": [], "packs": [], "piles": {}}'
    document = state.Document.decode(text)
    messages = live._messages(((live.state_topic(7), document), ("pod:7", {"type": "changed", "version": 4})))
    assert state.shared_document(live.state_topic(7), 4, "not even JSON") is document  # never decoded again here
    wire = live.encode(messages)
    assert text.encode() in wire  # as it was read: not escaped
    _, heard = live.decode(wire)
    assert heard[0] == (live.state_topic(7), 4, orjson.loads(text))
    state._shared.clear()
    other = state.shared_document(heard[0][0], heard[0][1], heard[0][2])
    assert other.data == document.data and other.version == 4
    assert orjson.loads(other.encode()) == orjson.loads(text)


def test_a_process_knows_its_own_messages_by_their_first_bytes(monkeypatch):
    """Every process hears its own publishes back: it drops them before decoding the batch
    (its sockets had them already), and decodes every other process's."""
    wire = live.encode(live._messages((("pod:7", {"type": "changed", "version": 4}),)))
    assert live.sent_here(wire) and live.sent_here(wire.decode())
    assert live.decode(wire)[0] == live.origin()
    monkeypatch.setattr(live, "_origin", "another process")
    assert not live.sent_here(wire) and not live.sent_here(wire.decode())
    assert not live.sent_here(b"not json")


class DocumentPage:
    """A state socket as the hub hands it its pod's documents."""

    def __init__(self) -> None:
        self.heard: list = []

    async def deliver(self, topic: str, version: int, text) -> None:
        self.heard.append((topic, version, text))


def _document(version: int, pile: list[int]):
    from drafts import state

    # Seat 70 holds pack 5 ([1, 2]); its pile is ``pile``. Card entries: [id, ..., is_dfc].
    cards = {i: [i, 100 + i, 200 + i, "common", False, False] for i in (1, 2, 3)}
    return state.Document(
        {
            "pod": {
                "id": 7,
                "event_id": 1,
                "number": 1,
                "round": 1,
                "paused_remaining_ms": None,
                "version": version,
                "pick_timer": False,
                "decklists_published": False,
                "state": "drafting",
                "paused_from": "",
                "review_deadline": None,
                "deck_building_deadline": None,
            },
            "seats": [[70, 0, "A", 1, False, False, ""], [71, 1, "B", 2, False, False, ""]],
            "packs": [[5, 70, 1, 0, 3, None, None, [cards[1], cards[2]]]],
            "piles": {"70": [cards[i] for i in pile]},
        },
        None,
    )


def test_a_pick_s_patch_travels_and_patches_every_process_s_copy_once(settings):
    """The picking process publishes the pick's patch, not the document: another process
    patches its copy with it once for all its sockets, which get that document (no read)."""
    from drafts import state

    settings.LIVE_UPDATES_URL = ""
    topic = live.state_topic(7)
    before = _document(4, [3])
    patch = {"from": 4, "version": 5, "seats": [70, 71], "gone": 5, "packs": [[5, 71, 1, 1, 3, None, None, [2]]]}
    patch["piles"] = {"70": [3, 1], "71": []}
    after = before.patched(patch, orjson.dumps(patch).decode())
    assert after is not None and after.version == 5
    assert after.held[71][0]["cards"] == [[2, 102, 202, "common", False, False]] and after.held[70] == []
    assert [c[0] for c in after.pile(70)] == [3, 1]
    wire = live.encode(live._messages(((topic, after),)))
    assert b'"seats":[70,71]' in wire and b"common" not in wire  # the patch: ids only

    async def scenario():
        state._shared.clear()
        state.remember(topic, _document(4, [3]))  # the other process's copy, of version 4
        hub, page, other = await live.hub(), DocumentPage(), DocumentPage()
        hub.join(topic, page)
        hub.join(topic, other)
        _sender, messages = live.decode(wire)
        await hub.dispatch(messages)
        return page.heard, other.heard

    heard, other = asyncio.run(scenario())
    assert len(heard) == 1 and heard[0][2] is other[0][2]  # one document for both sockets
    document = heard[0][2]
    assert document.version == 5 and document.held == after.held and document.data["piles"] == after.data["piles"]
    state._shared.clear()


def test_a_patch_after_a_gap_is_not_applied_the_pod_is_read_whole(settings, monkeypatch):
    """A patch that does not start from the copy's version (the process missed one, or never
    followed the pod): the hub reads the pod's document whole and hands that to its sockets."""
    from drafts import aio, state

    settings.LIVE_UPDATES_URL = ""
    topic = live.state_topic(7)
    reads = []

    async def aread(pod_id):
        reads.append(pod_id)
        document = _document(9, [3, 1])
        state.remember(topic, document)
        return document

    monkeypatch.setattr(aio, "aread_document", aread)
    patch = {"from": 8, "version": 9, "seats": [70], "gone": 5, "packs": [], "piles": {"70": [3, 1]}}

    async def scenario():
        state._shared.clear()
        state.remember(topic, _document(4, [3]))  # behind: versions 5-8 were missed
        hub, page = await live.hub(), DocumentPage()
        hub.join(topic, page)
        await hub.dispatch([(topic, 9, orjson.loads(orjson.dumps(patch)))])
        assert page.heard == []  # nothing from a patch that does not apply
        await _settle()
        return page.heard

    heard = asyncio.run(scenario())
    assert reads == [7]
    assert [(t, v) for t, v, _ in heard] == [(topic, 9)] and heard[0][2].pile(70)[1][0] == 1
    assert state.known(topic).version == 9
    state._shared.clear()


@pytest.mark.asyncio
async def test_a_socket_pick_sends_the_copy_s_version_once_its_turn_came(monkeypatch):
    """A pod's picks in one process wait their turn: each sends the version of the copy as the
    picks before it left it (read once its turn began, not while it waited), so at saturation
    their answers are patches, not the whole document."""
    import datetime as dt

    from drafts import aio, state

    topic = live.state_topic(7)
    state._shared.clear()
    state.remember(topic, _document(4, [3]))
    sent = []

    async def fetch_one(pool, sql, params):
        assert sql == aio.PICK_LIVE_KNOWN_SQL
        sent.append(params[-1])
        await asyncio.sleep(0.01)
        return ('{"status": "ok"}', None)

    async def pool():
        return None

    monkeypatch.setattr(aio, "_fetch_one", fetch_one)
    monkeypatch.setattr(aio, "_pool", pool)
    at = dt.datetime(2026, 12, 6, tzinfo=dt.UTC)

    async def pick(version_after: int) -> None:
        await aio.acall(
            pod_id=7,
            seat_id=70,
            draft_card_id=1,
            pack_id=5,
            position=None,
            actor_id=None,
            owner_id=None,
            received_at=at,
            now=at,
            cutoff=at,
            with_document=True,
            with_queues=False,
        )
        state.remember(topic, _document(version_after, [3]))  # as amake_pick patches it, with no await between

    await asyncio.gather(pick(5), pick(6), pick(7))
    assert sent == [4, 5, 6]
    state._shared.clear()


def test_sockets_of_one_view_at_one_version_share_one_encoded_frame():
    """Encode once, write many: every spectator (or staff page) at the same version gets the
    very same delta frame; a player's view, or another starting version, gets its own."""
    from drafts import state

    before, after = _document(4, [3]), _document(5, [3, 1])
    spectator, player = state.Viewer(), state.Viewer(seat_ids=(70,))
    shown = {viewer: state.pieces(before, viewer) for viewer in (spectator, player)}
    one = state.view_change(after, spectator, 4, shown[spectator])
    two = state.view_change(after, state.Viewer(), 4, dict(shown[spectator]))
    assert one is two and one.frame is two.frame
    assert orjson.loads(one.frame)["deltas"][0]["from"] == 4
    mine = state.view_change(after, player, 4, shown[player])
    assert mine is not one and "seats" in mine.delta and "seats" not in one.delta  # R16: the pile is the player's
    assert state.view_change(after, spectator, 3, shown[spectator]) is not one
