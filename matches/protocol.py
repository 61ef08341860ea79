"""The match pages' socket (ws/matches/events/<event_id>/): every frame, as types.

server -> client: ``hello`` once after the handshake, ``changed`` on connect and after every
committed change of the event's matches (pairings, results, clocks, drops: the page then
fetches its own panel), ``heartbeat`` answering the client's, ``error`` for anything else the
client sends (``unknown_message``; ``invalid_frame`` for a frame that is no JSON object).
client -> server: ``heartbeat``. Pairings, results, standings and clocks are public, so
nothing private travels and anyone may listen.
"""

from __future__ import annotations

from typing import Literal, TypedDict

from draftsite.frames import HEARTBEAT_ONLY as CLIENT_FRAMES  # noqa: F401
from draftsite.frames import Error, Heartbeat, page_changed
from draftsite.frames import HeartbeatIn as ClientFrame  # noqa: F401
from draftsite.frames import PageChanged as Changed  # the judge-call queue's too
from draftsite.frames import heartbeat as heartbeat
from draftsite.frames import parse_heartbeat_only as parse_client_frame  # noqa: F401


class Hello(TypedDict):
    type: Literal["hello"]
    role: Literal["viewer"]


ServerFrame = Hello | Changed | Heartbeat | Error
# The client side (ClientFrame, CLIENT_FRAMES, parse_client_frame, imported above): heartbeats
# only, as draftsite.frames declares it once for the paper, match and judge-call sockets.


def hello() -> Hello:
    return {"type": "hello", "role": "viewer"}


changed = page_changed  # on connect, and after every committed change (draftsite.frames)
