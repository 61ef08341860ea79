"""The frames of the judge-call queue's socket, as types (tests/judgecalls check every one).

server -> client: ``hello`` on connect, then ``changed`` on connect and after every committed
change of the event's calls (the page then fetches its panel, which is staff-only), and
``heartbeat`` answering the client's; ``error`` for anything else the client sends. A frame
names the call that changed, never its reason, players or table: nothing private travels.
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
    call: int | None


class HeartbeatFrame(TypedDict):
    type: Literal["heartbeat"]
    server_time: str


class ErrorFrame(TypedDict):
    type: Literal["error"]
    code: str


Frame = HelloFrame | ChangedFrame | HeartbeatFrame | ErrorFrame


def hello() -> HelloFrame:
    return {"type": "hello", "role": "judge"}


def changed(event_id: int, call_id: int | None = None) -> ChangedFrame:
    return {"type": "changed", "pod": None, "event": event_id, "call": call_id}


def heartbeat(server_time: str) -> HeartbeatFrame:
    return {"type": "heartbeat", "server_time": server_time}


def error(code: str) -> ErrorFrame:
    return {"type": "error", "code": code}
