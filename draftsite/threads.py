"""HTTP requests' sync code on a few long-lived threads instead of a new thread per request.

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

from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext


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
