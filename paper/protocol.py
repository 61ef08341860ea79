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

from draftsite.frames import HEARTBEAT_ONLY, Error, Heartbeat, HeartbeatIn
from draftsite.frames import FrameRefused as FrameRefused  # what parse_client_frame raises
from draftsite.frames import error as error
from draftsite.frames import heartbeat as heartbeat
from draftsite.frames import parse_client_frame as parse_frame
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


def parse_client_frame(content: dict) -> ClientFrame:
    """``content`` (a decoded JSON object: ``draftsite.frames``) as a client frame; raises
    ``FrameRefused`` (``unknown_message``) for any other type."""
    return parse_frame(content, CLIENT_FRAMES, {}, unknown=error_codes.UNKNOWN_MESSAGE)  # type: ignore[return-value]


def hello(role: str) -> Hello:
    return {"type": "hello", "role": role}  # type: ignore[typeddict-item]


def changed(pod_id: int, version: int, server_time: str) -> Changed:
    return {"type": "changed", "pod": pod_id, "version": version, "server_time": server_time}
