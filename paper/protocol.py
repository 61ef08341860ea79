"""The called paper draft's sockets: every frame, as types.

ws/paper/pods/<pod_id>/ (the event's staff and the pod's players) and ws/paper/follow/<token>/
(anyone holding the pod's current link while the organiser lets players follow) say "the call
changed", never what: the page fetches what it shows.

server -> client: ``hello`` once after the handshake, ``changed`` on connect and after every
committed change of the pod's call, ``heartbeat`` answering the client's (the page resyncs its
clock), ``error`` for anything else the client sends (``unknown_message``; ``invalid_frame``
for a frame that is no JSON object). client -> server: ``heartbeat``.
"""

from __future__ import annotations

from typing import Literal, TypedDict

from draftsite.frames import HEARTBEAT_ONLY, Error, Heartbeat, HeartbeatIn, heartbeats_only
from draftsite.frames import heartbeat as heartbeat
from paper import error_codes

Role = Literal["staff", "member", "follower"]


class Hello(TypedDict):
    type: Literal["hello"]
    role: Role


class Changed(TypedDict):
    type: Literal["changed"]
    pod: int
    version: int
    server_time: str


ServerFrame = Hello | Changed | Heartbeat | Error


ClientFrame = HeartbeatIn
CLIENT_FRAMES = HEARTBEAT_ONLY
parse_client_frame = heartbeats_only(error_codes.UNKNOWN_MESSAGE)  # FrameRefused for any other type


def hello(role: str) -> Hello:
    return {"type": "hello", "role": role}  # type: ignore[typeddict-item]


def changed(pod_id: int, version: int, server_time: str) -> Changed:
    return {"type": "changed", "pod": pod_id, "version": version, "server_time": server_time}
