"""Live updates: at most one publish per change, one subscription per web process.

A committed change of a pod becomes messages, each the exact text its sockets send: the pod's
new version on the pod's topic (``pod:<id>``), a seat's queue on the seat's topic
(``seat:<id>``) when a pack reached its front, a regenerated spectator link on
``spectators:<pod id>``. The sockets of the process that made the change get them at once;
the change's messages then travel together in one Redis message to every other process,
whose one subscription hands them to that process's sockets following each topic. The
publishing process recognises its own message coming back (its ``origin``) and skips it.
The cost of a change is at most one publish and one receive per other process (an event
loop's changes made while its last message was on the wire share the next one: ``Outbox``),
and one frame per listening page.

Redis channels ignore the database number, so the channel carries the site's namespace (its
database and Redis database): two sites, or a test run, sharing one Redis never hear each
other.

Two web processes may publish versions of one pod out of commit order; each socket remembers
which versions it sent, so a page hears every committed version of its pod exactly once, in
whatever order they arrive (pages compare versions and ignore an older one).

Without ``LIVE_UPDATES_URL`` (the embedded single-process site, and tests) only the local
delivery happens.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import uuid
from collections import defaultdict
from typing import Any, Protocol

import orjson
from django.conf import settings

from draftsite import redislink

logger = logging.getLogger(__name__)


def prefix() -> str:
    """``draftsite:<database name>:<redis db>:live:``: the channels of this site only."""
    url = _url()
    database = settings.DATABASES["default"]["NAME"]
    return f"draftsite:{database}:{url.rstrip('/').rsplit('/', 1)[-1] if url else 'local'}:live:"


def channel() -> str:
    """The site's one Redis channel: every change's messages, as ``encode`` made them."""
    return prefix() + "changes"


_origin = uuid.uuid4().hex


def _rename_after_fork() -> None:
    global _origin
    _origin = uuid.uuid4().hex


os.register_at_fork(after_in_child=_rename_after_fork)


def origin() -> str:
    """This process's name on the channel (a forked child gets a name of its own). Kept, not
    derived from the pid on each call: every message sent and heard asks for it."""
    return _origin


# topic, version, the text its sockets send (a document's: its JSON text, or a pick's patch of
# it, ``drafts.state.PATCH_FROM``, or as heard from another process either already parsed,
# ``decode``; handed to this process's sockets: the document itself, ``Hub.dispatch``)
Message = tuple[str, int, Any]


def _messages(messages: tuple[tuple[str, Any], ...]) -> list[Message]:
    """Each message encoded once: a dict with a ``version``, or a ``drafts.state.Document``
    (which this process's sockets then share as it is: ``state.remember``)."""
    from drafts import state

    out = []
    for topic, message in messages:
        if isinstance(message, dict):
            out.append((topic, message.get("version") or 0, orjson.dumps(message).decode()))
        else:
            state.remember(topic, message)
            out.append((topic, message.version, message.wire()))
    return out


def encode(messages: list[Message]) -> bytes:
    """One change's messages as one Redis message: ``[origin, [[topic, version, body], ...]]``.
    A document (already JSON text) is embedded as JSON, not as a string of it: neither escaped
    here nor parsed twice by the processes that hear it."""
    return orjson.dumps(
        [
            origin(),
            [
                [topic, version, orjson.Fragment(text) if topic.startswith(STATE_PREFIX) else text]
                for topic, version, text in messages
            ],
        ]
    )


def sent_here(data: bytes | str) -> bool:
    """Whether ``encode`` made this message in this process, read from its first bytes: every
    process hears its own messages back, and its sockets had them already (a whole decode of a
    batch of documents only to drop it cost about as much as one pick's answer)."""
    prefix = f'["{origin()}"'
    return (data[: len(prefix)] == prefix.encode()) if isinstance(data, bytes) else data.startswith(prefix)


def decode(data: bytes | str) -> tuple[str, list[Message]]:
    """``encode``'s message: a document's body arrives parsed (``state.shared_document``)."""
    sender, messages = orjson.loads(data)
    return sender, [(topic, version, body) for topic, version, body in messages]


def pod_topic(pod_id: int) -> str:
    return f"pod:{pod_id}"


def seat_topic(seat_id: int) -> str:
    return f"seat:{seat_id}"


def spectators_topic(pod_id: int) -> str:
    return f"spectators:{pod_id}"


STATE_PREFIX = "state:"


def state_topic(pod_id: int) -> str:
    """The pod's document after each change (``drafts.state``): server-side, never sent as is."""
    return f"{STATE_PREFIX}{pod_id}"


# --- Where a page's socket connects ------------------------------------------------------------
# A socket that belongs to one pod names it in its query (``?pod=<id>``) for the balancer alone:
# deploy/haproxy.cfg hashes it, so that every page of a pod is served by one web process and a
# change is fanned out there, where it was made, instead of in every process. The sockets
# ignore it: a page that reached another process (a client that drops the query, a host that
# came back) is as correct, only dearer.
POD_ROUTING_PARAM = "pod"


def _routed(path: str, pod_id: int) -> str:
    return f"{path}?{POD_ROUTING_PARAM}={pod_id}"


def seat_socket(seat_id: int, pod_id: int) -> str:
    return _routed(f"/ws/seats/{seat_id}/", pod_id)


def pod_socket(pod_id: int) -> str:
    return _routed(f"/ws/pods/{pod_id}/", pod_id)


def spectator_socket(token: str, pod_id: int) -> str:
    return _routed(f"/ws/watch/{token}/", pod_id)


def event_socket(event_id: int) -> str:
    """An event's dashboard follows all its pods: the balancer places it by load."""
    return f"/ws/events/{event_id}/"


class Listener(Protocol):
    async def deliver(self, topic: str, version: int, text: Any) -> None: ...


class Hub:
    """The sockets of one event loop, by topic, and (with Redis) the loop's one subscription."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.listeners: dict[str, set[Listener]] = defaultdict(set)
        self.task: asyncio.Task | None = None
        self.ready = asyncio.Event()
        self.pending: set[asyncio.Task] = set()

    def join(self, topic: str, listener: Listener) -> None:
        self.listeners[topic].add(listener)

    def leave(self, topic: str, listener: Listener) -> None:
        members = self.listeners.get(topic)
        if members is not None:
            members.discard(listener)
            if not members:
                del self.listeners[topic]

    async def dispatch(self, messages: list[Message]) -> None:
        for topic, version, text in messages:
            listeners = self.listeners.get(topic)
            if not listeners:
                continue
            if topic.startswith(STATE_PREFIX):
                # The process's copy of the pod's document, patched or replaced once for all
                # its sockets; a patch that does not follow the copy's version: read it whole.
                from drafts import state

                try:
                    document = state.shared_document(topic, version, text)
                except (ValueError, TypeError, KeyError, IndexError):
                    logger.warning("Ignored a malformed document on %s", topic)
                    document = None
                if document is None:
                    self.refresh(topic)
                    continue
                text = document
            for listener in list(listeners):
                try:
                    await listener.deliver(topic, version, text)
                except Exception:  # one closed socket never stops the others
                    logger.debug("Could not deliver to a socket", exc_info=True)

    def refresh(self, topic: str) -> None:
        """Read the pod's whole document (a patch came that this process's copy cannot take:
        it missed a version, or never followed the pod) and hand it to the topic's sockets. The
        read begins after the patch arrived, so it is at least of the patch's version."""
        task = self.loop.create_task(self._refresh(topic))
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    async def _refresh(self, topic: str) -> None:
        from drafts import aio

        try:
            document, _first = await aio.reader(int(topic[len(STATE_PREFIX) :])).document()
        except Exception:  # pages resynchronise on the next change or their reconnect
            logger.warning("Could not read %s for its live pages", topic, exc_info=True)
            return
        if document is not None:
            await self.dispatch([(topic, document.version, document)])

    def follows(self, messages: list[Message]) -> bool:
        return any(topic in self.listeners for topic, _, _ in messages)

    def dispatch_soon(self, messages: list[Message]) -> None:
        """``dispatch`` as a task of this hub's loop, from that loop or any other thread."""
        if _other_loop(self.loop):
            asyncio.run_coroutine_threadsafe(self.dispatch(messages), self.loop)
            return
        task = self.loop.create_task(self.dispatch(messages))
        self.pending.add(task)  # the loop keeps only a weak reference to its tasks
        task.add_done_callback(self.pending.discard)

    async def subscribe(self, url: str, name: str) -> None:
        """Read every other process's changes for this loop's sockets, reconnecting on loss."""
        while True:
            try:
                async with redislink.Subscription(url, name) as subscription:
                    self.ready.set()
                    async for data in subscription.messages():
                        if sent_here(data):  # this process delivered its own already
                            continue
                        try:
                            _sender, messages = decode(data)
                        except (ValueError, TypeError):  # not a change of this version's shape
                            logger.warning("Ignored a malformed live message on %s", name)
                            continue
                        await self.dispatch(messages)
            except asyncio.CancelledError:
                raise
            except Exception:  # Redis restarted: pages resynchronise by version on reconnect
                logger.warning("Live updates lost their Redis subscription; retrying", exc_info=True)
                await asyncio.sleep(1)


