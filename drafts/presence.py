"""Which seats have a live page open: websocket connections per seat, kept in the cache.

Each open socket of a seat's player is an entry ``{channel name: last heartbeat}`` under the
seat's key. Pages send a heartbeat every ``HEARTBEAT_SECONDS``; an entry older than
``TTL_SECONDS`` no longer counts (a laptop that went to sleep never says goodbye), and the
key itself expires then too. The organiser's dashboard reads every seat of a pod in one
``get_many``. Nothing here is authoritative for the draft: it only tells staff who is there.
"""

from __future__ import annotations

import time

from django.core.cache import cache

HEARTBEAT_SECONDS = 20
TTL_SECONDS = 60
LAST_SEEN_SECONDS = 24 * 3600


def _key(seat_id: int) -> str:
    return f"presence:seat:{seat_id}"


def _seen_key(seat_id: int) -> str:
    return f"presence:seen:{seat_id}"


def _live(entries: dict, now: float) -> dict:
    return {channel: at for channel, at in (entries or {}).items() if now - at < TTL_SECONDS}


def touch(seat_id: int, channel_name: str, now: float | None = None) -> None:
    """A socket of the seat connected or sent a heartbeat."""
    now = time.time() if now is None else now
    entries = _live(cache.get(_key(seat_id)) or {}, now)
    entries[channel_name] = now
    cache.set(_key(seat_id), entries, TTL_SECONDS)
    cache.set(_seen_key(seat_id), now, LAST_SEEN_SECONDS)


def leave(seat_id: int, channel_name: str, now: float | None = None) -> None:
    """A socket of the seat closed."""
    now = time.time() if now is None else now
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
    keys = [_key(s) for s in seat_ids] + [_seen_key(s) for s in seat_ids]
    found = cache.get_many(keys)
    return {
        s: {"connections": len(_live(found.get(_key(s)) or {}, now)), "last_seen": found.get(_seen_key(s))}
        for s in seat_ids
    }
