"""A pytest plugin (pytest.ini: ``-p tests.frame_check``): every frame a test sends to a socket
of the site and every frame it receives is checked against the protocol of the socket's app.

The socket's app is the app of the consumer its path routes to (``draftsite.routing``); its
protocol module (``drafts.protocol``, ``paper.protocol``, ``matches.protocol``,
``judgecalls.protocol``) declares ``ServerFrame``, ``CLIENT_FRAMES`` and ``parse_client_frame``.

- A frame received must be one of the app's ``ServerFrame`` types, field for field.
- A frame sent must be one of its client frames, field for field, unless the app's parser
  refuses it (a test of bad input): then the next error the socket answers must carry the code
  the parser gave (``error`` frames; a ``pick_refused`` or ``refused`` of status 400), or
  ``unknown_message`` when the refused frame is of a type the protocol declares but this
  socket does not take (a pick on a spectator's socket). A frame that is no JSON object must
  be answered ``invalid_frame``.

Checked on ``WebsocketCommunicator``'s two doors (``send_input``, ``receive_output``), which
every way of sending and receiving goes through. The ping socket (``draftsite``) has no
protocol module and is not checked.
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from channels.testing import WebsocketCommunicator

ERROR_ANSWERS = ("error", "pick_refused", "refused")
UNKNOWN_MESSAGE = "unknown_message"  # every app's code for a frame its socket does not take


@dataclass
class _Expected:
    """The socket's refusals the test has yet to hear, in the order of the frames sent."""

    codes: list[str] = field(default_factory=list)
    # By code's place: whether the refused frame's type is one the protocol declares.
    declared: list[bool] = field(default_factory=list)


def protocol_of(path: str) -> ModuleType | None:
    """The protocol module of the app whose consumer ``path`` routes to (None: none declared)."""
    from django.urls.exceptions import Resolver404

    from draftsite.routing import websocket_urlpatterns

    for pattern in websocket_urlpatterns:
        try:
            match = pattern.resolve(path.lstrip("/"))
        except Resolver404:  # pragma: no cover - URLPattern.resolve answers None instead
            continue
        if match is None:
            continue
        consumer = getattr(match.func, "consumer_class", None)
        app = (consumer.__module__ if consumer else match.func.__module__).split(".")[0]
        try:
            return importlib.import_module(f"{app}.protocol")
        except ModuleNotFoundError:
            return None
    return None


def _protocol(communicator: WebsocketCommunicator) -> ModuleType | None:
    if not hasattr(communicator, "_frame_protocol"):
        communicator._frame_protocol = protocol_of(communicator.scope.get("path", ""))
        communicator._frame_expected = _Expected()
    return communicator._frame_protocol


def check_sent(communicator: WebsocketCommunicator, text: str | None, bytes_data: bytes | None) -> None:
    from drafts.protocol import FrameError, check
    from draftsite.frames import INVALID_FRAME, FrameRefused, decode_frame

    protocol = _protocol(communicator)
    if protocol is None:
        return
    expected: _Expected = communicator._frame_expected
    content = decode_frame(text, bytes_data)
    if content is None:
        expected.codes.append(INVALID_FRAME)
        expected.declared.append(False)
        return
    try:
        protocol.parse_client_frame(content)
    except FrameRefused as refused:
        expected.codes.append(refused.code)
        kind = content.get("type")
        expected.declared.append(isinstance(kind, str) and kind in protocol.CLIENT_FRAMES)
        return
    try:
        check(content, protocol.CLIENT_FRAMES[content["type"]])
    except FrameError as error:
        raise AssertionError(
            f"{protocol.__name__}: a test sent a frame its parser takes but its types do not declare: {error}"
        ) from None


def check_received(communicator: WebsocketCommunicator, text: str) -> None:
    from drafts.protocol import FrameError, check

    protocol = _protocol(communicator)
    if protocol is None:
        return
    frame: Any = json.loads(text)
    try:
        check(frame, protocol.ServerFrame)
    except FrameError as error:
        raise AssertionError(f"{protocol.__name__}: the server sent an undeclared frame: {error}") from None
    expected: _Expected = communicator._frame_expected
    if not expected.codes or frame["type"] not in ERROR_ANSWERS:
        return
    if frame["type"] == "error":
        code = frame["code"]
    elif frame["status"] == 400:
        code = frame["errors"][0]["code"]
    else:  # refused before its fields were read (not the player's seat): the parser has no say
        expected.codes.pop(0)
        expected.declared.pop(0)
        return
    wanted, declared = expected.codes.pop(0), expected.declared.pop(0)
    if declared and code == UNKNOWN_MESSAGE:  # a frame of the protocol this socket does not take
        return
    assert code == wanted, f"{protocol.__name__}: the socket refused a frame with {code!r}, its parser with {wanted!r}"


_send_input = WebsocketCommunicator.send_input
_receive_output = WebsocketCommunicator.receive_output


async def send_input(self, message):
    if message.get("type") == "websocket.receive":
        check_sent(self, message.get("text"), message.get("bytes"))
    return await _send_input(self, message)


async def receive_output(self, timeout=1):
    message = await _receive_output(self, timeout)
    if message.get("type") == "websocket.send" and message.get("text") is not None:
        check_received(self, message["text"])
    return message


def pytest_configure(config):
    WebsocketCommunicator.send_input = send_input
    WebsocketCommunicator.receive_output = receive_output
