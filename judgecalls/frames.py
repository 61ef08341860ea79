"""The frames of the judge-call queue's socket, as types (tests/judgecalls check every one).

server -> client: ``hello`` then ``changed`` on connect (live.js fetches the panel once), then
``call`` after every committed change of the event's calls (static/js/judgequeue.js fetches
the panel at once: live.js spaces "changed" refreshes two seconds apart, too slow for a
queue), ``heartbeat`` answering the client's, ``error`` for anything else the client sends.
The panel is staff-only; a frame names the call that changed, never its reason, players or
table: nothing private travels.
"""

from __future__ import annotations

from typing import Literal, TypedDict

CHANGED_MESSAGE_TYPE = "judgecalls.changed"  # the channel layer's message (consumer method)


class HelloFrame(TypedDict):
    type: Literal["hello"]
    role: Literal["judge"]


class ChangedFrame(TypedDict):
    type: Literal["changed"]
    pod: None  # live.js: a change of the whole page (not of one pod's version)
    event: int


class CallFrame(TypedDict):
    type: Literal["call"]
    event: int
    call: int


class HeartbeatFrame(TypedDict):
    type: Literal["heartbeat"]
    server_time: str


class ErrorFrame(TypedDict):
    type: Literal["error"]
    code: str


Frame = HelloFrame | ChangedFrame | CallFrame | HeartbeatFrame | ErrorFrame


def hello() -> HelloFrame:
    return {"type": "hello", "role": "judge"}


def changed(event_id: int) -> ChangedFrame:
    return {"type": "changed", "pod": None, "event": event_id}


def call(event_id: int, call_id: int) -> CallFrame:
    return {"type": "call", "event": event_id, "call": call_id}


def heartbeat(server_time: str) -> HeartbeatFrame:
    return {"type": "heartbeat", "server_time": server_time}


def error(code: str) -> ErrorFrame:
    return {"type": "error", "code": code}
