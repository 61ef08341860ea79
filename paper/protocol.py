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

from draftsite.frames import HEARTBEAT_ONLY as CLIENT_FRAMES  # noqa: F401
from draftsite.frames import Error, Heartbeat
from draftsite.frames import HeartbeatIn as ClientFrame  # noqa: F401
from draftsite.frames import heartbeat as heartbeat
from draftsite.frames import parse_heartbeat_only as parse_client_frame  # noqa: F401

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
# The client side (ClientFrame, CLIENT_FRAMES, parse_client_frame, imported above): heartbeats
# only, as draftsite.frames declares it once for the paper, match and judge-call sockets.


def hello(role: str) -> Hello:
    return {"type": "hello", "role": role}  # type: ignore[typeddict-item]


def changed(pod_id: int, version: int, server_time: str) -> Changed:
    return {"type": "changed", "pod": pod_id, "version": version, "server_time": server_time}
