"""The site's ASGI app with its event loop profiled (``bench/draft_load --profile-web DIR``).

cProfile on the thread that imports the app, which is the thread uvicorn runs its event loop
on, timed by CPU (``time.process_time``) rather than the wall clock: on a machine the load
generator shares, a wall-clock profile blames whatever code was running when the process was
preempted. Each web process writes ``DIR/web-<pid>.prof`` (read it with ``python -m pstats``)
every few seconds from its event loop, each time with everything since it started: uvicorn's
workers are stopped with a signal and leave without running ``atexit``. Executor threads
(sync views) are not profiled.
"""

import asyncio
import cProfile
import os
import time

from draftsite.asgi import application as site

_profiler = cProfile.Profile(time.process_time)
_where = os.environ["PROFILE_WEB_DIR"]
DUMP_EVERY = 5.0
_scheduled = False


def _dump() -> None:
    """On the loop's thread (a profiler is per thread): stop, write, go on."""
    _profiler.disable()
    try:
        _profiler.dump_stats(os.path.join(_where, f"web-{os.getpid()}.prof"))
    finally:
        _profiler.enable()
        asyncio.get_running_loop().call_later(DUMP_EVERY, _dump)


async def application(scope, receive, send):
    global _scheduled
    if not _scheduled:
        _scheduled = True
        asyncio.get_running_loop().call_later(DUMP_EVERY, _dump)
    await site(scope, receive, send)


_profiler.enable()