_hubs: dict[asyncio.AbstractEventLoop, Hub] = {}
_hubs_lock = threading.Lock()


def _url() -> str:
    return getattr(settings, "LIVE_UPDATES_URL", "") or ""


async def hub() -> Hub:
    """This event loop's hub, subscribed (with Redis) before it is returned."""
    loop = asyncio.get_running_loop()
    with _hubs_lock:
        for old in [old for old in _hubs if old.is_closed()]:
            del _hubs[old]
        current = _hubs.get(loop)
        if current is None:
            current = _hubs[loop] = Hub(loop)
            url = _url()
            if url:
                current.task = loop.create_task(current.subscribe(url, channel()))
            else:
                current.ready.set()
    await asyncio.wait_for(current.ready.wait(), timeout=10)
    return current


def publish(*messages: tuple[str, dict]) -> None:
    """Send each ``(topic, message)`` (JSON with a ``version``) to every socket following the
    topic: this process's at once, the others' through one Redis message.

    Never raises: a lost live update is repaired by the page's next version check, and a
    committed change must not fail for it.
    """
    encoded = _messages(messages)
    try:
        _deliver_here(encoded)
        url = _url()
        if url:
            redis_client(url).publish(channel(), encode(encoded))
    except Exception:
        logger.warning("Could not publish live updates on %s", [t for t, _, _ in encoded], exc_info=True)


