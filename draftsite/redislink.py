"""Redis from an event loop's hot path: commands pipelined on one connection, and a subscription.

The live layer talks to Redis on every pick (a publish, the other processes' receive) and on
every page's heartbeat (presence). redis-py's asyncio client spent 100-230 µs of the loop's CPU
on each of those calls (a connection pool, retries, a timeout context, and with RESP3, version
8's eager ``str()`` of every pub/sub message it receives for a debug log); the same commands on
one asyncio protocol whose replies hiredis (redis-py's own C parser) reads cost 25-45 µs
(``bench/redis_link.py``). Everything else (the worker, the sync services, Channels' layer,
Django's cache) keeps redis-py.

- ``link(url)``: this event loop's connection; ``await link.execute(*commands)`` sends them in
  one write and answers their replies in order. A reply that is an error raises
  ``ResponseError``; a lost connection (or a reply later than ``REPLY_TIMEOUT``) raises
  ``ConnectionError`` for every command waiting on it, and the next call connects anew.
- ``Subscription``: a connection in subscribe mode; ``messages()`` yields each message's data
  as bytes, and ends with ``ConnectionError`` when the connection goes (the caller reconnects).

Only ``redis://``, ``rediss://`` and ``unix://`` URLs, with their user, password and database,
as redis-py reads them.
"""

from __future__ import annotations

import asyncio
import collections
import socket
import ssl
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

import hiredis
from redis.connection import SSLConnection, parse_url

# A reply later than this means a dead server or network: the connection is dropped (the live
# layer's callers log it; pages repair a lost update by version).
REPLY_TIMEOUT = 5.0
CONNECT_TIMEOUT = 5.0

Command = tuple[str | bytes | int | float, ...]


class ResponseError(Exception):
    """Redis answered a command with an error."""


