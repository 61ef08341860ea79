"""The site's ASGI app with each web process's CPU counted by stage (``bench/draft_load
--account-web DIR``; ``python bench/accounted_asgi.py DIR`` prints the table).

Profilers mislead here, each in its own way. cProfile charges every Python call about half a
microsecond, which inflates the call-heavy live-page code two to three times against C calls;
py-spy counts a thread that is runnable but preempted as busy, so on two cores shared with the
load generator it blames whichever call wakes another process (a socket write); perf sees C,
and Python 3.12's perf trampolines show only the frames entered from C.

This counts instead the thread CPU time (``time.thread_time``) spent in each named stage. A
coroutine is timed step by step, from each resume to its next suspension, so the time it spends
waiting (for the database, for Redis) is not counted, and neither is what other tasks run
meanwhile. Stages nest (a pick includes its database call): the table is not a partition. Each
stage costs the count itself one or two microseconds a step. Each web process writes
``DIR/accounting-<pid>.json`` every few seconds with everything since its first request
(uvicorn stops its workers with a signal, without ``atexit``).
"""

from __future__ import annotations

import asyncio
import functools
import importlib
import json
import os
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

DUMP_EVERY = 5.0
ENV = "ACCOUNT_WEB_DIR"

# (module, attribute path, kind): what a pick, a document and a frame go through.
STAGES = (
    ("drafts.consumers", "_PodSocket.receive_json", "coroutine"),  # every frame a page sends
    ("drafts.consumers", "SeatSocket.pick", "coroutine"),
    ("drafts.aio", "acall", "coroutine"),  # the pick's statement, pool and turn included
    ("psycopg", "AsyncConnection.execute", "coroutine"),
    ("psycopg.waiting", "wait_async", "coroutine"),  # libpq's send and receive, one wait a step
    ("drafts.state", "from_text", "function"),  # the pick's document, parsed
    ("drafts.aio", "apublish", "coroutine"),
    ("drafts.live", "Outbox.send", "coroutine"),  # the change to Redis for the other processes
    ("draftsite.redislink", "_Protocol.data_received", "function"),  # replies and other processes' changes
    ("drafts.live", "Hub.dispatch", "coroutine"),  # a change to this process's sockets of its pod
    ("drafts.consumers", "_PodSocket.hear", "function"),  # one socket's look at a new document
    ("drafts.consumers", "_PodSocket.flush", "coroutine"),  # one socket's delta frame
    ("drafts.consumers", "_PodSocket.delta_to", "function"),  # a delta built (a flush's, or the picker's)
    ("drafts.consumers", "_PodSocket.send_json", "coroutine"),  # a frame other than a delta
    ("uvicorn.protocols.websockets.websockets_sansio_impl", "WebSocketsSansIOProtocol.send", "coroutine"),
    ("uvicorn.protocols.websockets.websockets_sansio_impl", "WebSocketsSansIOProtocol.data_received", "function"),
    ("uvicorn.protocols.websockets.websockets_sansio_impl", "WebSocketsSansIOProtocol.send_keepalive_ping", "function"),
)
PICKS = "SeatSocket.pick"  # the stage whose calls are the picks made

_cpu: defaultdict[str, float] = defaultdict(float)
_steps: Counter[str] = Counter()
_calls: Counter[str] = Counter()


def _add(name: str, spent: float) -> None:
    _cpu[name] += spent
    _steps[name] += 1


def _done(name: str) -> None:
    _calls[name] += 1


def _timed_function(name: str, function):
    @functools.wraps(function)
    def timed(*args, **kwargs):
        start = time.thread_time()
        try:
            return function(*args, **kwargs)
        finally:
            _add(name, time.thread_time() - start)
            _done(name)

    return timed


class _Suspend:
    """Hands what the inner coroutine yielded (a future) to the event loop, and back its result."""

    def __init__(self, yielded) -> None:
        self.yielded = yielded

    def __await__(self):
        return (yield self.yielded)


def _timed_coroutine(name: str, function):
    @functools.wraps(function)
    async def timed(*args, **kwargs):
        steps = function(*args, **kwargs).__await__()
        sent, thrown = None, None
        while True:
            start = time.thread_time()
            try:
                yielded = steps.throw(thrown) if thrown is not None else steps.send(sent)
            except BaseException as end:  # returned (StopIteration), raised or cancelled
                _add(name, time.thread_time() - start)
                _done(name)
                if isinstance(end, StopIteration):
                    return end.value
                raise
            _add(name, time.thread_time() - start)
            sent, thrown = None, None
            try:
                sent = await _Suspend(yielded)
            except BaseException as error:  # a cancellation goes to the inner coroutine
                thrown = error

    return timed


def install() -> None:
    for module_name, path, kind in STAGES:
        owner = importlib.import_module(module_name)
        *parents, attribute = path.split(".")
        for parent in parents:
            owner = getattr(owner, parent)
        wrap = _timed_coroutine if kind == "coroutine" else _timed_function
        setattr(owner, attribute, wrap(path, getattr(owner, attribute)))


if ENV in os.environ:  # the web process (run as a script, this module only prints the table)
    from draftsite.asgi import application as site  # the site first, then its stages

    install()
_started: float | None = None


def _dump(where: str) -> None:
    data = {"thread_cpu_s": time.thread_time() - (_started or 0.0), "cpu_s": _cpu, "steps": _steps, "calls": _calls}
    Path(where, f"accounting-{os.getpid()}.json").write_text(json.dumps(data))
    asyncio.get_running_loop().call_later(DUMP_EVERY, _dump, where)


async def application(scope, receive, send):
    global _started
    if _started is None:
        _started = time.thread_time()
        asyncio.get_running_loop().call_later(DUMP_EVERY, _dump, os.environ[ENV])
    await site(scope, receive, send)


def table(where: str) -> str:
    """Every web process's counts together: CPU per pick and per step of each stage."""
    cpu: defaultdict[str, float] = defaultdict(float)
    steps: Counter[str] = Counter()
    calls: Counter[str] = Counter()
    total = 0.0
    for path in sorted(Path(where).glob("accounting-*.json")):
        data = json.loads(path.read_text())
        total += data["thread_cpu_s"]
        for name, spent in data["cpu_s"].items():
            cpu[name] += spent
        # Counter.update adds counts (a plain dict would replace them)
        steps.update(data["steps"])
        calls.update(data["calls"])
    picks = calls[PICKS]
    if not picks:
        return f"no picks accounted in {where}"
    lines = [
        f"web processes' event-loop threads: {total:.1f} s of CPU over {picks} picks = {1000 * total / picks:.3f} ms a pick"
        " (since each process's first request; stages nest)",
        f"{'stage':<44} {'ms/pick':>8} {'share':>6} {'calls/pick':>10} {'us/step':>8}",
    ]
    for name, spent in sorted(cpu.items(), key=lambda item: -item[1]):
        lines.append(
            f"{name:<44} {1000 * spent / picks:8.3f} {100 * spent / total:5.1f}% "
            f"{calls[name] / picks:10.2f} {1e6 * spent / steps[name]:8.1f}"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    print(table(sys.argv[1]))
