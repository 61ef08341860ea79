"""HTTP requests' sync code: one thread hop per request, on a few long-lived threads.

``OneHopHandler``: every middleware and view of this site is synchronous (WhiteNoise is
sync-only, the rest are sync-and-async MiddlewareMixins), so Django's ASGI handler, which
loads the chain in async mode, went from the event loop to a thread and back several times
per request: around WhiteNoise, and for each middleware's ``process_request`` and
``process_response`` separately. The web process's event loop, which also carries every
socket's picks, spent more on those hops than on the views. This handler loads the chain in
sync mode, as WSGI does, and calls it once on the request's thread.

``ReusedThreads``, the thread itself:

Django's ASGI handler gives every request a thread-sensitive context of its own, and asgiref
starts a fresh one-thread executor for each: a thread is created and torn down for every
page and API call. At the draft benchmark's round ends (organisers' advances, pages' reads)
that churn was a visible share of a web process's CPU. This ASGI wrapper hands each request
an idle long-lived one-thread executor instead; Django's own context then nests inside it.
A request's sync code still runs on one thread at a time, as before; threads are reused the
way a WSGI server reuses them (Django closes or returns each request's database connection
when it finishes).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.utils import timezone


class OneHopHandler(ASGIHandler):
    """Django's ASGI handler with the whole middleware chain and view as one sync call."""

    _middleware_chain: Callable[..., Any]

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)
        chain = sync_to_async(self._middleware_chain, thread_sensitive=True)

        async def one_hop(request):
            # Stamped on the loop, before waiting for the thread (the pick timer's rule;
            # draftsite.middleware.ReceivedAtMiddleware keeps this earlier stamp).
            request.received_at = timezone.now()
            return await chain(request)

        self._middleware_chain = one_hop


class ReusedThreads:
    """ASGI middleware for ``http`` scopes; ``idle`` executors are kept for reuse, and more are
    made when every one is busy (a slow view never makes another request wait)."""

    def __init__(self, app, idle: int = 8) -> None:
        self.app = app
        self.keep = idle
        self.idle: list[ThreadPoolExecutor] = []

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        executor = self.idle.pop() if self.idle else ThreadPoolExecutor(max_workers=1, thread_name_prefix="http")
        try:
            async with ThreadSensitiveContext(executor=executor):
                return await self.app(scope, receive, send)
        finally:
            if len(self.idle) < self.keep:
                self.idle.append(executor)
            else:
                executor.shutdown(wait=False)