async def apublish(*messages: tuple[str, dict]) -> None:
    """``publish`` from an event loop, without blocking it (never raises either).

    The other processes' copy leaves through this loop's ``Outbox``: the caller does not wait
    for Redis, and changes made while a message is on the wire share the next one.
    """
    encoded = _messages(messages)
    try:
        _deliver_here(encoded)
        url = _url()
        if url:
            _outbox(url).add(encoded)
    except Exception:
        logger.warning("Could not publish live updates", exc_info=True)


# The most messages one Redis message carries (a queue message holds a pack's cards), and the
# most an outbox holds while Redis does not answer (beyond it the oldest are dropped: pages
# resynchronise by version, and a web process must not grow without bound).
OUTBOX_BATCH = 200
OUTBOX_LIMIT = 20_000


class Outbox:
    """One event loop's changes on their way to the other processes.

    One publish is on the wire at a time; what is added meanwhile leaves in the next one. An
    idle site therefore publishes each change at once, and a busy one sends one message for
    many picks, which every other process then reads and parses once (at 1,000 players the
    per-message cost of publishing and reading was a quarter of a web process's event loop).
    Messages keep their order; a lost one is repaired by the pages' version check, as ever.
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self.waiting: list[Message] = []
        self.task: asyncio.Task | None = None

    def add(self, messages: list[Message]) -> None:
        self.waiting.extend(messages)
        if len(self.waiting) > OUTBOX_LIMIT:
            logger.warning("Dropped %s live updates that Redis did not take", len(self.waiting) - OUTBOX_LIMIT)
            del self.waiting[: len(self.waiting) - OUTBOX_LIMIT]
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self.send())

    async def send(self) -> None:
        try:
            while self.waiting:
                batch, self.waiting = self.waiting[:OUTBOX_BATCH], self.waiting[OUTBOX_BATCH:]
                try:
                    await redislink.link(self.url).execute(("PUBLISH", channel(), encode(batch)))
                except Exception:  # the link connects anew on the next publish
                    logger.warning("Could not publish live updates", exc_info=True)
        finally:
            self.task = None


_outboxes: dict[tuple[asyncio.AbstractEventLoop, str], Outbox] = {}


def _outbox(url: str) -> Outbox:
    return redislink.for_this_loop(_outboxes, url, lambda: Outbox(url))


# --- Redis clients (live updates, and presence's store) -------------------------------------
# From an event loop: ``draftsite.redislink``. From threads (services, the worker): redis-py.

_sync_clients: dict[str, Any] = {}


def redis_client(url: str):
    """This process's client for ``url`` (replies decoded to text)."""
    import redis

    client = _sync_clients.get(url)
    if client is None:
        client = _sync_clients[url] = redis.Redis.from_url(url, socket_timeout=5, decode_responses=True)
    return client


