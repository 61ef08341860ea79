"""The site's ASGI app with its event loop profiled (``bench/draft_load --profile-web DIR``).

cProfile on the thread that imports the app, which is the thread uvicorn runs its event loop
on, timed by CPU (``time.process_time``) rather than the wall clock: on a machine the load
generator shares, a wall-clock profile blames whatever code was running when the process was
preempted. Each web process writes ``DIR/web-<pid>.prof`` when it exits (read it with
``python -m pstats``). Executor threads (sync views) are not profiled.
"""

import atexit
import cProfile
import os
import time

from draftsite.asgi import application

__all__ = ["application"]

_profiler = cProfile.Profile(time.process_time)
_where = os.environ["PROFILE_WEB_DIR"]


def _dump() -> None:
    _profiler.disable()
    _profiler.dump_stats(os.path.join(_where, f"web-{os.getpid()}.prof"))


_profiler.enable()
atexit.register(_dump)
