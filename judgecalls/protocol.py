"""The frames of the judge-call sockets, as types (tests/frame_check.py checks every frame the
tests send and receive against them); ``parse_client_frame`` reads what a client sends.

server -> client: ``hello`` then ``changed`` on connect (live.js fetches the panel once), then
``call`` after every committed change of the event's calls (static/js/judgequeue.js fetches
the panel at once: live.js spaces "changed" refreshes two seconds apart, too slow for a
queue), ``heartbeat`` answering the client's, ``error`` for anything else the client sends.
The panel is staff-only; a frame names the call that changed, never its reason, players or
table: nothing private travels.

The caller's socket (ws/judgecalls/seats/<seat_id>/, the seat's player only): ``caller_hello``
then ``call_box`` on connect, ``call_box`` after every committed change of the player's own
call (static/js/callbox.js fetches the box fragment, which checks who is asking), and the same
``heartbeat`` and ``error``. ``call_box`` carries nothing at all: not even the call's id.
"""

from __future__ import annotations

from typing import Literal, TypedDict

from draftsite.frames import HEARTBEAT_ONLY as CLIENT_FRAMES  # noqa: F401
from draftsite.frames import Error as ErrorFrame
from draftsite.frames import Heartbeat as HeartbeatFrame
from draftsite.frames import HeartbeatIn as ClientFrame  # noqa: F401
from draftsite.frames import PageChanged as ChangedFrame  # the match pages' too
from draftsite.frames import error as error
from draftsite.frames import heartbeat as heartbeat
from draftsite.frames import page_changed
from draftsite.frames import parse_heartbeat_only as parse_client_frame  # noqa: F401

CHANGED_MESSAGE_TYPE = "judgecalls.changed"  # the channel layer's message (consumer method)
CALLER_MESSAGE_TYPE = "judgecalls.caller"  # to the caller's group: their call changed


class HelloFrame(TypedDict):
    type: Literal["hello"]
    role: Literal["judge"]


class CallFrame(TypedDict):
    type: Literal["call"]
    event: int
    call: int


class CallerHelloFrame(TypedDict):
    type: Literal["hello"]
    role: Literal["caller"]


class CallBoxFrame(TypedDict):
    type: Literal["call_box"]


ServerFrame = HelloFrame | ChangedFrame | CallFrame | HeartbeatFrame | ErrorFrame | CallerHelloFrame | CallBoxFrame
# The client side (ClientFrame, CLIENT_FRAMES, parse_client_frame, imported above): heartbeats
# only, as draftsite.frames declares it once for the paper, match and judge-call sockets.


def hello() -> HelloFrame:
    return {"type": "hello", "role": "judge"}


changed = page_changed  # on connect, and after every committed change (draftsite.frames)


def call(event_id: int, call_id: int) -> CallFrame:
    return {"type": "call", "event": event_id, "call": call_id}


def caller_hello() -> CallerHelloFrame:
    return {"type": "hello", "role": "caller"}


def call_box() -> CallBoxFrame:
    return {"type": "call_box"}
