"""ASGI entry point: HTTP through Django, websockets through Channels routing."""

import gc
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "draftsite.settings")

# Django must be set up before anything imports models (the websocket routes do).
django.setup(set_prefix=False)

from draftsite.threads import OneHopHandler, ReusedThreads  # noqa: E402

django_asgi_app = OneHopHandler()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from draftsite.routing import websocket_urlpatterns  # noqa: E402
from draftsite.websockets import SocketGuard  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": ReusedThreads(django_asgi_app),
        "websocket": SocketGuard(AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))),
    }
)

# Everything loaded so far (Django, every view through the URLconf) lives as long as the
# process: keep it out of the cyclic garbage collector's full passes. With 500 pages open per
# process those passes walked ~290,000 objects and paused the event loop for up to 0.2 s, the
# tail of the pick acknowledgement latency (bench/draft_load, issue 11).
from django.urls import get_resolver  # noqa: E402

get_resolver().url_patterns  # noqa: B018 - imports every view module now, before the freeze
gc.freeze()
# Fewer, later young collections: most of a pick's objects then die before being promoted,
# so full passes come about every few minutes instead of every ten seconds.
gc.set_threshold(20_000, 50, 10)
