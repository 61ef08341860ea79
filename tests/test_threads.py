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


class Recorder:
    """A middleware that notes how Django called it: in sync mode or async, on which thread,
    and the request's received-at stamp as it found it."""

    sync_capable = True
    async_capable = True
    calls: list[dict] = []

    def __init__(self, get_response):
        from asgiref.sync import iscoroutinefunction, markcoroutinefunction

        self.get_response = get_response
        if iscoroutinefunction(get_response):
            markcoroutinefunction(self)

    def __call__(self, request):
        from django.utils import timezone

        mode = "async" if asyncio.iscoroutinefunction(self.get_response) else "sync"
        Recorder.calls.append(
            {
                "mode": mode,
                "thread": threading.get_ident(),
                "received_at": getattr(request, "received_at", None),
                "at": timezone.now(),
            }
        )
        return self.get_response(request)


def test_one_hop_handler_runs_the_middleware_and_view_on_one_thread_in_sync_mode(settings, db):
    """OneHopHandler: the chain (WhiteNoise included) is one sync call on the request's thread,
    and the pick timer's stamp is taken on the loop before it (ReceivedAtMiddleware keeps it)."""
    from draftsite.threads import OneHopHandler

    settings.MIDDLEWARE = [
        "tests.test_threads.Recorder",
        *settings.MIDDLEWARE,
        "tests.test_threads.Recorder",
    ]
    Recorder.calls = []
    app = ReusedThreads(OneHopHandler())
    asyncio.run(_request(app, path="/healthz", headers=[(b"host", b"testserver")]))

    outer, inner = Recorder.calls
    assert outer["mode"] == inner["mode"] == "sync"
    assert outer["thread"] == inner["thread"] != threading.get_ident()
    assert outer["received_at"] is not None and inner["received_at"] == outer["received_at"] <= outer["at"]