class _Protocol(asyncio.Protocol):
    """One connection: replies resolve the waiting futures in order; in subscribe mode, each
    message's data goes to ``on_message``."""

    def __init__(self) -> None:
        self.reader = hiredis.Reader(replyError=ResponseError)
        # Each command's future and when it was sent, oldest first.
        self.waiting: collections.deque[tuple[asyncio.Future, float]] = collections.deque()
        self.transport: asyncio.Transport | None = None
        self.lost: ConnectionError | None = None
        self.watchdog: asyncio.TimerHandle | None = None
        self.on_message: Callable[[bytes | None], None] | None = None  # subscribe mode

    def connection_made(self, transport) -> None:
        self.transport = transport
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            # A server that vanished without a reset is noticed in about a minute, not hours
            # (an idle subscription sends nothing that could fail).
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
            for option, value in (("TCP_KEEPIDLE", 30), ("TCP_KEEPINTVL", 10), ("TCP_KEEPCNT", 3)):
                if hasattr(socket, option):
                    sock.setsockopt(socket.IPPROTO_TCP, getattr(socket, option), value)

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        while (reply := self.reader.gets()) is not False:
            if self.on_message is not None and isinstance(reply, list) and reply[:1] == [b"message"]:
                self.on_message(reply[2])
            elif self.waiting:
                future, _ = self.waiting.popleft()
                if future.done():  # a caller that was cancelled left its reply unread
                    continue
                if isinstance(reply, ResponseError):  # hiredis hands error replies back as values
                    future.set_exception(reply)
                else:
                    future.set_result(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.lost is None:
            self.lost = ConnectionError(f"Redis connection lost: {exc or 'closed'}")
        if self.watchdog is not None:
            self.watchdog.cancel()
        while self.waiting:
            future, _ = self.waiting.popleft()
            if not future.done():
                future.set_exception(self.lost)
        if self.on_message is not None:
            self.on_message(None)

    def send(self, commands: Sequence[Command]) -> list[asyncio.Future]:
        if self.lost is not None or self.transport is None or self.transport.is_closing():
            raise self.lost or ConnectionError("Redis connection closed")
        loop = asyncio.get_running_loop()
        now = loop.time()
        futures = []
        for _ in commands:
            future = loop.create_future()
            futures.append(future)
            self.waiting.append((future, now))
        self.transport.write(b"".join(map(_pack, commands)))
        if self.watchdog is None:
            self.watchdog = loop.call_at(now + REPLY_TIMEOUT, self._check)
        return futures

    def _check(self) -> None:
        """One timer a connection, not one a command: the oldest command past its time drops
        the connection (its replies would otherwise answer the next commands)."""
        self.watchdog = None
        if not self.waiting:
            return
        sent = self.waiting[0][1]
        loop = asyncio.get_running_loop()
        if loop.time() - sent >= REPLY_TIMEOUT:
            self.lost = ConnectionError(f"Redis did not answer within {REPLY_TIMEOUT} s")
            self.close()
        else:
            self.watchdog = loop.call_at(sent + REPLY_TIMEOUT, self._check)

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


def _pack(command: Command) -> bytes:
    # hiredis's stub types the argument as a one-item tuple; any length is packed.
    return hiredis.pack_command(command)  # type: ignore[arg-type]


async def _open(url: str) -> _Protocol:
    """A connection to ``url``'s server, authenticated and on its database."""
    options = parse_url(url)
    loop = asyncio.get_running_loop()
    if "path" in options:
        connecting = loop.create_unix_connection(_Protocol, options["path"])
    else:
        secure = ssl.create_default_context() if options.get("connection_class") is SSLConnection else None
        connecting = loop.create_connection(
            _Protocol, options.get("host", "localhost"), options.get("port", 6379), ssl=secure
        )
    _, connection = await asyncio.wait_for(connecting, CONNECT_TIMEOUT)
    setup: list[Command] = []
    if options.get("password"):
        setup.append(("AUTH", *([options["username"]] if options.get("username") else []), options["password"]))
    if options.get("db"):
        setup.append(("SELECT", options["db"]))
    if setup:
        try:
            await _replies(connection.send(setup))
        except BaseException:
            connection.close()
            raise
    return connection


async def _replies(futures: list[asyncio.Future]) -> list[Any]:
    """The replies in order. Every future is awaited (none is left with an unread error), then
    the first error is raised."""
    replies: list[Any] = []
    error: BaseException | None = None
    for future in futures:
        try:
            replies.append(await future)
        except (ResponseError, ConnectionError) as failure:
            error = error or failure
    if error is not None:
        raise error
    return replies


class Link:
    """An event loop's connection to one Redis server (``link``)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.connection: _Protocol | None = None
        self.connecting: asyncio.Future[_Protocol] | None = None

    async def execute(self, *commands: Command) -> list[Any]:
        """Each command's reply, in order (bytes, ints, lists, as hiredis reads them)."""
        connection = await self._connection()
        return await _replies(connection.send(commands))

    async def _connection(self) -> _Protocol:
        if self.connection is not None and self.connection.lost is None:
            return self.connection
        if self.connecting is None:  # one connect for every caller that finds none
            self.connecting = asyncio.ensure_future(_open(self.url))
        connecting = self.connecting
        try:
            connection: _Protocol = await asyncio.shield(connecting)
            self.connection = connection
        finally:
            if self.connecting is connecting and connecting.done():
                self.connecting = None
        return connection


def for_this_loop(registry: dict[tuple[asyncio.AbstractEventLoop, str], Any], key: str, make: Callable[[], Any]) -> Any:
    """The running loop's entry for ``key`` in ``registry``, made on first use (when the
    entries of loops closed since, tests' loops, are dropped): what holds a connection or a
    task belongs to its loop."""
    loop = asyncio.get_running_loop()
    entry = registry.get((loop, key))
    if entry is None:
        for old in [found for found in registry if found[0].is_closed()]:
            del registry[old]
        entry = registry[loop, key] = make()
    return entry


_links: dict[tuple[asyncio.AbstractEventLoop, str], Link] = {}


def link(url: str) -> Link:
    """The running loop's ``Link`` to ``url``."""
    return for_this_loop(_links, url, lambda: Link(url))


class Subscription:
    """``async with Subscription(url, channel) as subscription``: subscribed on entry."""

    def __init__(self, url: str, channel: str) -> None:
        self.url = url
        self.channel = channel
        self.connection: _Protocol | None = None
        # Each message's data as it arrived; None: the connection went.
        self.arrived: asyncio.Queue[bytes | None] = asyncio.Queue()

    async def __aenter__(self) -> Subscription:
        self.connection = await _open(self.url)
        try:
            (confirmation,) = await _replies(self.connection.send([("SUBSCRIBE", self.channel)]))
        except BaseException:
            self.connection.close()
            raise
        if not (isinstance(confirmation, list) and confirmation[:1] == [b"subscribe"]):
            self.connection.close()
            raise ResponseError(f"Unexpected answer to SUBSCRIBE: {confirmation!r}")
        self.connection.on_message = self.arrived.put_nowait
        return self

    async def __aexit__(self, *exc_info) -> None:
        if self.connection is not None:
            self.connection.close()

    async def messages(self) -> AsyncIterator[bytes]:
        """Each message's data, in order, until the connection goes (``ConnectionError``)."""
        assert self.connection is not None
        while (data := await self.arrived.get()) is not None:
            yield data
        raise self.connection.lost or ConnectionError("Redis subscription closed")
