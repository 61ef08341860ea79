"""Which seats have a live page open: websocket connections per seat, with their last heartbeat.

Each open socket of a seat's player is an entry ``{channel name: last heartbeat}`` under the
seat. Pages send a heartbeat every ``HEARTBEAT_SECONDS``; an entry older than ``TTL_SECONDS``
no longer counts (a laptop that went to sleep never says goodbye), and the seat's entries
expire then too. The organiser's dashboard reads every seat of a pod in one round trip.
Nothing here is authoritative for the draft: it only tells staff who is there.

Two stores, one behaviour (their tests are parametrised over both):

- With ``PRESENCE_URL`` (Redis; a web process's setting) each seat is a Redis hash written in
  one pipelined round trip, and a socket's heartbeat writes it from the event loop itself
  (``atouch``): 1,000 pages send 50 heartbeats a second, and the cache's read-modify-write
  on a thread cost more CPU than the picks of those seconds.
- Without it (the embedded site, tests) the entries live in Django's cache.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import cache

from drafts import live
from draftsite import redislink

HEARTBEAT_SECONDS = 20
TTL_SECONDS = 60
LAST_SEEN_SECONDS = 24 * 3600


def _key(seat_id: int) -> str:
    return f"presence:seat:{seat_id}"


def _seen_key(seat_id: int) -> str:
    return f"presence:seen:{seat_id}"


def _live(entries: dict, now: float) -> dict:
    return {channel: at for channel, at in (entries or {}).items() if now - at < TTL_SECONDS}


def _url() -> str:
    return getattr(settings, "PRESENCE_URL", "") or ""


def _namespace() -> str:
    """Keys of this site only: two sites, or a test run, may share one Redis."""
    return f"draftsite:{settings.DATABASES['default']['NAME']}:"


def touch(seat_id: int, channel_name: str, now: float | None = None) -> None:
    """A socket of the seat connected or sent a heartbeat."""
    now = time.time() if now is None else now
    if _url():
        pipe = _sync_client().pipeline(transaction=False)
        for command in _touch_commands(seat_id, channel_name, now):
            pipe.execute_command(*command)
        pipe.execute()
        return
    entries = _live(cache.get(_key(seat_id)) or {}, now)
    entries[channel_name] = now
    cache.set(_key(seat_id), entries, TTL_SECONDS)
    cache.set(_seen_key(seat_id), now, LAST_SEEN_SECONDS)


async def atouch(seat_id: int, channel_name: str, now: float | None = None) -> None:
    """``touch`` from an event loop: with Redis, without leaving the loop."""
    now = time.time() if now is None else now
    if not _url():
        from asgiref.sync import sync_to_async

        await sync_to_async(touch, thread_sensitive=False)(seat_id, channel_name, now)
        return
    await redislink.link(_url()).execute(*_touch_commands(seat_id, channel_name, now))


def leave(seat_id: int, channel_name: str, now: float | None = None) -> None:
    """A socket of the seat closed."""
    now = time.time() if now is None else now
    if _url():
        namespace = _namespace()
        pipe = _sync_client().pipeline(transaction=False)
        pipe.hdel(namespace + _key(seat_id), channel_name)
        pipe.set(namespace + _seen_key(seat_id), repr(now), ex=LAST_SEEN_SECONDS)
        pipe.execute()
        return
    entries = _live(cache.get(_key(seat_id)) or {}, now)
    entries.pop(channel_name, None)
    if entries:
        cache.set(_key(seat_id), entries, TTL_SECONDS)
    else:
        cache.delete(_key(seat_id))
    cache.set(_seen_key(seat_id), now, LAST_SEEN_SECONDS)


def status(seat_ids: list[int], now: float | None = None) -> dict[int, dict]:
    """``{seat_id: {"connections": n, "last_seen": epoch seconds | None}}`` for each seat."""
    now = time.time() if now is None else now
    if not seat_ids:
        return {}
    if _url():
        namespace = _namespace()
        pipe = _sync_client().pipeline(transaction=False)
        for seat_id in seat_ids:
            pipe.hgetall(namespace + _key(seat_id))
        pipe.mget([namespace + _seen_key(seat_id) for seat_id in seat_ids])
        *hashes, seen = pipe.execute()
        return {
            seat_id: {
                "connections": len(_live({k: float(v) for k, v in entries.items()}, now)),
                "last_seen": float(last) if last is not None else None,
            }
            for seat_id, entries, last in zip(seat_ids, hashes, seen, strict=True)
        }
    keys = [_key(s) for s in seat_ids] + [_seen_key(s) for s in seat_ids]
    found = cache.get_many(keys)
    return {
        s: {"connections": len(_live(found.get(_key(s)) or {}, now)), "last_seen": found.get(_seen_key(s))}
        for s in seat_ids
    }


def forget(seat_ids: list[int]) -> None:
    """Drop what is known of these seats (tests: database ids are reused between runs)."""
    if _url():
        namespace = _namespace()
        keys = [namespace + key(s) for s in seat_ids for key in (_key, _seen_key)]
        if keys:
            _sync_client().delete(*keys)
        return
    cache.delete_many([key(s) for s in seat_ids for key in (_key, _seen_key)])


# --- Redis -----------------------------------------------------------------------------------


def _touch_commands(seat_id: int, channel_name: str, now: float) -> list[tuple]:
    """The seat's entry for this socket, the seat's expiry pushed back, and its last sighting."""
    namespace = _namespace()
    return [
        ("HSET", namespace + _key(seat_id), channel_name, repr(now)),
        ("EXPIRE", namespace + _key(seat_id), TTL_SECONDS),
        ("SET", namespace + _seen_key(seat_id), repr(now), "EX", LAST_SEEN_SECONDS),
    ]


def _sync_client():
    return live.redis_client(_url())
