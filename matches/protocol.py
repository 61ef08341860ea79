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

from draftsite.frames import HEARTBEAT_ONLY, Error, Heartbeat, HeartbeatIn, heartbeats_only, page_changed
from draftsite.frames import PageChanged as Changed  # the judge-call queue's too
from draftsite.frames import heartbeat as heartbeat
from matches import error_codes


class Hello(TypedDict):
    type: Literal["hello"]
    role: Literal["viewer"]


ServerFrame = Hello | Changed | Heartbeat | Error


ClientFrame = HeartbeatIn
CLIENT_FRAMES = HEARTBEAT_ONLY
parse_client_frame = heartbeats_only(error_codes.UNKNOWN_MESSAGE)  # FrameRefused for any other type


def hello() -> Hello:
    return {"type": "hello", "role": "viewer"}


changed = page_changed  # on connect, and after every committed change (draftsite.frames)
