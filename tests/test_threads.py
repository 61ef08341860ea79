"""draftsite.threads: HTTP requests reuse long-lived threads for their sync code."""

from __future__ import annotations

import asyncio
import threading
import time

from asgiref.sync import sync_to_async
from asgiref.testing import ApplicationCommunicator

from draftsite.threads import ReusedThreads


class RecordingView:
    """An ASGI app whose sync part (as a Django view's) records the thread that ran it."""

    def __init__(self) -> None:
        self.threads: list[int] = []

    async def __call__(self, scope, receive, send):
        def view():
            time.sleep(scope.get("sleep", 0))
            first = threading.get_ident()
            self.threads.append(first)
            return first

        first = await sync_to_async(view, thread_sensitive=True)()
        # Every sync step of one request runs on the same thread (Django's middleware and view).
        assert await sync_to_async(threading.get_ident, thread_sensitive=True)() == first
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})


async def _request(app, **scope) -> None:
    communicator = ApplicationCommunicator(app, {"type": "http", "method": "GET", "path": "/", **scope})
    await communicator.send_input({"type": "http.request", "body": b""})
    assert (await communicator.receive_output(timeout=5))["status"] == 200
    await communicator.receive_output(timeout=5)
    await communicator.wait(timeout=5)


def test_requests_one_after_another_reuse_one_thread():
    inner = RecordingView()
    app = ReusedThreads(inner, idle=2)

    async def scenario():
        for _ in range(5):
            await _request(app)

    asyncio.run(scenario())
    assert len(inner.threads) == 5 and len(set(inner.threads)) == 1
    assert inner.threads[0] != threading.get_ident()


def test_a_slow_request_never_holds_up_another_and_only_idle_threads_are_kept():
    inner = RecordingView()
    app = ReusedThreads(inner, idle=1)

    async def scenario():
        started = time.monotonic()
        await asyncio.gather(*(_request(app, sleep=0.3) for _ in range(3)))
        return time.monotonic() - started

    elapsed = asyncio.run(scenario())
    assert len(set(inner.threads)) == 3  # three at once: three threads, in parallel
    assert elapsed < 0.8
    assert len(app.idle) == 1  # the others were let go
