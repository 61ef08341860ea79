"""Presence (``drafts.presence``): the same answers from both stores, Redis (web processes)
and Django's cache (the embedded site), so the two cannot drift."""

from __future__ import annotations

import asyncio

import pytest

from drafts import presence

T = 1_800_000_000.0  # any fixed moment: the functions take ``now``


@pytest.fixture(params=["cache", "redis"])
def store(request, settings):
    if request.param == "redis":
        settings.PRESENCE_URL = request.getfixturevalue("private_redis")["url"]
    else:
        settings.PRESENCE_URL = ""
    presence.forget([1, 2, 3])
    return request.param


def test_connections_count_each_open_socket_until_it_leaves(store):
    presence.touch(1, "socket-a", now=T)
    presence.touch(1, "socket-b", now=T + 1)
    presence.touch(2, "socket-c", now=T + 2)
    presence.leave(2, "socket-c", now=T + 3)
    assert presence.status([1, 2, 3], now=T + 4) == {
        1: {"connections": 2, "last_seen": T + 1},
        2: {"connections": 0, "last_seen": T + 3},
        3: {"connections": 0, "last_seen": None},
    }


def test_a_socket_that_stopped_sending_heartbeats_no_longer_counts(store):
    presence.touch(1, "asleep", now=T)
    presence.touch(1, "awake", now=T + presence.TTL_SECONDS - 5)
    later = presence.status([1], now=T + presence.TTL_SECONDS + 1)[1]
    assert later == {"connections": 1, "last_seen": T + presence.TTL_SECONDS - 5}
    # A heartbeat renews a socket's entry: the same socket counts once.
    presence.touch(1, "awake", now=T + presence.TTL_SECONDS)
    assert presence.status([1], now=T + presence.TTL_SECONDS + 1)[1]["connections"] == 1


def test_a_heartbeat_from_the_event_loop_is_seen_like_any_other(store):
    asyncio.run(presence.atouch(3, "socket-d", now=T))
    assert presence.status([3], now=T + 1) == {3: {"connections": 1, "last_seen": T}}
    presence.forget([3])
    assert presence.status([3], now=T + 1) == {3: {"connections": 0, "last_seen": None}}
    assert presence.status([], now=T) == {}


def test_the_redis_store_lets_a_silent_seat_expire(private_redis, settings):
    """Redis drops a seat's entries ``TTL_SECONDS`` after its last heartbeat: nothing piles up
    for pages that closed without saying goodbye."""
    import redis

    settings.PRESENCE_URL = private_redis["url"]
    presence.touch(1, "socket-a")
    client = redis.Redis.from_url(private_redis["url"])
    keys = client.keys("*presence:seat:1")
    assert len(keys) == 1 and 0 < client.ttl(keys[0]) <= presence.TTL_SECONDS
    seen = client.keys("*presence:seen:1")
    assert len(seen) == 1 and presence.TTL_SECONDS < client.ttl(seen[0]) <= presence.LAST_SEEN_SECONDS