def _deliver_here(messages: list[Message]) -> None:
    """Hand the messages to this process's sockets, on their loops, after the caller's step
    (a pick's answer goes out before the pushes it caused)."""
    with _hubs_lock:
        hubs = [h for h in _hubs.values() if not h.loop.is_closed() and h.follows(messages)]
    for local in hubs:
        local.dispatch_soon(messages)


def _other_loop(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is not loop
    except RuntimeError:
        return True


# --- a pod's changes ----------------------------------------------------------------------------


def pod_messages(
    pod_id: int, version: int, arrivals: dict[int, list | None] | None = None, document=None, *, with_document=True
) -> list:
    """The live messages of a committed change to a pod, in the order sockets must hear them:

    - the pod's document (``drafts.state``), from which each ``state`` socket makes its
      viewer's delta, and each ``versions`` seat socket its queue;
    - for the ``versions`` dialect, the pod's new version to every page of the pod, and to each
      seat that a pack reached the front of its queue a mark that it did (``arrived``: the
      socket builds the queue from the document, so a change costs no queue payload where no
      such socket listens). Without a document, the queue itself, read here (``arrivals``:
      seat id -> queue rows, or None to read them).

    ``with_document=False``: the document goes out with another change's messages (it was
    read once for several changes).
    """
    from drafts.queue import queue_payload, queue_rows_by_seat

    messages: list[tuple[str, Any]] = []
    if document is not None and with_document:
        messages.append((state_topic(pod_id), document))
    messages.append((pod_topic(pod_id), {"type": "changed", "pod": pod_id, "version": version}))
    arrivals = arrivals or {}
    if document is not None:
        messages += [
            (seat_topic(seat_id), {"type": ARRIVED, "seat": seat_id, "version": version}) for seat_id in arrivals
        ]
        return messages
    unread = [seat_id for seat_id, rows in arrivals.items() if rows is None]
    read = queue_rows_by_seat(unread) if unread else {}
    for seat_id, rows in arrivals.items():
        try:
            rows = read[seat_id] if rows is None else rows
            messages.append(
                (
                    seat_topic(seat_id),
                    {"type": "queue", "seat": seat_id, "version": version, "queue": queue_payload(rows)},
                )
            )
        except Exception:  # the page still hears ``changed`` and fetches its queue
            logger.warning("Could not send seat %s its queue", seat_id, exc_info=True)
    return messages


# A server-side mark on a seat's topic (never sent to a browser as is): a pack reached the
# front of the seat's queue at that version; the document published with it holds the queue.
ARRIVED = "arrived"
ARRIVED_PREFIX = '{"type":"arrived"'


def notify_pod(pod_id: int, version: int, arrivals: dict[int, list | None] | None = None) -> None:
    """Tell every live page of the pod that it changed (after the change committed). The
    document is read now, after the commit: it may be of a later version, which is as good
    (a delta goes from what a socket sent to the newest document)."""
    from drafts import state

    document = None
    if wants_document(pod_id):
        try:
            document = state.read(pod_id)
        except Exception:  # pages resynchronise on their next change or reconnect
            logger.warning("Could not read pod %s for its live pages", pod_id, exc_info=True)
    publish(*pod_messages(pod_id, version, arrivals, document))


def wants_document(pod_id: int) -> bool:
    """Whether a change to the pod publishes its document: some page may follow it (any page
    of another process, with Redis; else a socket of this one)."""
    return bool(_url()) or _followed_here(state_topic(pod_id))


def _followed_here(topic: str) -> bool:
    with _hubs_lock:
        return any(topic in hub.listeners for hub in _hubs.values() if not hub.loop.is_closed())


# --- A person's place on the event's staff changed (events.live.notify_staff_changed) ----------
# The staff sockets of the event's pods hear it on ``staff:<event id>`` (like a regenerated
# spectator link on ``spectators:``): whether the person still sees everything, decided after
# the commit, so a socket closes before it makes another frame, without a query.

STAFF_PREFIX = "staff:"


def staff_topic(event_id: int) -> str:
    return f"{STAFF_PREFIX}{event_id}"


def tell_staff_sockets(event_id: int, user_id: int, allowed: bool) -> None:
    """The events app's staff listener (registered by ``DraftsConfig.ready``)."""
    publish((staff_topic(event_id), {"type": "staff", "user": user_id, "allowed": allowed, "version": 0}))


def staff_change_closes(body: str | dict, user_id: int | None) -> bool:
    """Whether a ``staff:`` message (its text, or parsed) closes the sockets of ``user_id``."""
    message = orjson.loads(body) if isinstance(body, str) else body
    return user_id is not None and message.get("user") == user_id and not message.get("allowed")
