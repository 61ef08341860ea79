"""The one decoder of what a browser or API client sends over any of the site's websockets.

A client frame is a JSON object in a text frame. Anything else (an empty text frame, a binary
frame, text that is not JSON, JSON nested deeper than any message of the protocols, a JSON
value that is not an object, text with a NUL or a lone surrogate) is answered with
``{"type": "error", "code": "invalid_frame"}`` and the socket stays open: a bad frame never
reaches a handler, never closes the socket and never fills the log with a traceback. Every
consumer of the site (drafts, paper, matches, ping) reads its frames through
:class:`GuardedJsonConsumer`; a frame it decodes is then the consumer's to answer (an object of
an unknown ``type`` is ``unknown_message``, the code every app gives it).
"""

from __future__ import annotations

import functools
import typing
from collections.abc import Callable, Mapping
from typing import Any, Literal, TypedDict

import orjson
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from rest_framework.exceptions import ParseError

from draftsite.parsers import check_json_value

INVALID_FRAME = "invalid_frame"
UNKNOWN_MESSAGE = "unknown_message"  # every app's code for a frame type its socket does not take

# Deeper than any message a page or client sends (a pick is one level).
MAX_FRAME_DEPTH = 8


def decode_frame(text_data: str | None, bytes_data: bytes | None = None) -> dict[str, Any] | None:
    """The frame's JSON object, or None when it is anything else (see the module)."""
    if bytes_data is not None or not text_data:
        return None
    try:
        content = orjson.loads(text_data)  # orjson refuses deep nesting with a ValueError, never a RecursionError
        check_json_value(content, max_depth=MAX_FRAME_DEPTH)
    except (ValueError, ParseError):
        return None
    return content if isinstance(content, dict) else None


class GuardedJsonConsumer(AsyncJsonWebsocketConsumer):
    """A JSON websocket consumer whose ``receive_json`` only ever gets a decoded object."""

    async def parsed(self, content: dict[str, Any], parse: Callable[[dict[str, Any]], Any]) -> Any:
        """``content`` through its protocol's ``parse_client_frame``; a frame it refuses is
        answered here with its ``error`` frame (then None)."""
        try:
            return parse(content)
        except FrameRefused as refused:
            await self.send_json(error(refused.code))
            return None

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        content = decode_frame(text_data, bytes_data)
        if content is None:
            await self.send_json({"type": "error", "code": INVALID_FRAME})
            return
        await self.receive_json(content, **kwargs)

    @classmethod
    async def encode_json(cls, content):
        return orjson.dumps(content).decode()  # pick answers carry whole packs: a fast encoder


# --- the one parser of a decoded client frame -----------------------------------------------


class FrameRefused(Exception):
    """A client frame the parser does not hand on: ``code`` is its stable error code (the
    ``unknown_message`` for a type the socket's protocol does not declare, the frame's
    own code for a field that fails its validator), ``field`` the field that failed."""

    def __init__(self, code: str, field: str | None = None, ref: str | int | None = None):
        super().__init__(code if field is None else f"{code}: {field}")
        self.code = code
        self.field = field
        self.ref = ref  # the refused frame's own ``ref`` (read by its validator), for the answer


Validator = Callable[[Any], Any]


def frame_types(union: object) -> dict[str, type]:
    """The TypedDicts of a union of frames, by their ``type`` literal."""
    return {typing.get_type_hints(t)["type"].__args__[0]: t for t in typing.get_args(union) or (union,)}


def parse_client_frame(
    content: dict[str, Any],
    frames: Mapping[str, type],
    validators: Mapping[str, Validator],
    *,
    unknown: str,
    invalid: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The client frame ``content`` as its declared type (``frames``, by ``type``): each
    declared field through its one validator (``validators``, by field name: a validator
    answers the field's value or raises ``ValueError``). A field the type does not declare is
    left out, as the sockets always ignored one. Raises :class:`FrameRefused` with ``unknown``
    for a type not in ``frames`` and with ``invalid[type]`` for a field its validator refuses
    (with the frame's ``ref``, when it has one, for the refusal to echo)."""
    kind = content.get("type")
    frame_type = frames.get(kind) if isinstance(kind, str) else None
    if frame_type is None or not isinstance(kind, str):
        raise FrameRefused(unknown)
    frame: dict[str, Any] = {"type": kind}
    fields, required = _fields(frame_type)
    for name in fields:
        if name not in content and name not in required:
            continue
        try:
            frame[name] = validators[name](content.get(name))
        except ValueError:
            ref = validators["ref"](content.get("ref")) if "ref" in fields and name != "ref" else None
            raise FrameRefused((invalid or {}).get(kind, INVALID_FRAME), name, ref) from None
    return frame


@functools.cache
def _fields(frame_type: type) -> tuple[tuple[str, ...], frozenset[str]]:
    """A client frame's fields besides ``type``, in order, and the required ones: read once a
    type (``typing.get_type_hints`` costs about 50 µs, most of a pick's parsing)."""
    names = tuple(name for name in typing.get_type_hints(frame_type) if name != "type")
    return names, frozenset(frame_type.__required_keys__)  # type: ignore[attr-defined]


# --- the frames every socket of the site shares ---------------------------------------------


class HeartbeatIn(TypedDict):
    """client -> server: the page is still there (answered with ``Heartbeat``)."""

    type: Literal["heartbeat"]


class Heartbeat(TypedDict):
    """server -> client: the answer to a heartbeat (the page resyncs its clock)."""

    type: Literal["heartbeat"]
    server_time: str


class Error(TypedDict):
    """server -> client: a frame the server would not act on (its code says why)."""

    type: Literal["error"]
    code: str


class PageChanged(TypedDict):
    """server -> client: an event's page changed as a whole (``static/js/live.js`` fetches its
    panel): the match pages' and the judge-call queue's ``changed``."""

    type: Literal["changed"]
    pod: None  # live.js: a change of the whole page (not of one pod's version)
    event: int


def heartbeat(server_time: str) -> Heartbeat:
    return {"type": "heartbeat", "server_time": server_time}


def error(code: str) -> Error:
    return {"type": "error", "code": code}


def page_changed(event_id: int) -> PageChanged:
    return {"type": "changed", "pod": None, "event": event_id}


# --- the client side of a socket whose clients send only heartbeats --------------------------
# Declared once for the paper, match and judge-call sockets: each protocol module imports
# ``HeartbeatIn``, ``HEARTBEAT_ONLY`` and ``parse_heartbeat_only`` as its ``ClientFrame``,
# ``CLIENT_FRAMES`` and ``parse_client_frame``.

HEARTBEAT_ONLY: dict[str, type] = {"heartbeat": HeartbeatIn}


def parse_heartbeat_only(content: dict[str, Any]) -> HeartbeatIn:
    """A heartbeat; a frame of any other type is refused with ``unknown_message``."""
    return typing.cast(HeartbeatIn, parse_client_frame(content, HEARTBEAT_ONLY, {}, unknown=UNKNOWN_MESSAGE))
