"""Live updates: one publish per change, one subscription per web process.

A committed change of a pod is published once, as the exact text its sockets send, on the
pod's topic (``pod:<id>``); a pack reaching the front of a seat's queue is published on the
seat's topic (``seat:<id>``); a regenerated spectator link on ``spectators:<pod id>``. Redis
channels ignore the database number, so topics carry the site's namespace (its database and
Redis database): two sites, or a test run, sharing one Redis never hear each other. Every web process holds one Redis subscription for all topics and
hands each message to the sockets of that process that follow the topic: the cost of a change
is one publish plus one frame per listening page, whatever the number of processes.

Two web processes may publish versions of one pod out of commit order; each socket remembers
which versions it sent, so a page hears every committed version of its pod exactly once, in
whatever order they arrive (pages compare versions and ignore an older one).

Without ``LIVE_UPDATES_URL`` (the embedded single-process site, and tests) messages go straight
to the sockets of this process.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import defaultdict
from typing import Protocol

import orjson
from django.conf import settings

logger = logging.getLogger(__name__)


def prefix() -> str:
    """``draftsite:<database name>:<redis db>:live:``: the channels of this site only."""
    url = _url()
    database = settings.DATABASES["default"]["NAME"]
    return f"draftsite:{database}:{url.rstrip('/').rsplit('/', 1)[-1] if url else 'local'}:live:"


def pod_topic(pod_id: int) -> str:
    return f"pod:{pod_id}"


def seat_topic(seat_id: int) -> str:
    return f"seat:{seat_id}"


def spectators_topic(pod_id: int) -> str:
    return f"spectators:{pod_id}"


class Listener(Protocol):
    async def deliver(self, topic: str, version: int, text: str) -> None: ...


class Hub:
    """The sockets of one event loop, by topic, and (with Redis) the loop's one subscription."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.listeners: dict[str, set[Listener]] = defaultdict(set)
        self.task: asyncio.Task | None = None
        self.ready = asyncio.Event()

    def join(self, topic: str, listener: Listener) -> None:
        self.listeners[topic].add(listener)

    def leave(self, topic: str, listener: Listener) -> None:
        members = self.listeners.get(topic)
        if members is not None:
            members.discard(listener)
            if not members:
                del self.listeners[topic]

    async def dispatch(self, topic: str, text: str) -> None:
        members = self.listeners.get(topic)
        if not members:
            return
        version = orjson.loads(text).get("version") or 0
        for listener in list(members):
            try:
                await listener.deliver(topic, version, text)
            except Exception:  # one closed socket never stops the others
                logger.debug("Could not deliver to a socket", exc_info=True)

    async def subscribe(self, url: str, namespace: str) -> None:
        """Read every live message of the site for this loop's sockets, reconnecting on loss."""
        import redis.asyncio as aioredis

        while True:
            client = aioredis.Redis.from_url(url)
            try:
                async with client.pubsub() as pubsub:
                    await pubsub.psubscribe(namespace + "*")
                    self.ready.set()
                    async for message in pubsub.listen():
                        if message.get("type") != "pmessage":
                            continue
                        topic = message["channel"].decode()[len(namespace) :]
                        await self.dispatch(topic, message["data"].decode())
            except asyncio.CancelledError:
                raise
            except Exception:  # Redis restarted: pages resynchronise by version on reconnect
                logger.warning("Live updates lost their Redis subscription; retrying", exc_info=True)
                await asyncio.sleep(1)
            finally:
                await client.aclose()


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
                current.task = loop.create_task(current.subscribe(url, prefix()))
            else:
                current.ready.set()
    await asyncio.wait_for(current.ready.wait(), timeout=10)
    return current


_client = None
_client_url = None


def publish(*messages: tuple[str, dict]) -> None:
    """Send each ``(topic, message)`` (JSON with a ``version``) to every socket following the
    topic, in one round trip to Redis.

    Never raises: a lost live update is repaired by the page's next version check, and a
    committed change must not fail for it.
    """
    global _client, _client_url
    encoded = [(topic, orjson.dumps(message).decode()) for topic, message in messages]
    url = _url()
    try:
        if url:
            if _client is None or _client_url != url:
                import redis

                _client, _client_url = redis.Redis.from_url(url, socket_timeout=5), url
            pipe = _client.pipeline(transaction=False)
            namespace = prefix()
            for topic, text in encoded:
                pipe.publish(namespace + topic, text)
            pipe.execute()
            return
        with _hubs_lock:
            hubs = [h for h in _hubs.values() if not h.loop.is_closed()]
        for topic, text in encoded:
            for local in hubs:
                if topic in local.listeners:
                    asyncio.run_coroutine_threadsafe(local.dispatch(topic, text), local.loop) if _other_loop(
                        local.loop
                    ) else local.loop.create_task(local.dispatch(topic, text))
    except Exception:
        logger.warning("Could not publish live updates on %s", [t for t, _ in encoded], exc_info=True)


_async_clients: dict[asyncio.AbstractEventLoop, object] = {}


async def apublish(*messages: tuple[str, dict]) -> None:
    """``publish`` from an event loop, without blocking it (never raises either)."""
    url = _url()
    if not url:
        publish(*messages)
        return
    loop = asyncio.get_running_loop()
    try:
        client = _async_clients.get(loop)
        if client is None:
            import redis.asyncio as aioredis

            client = _async_clients[loop] = aioredis.Redis.from_url(url, socket_timeout=5)
        namespace = prefix()
        async with client.pipeline(transaction=False) as pipe:
            for topic, message in messages:
                pipe.publish(namespace + topic, orjson.dumps(message))
            await pipe.execute()
    except Exception:
        _async_clients.pop(loop, None)
        logger.warning("Could not publish live updates", exc_info=True)


def _other_loop(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is not loop
    except RuntimeError:
        return True
