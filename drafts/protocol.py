"""The draft sockets' protocol: every frame a client sends and every frame the server sends,
as types (lila-ws's ``ClientOut``/``ClientIn``, Draftmancer's ``SocketType.ts``).

Two dialects share one socket URL:

- ``versions`` (the default, the API clients'): the server says "pod N is at version V"
  (``changed``) and pushes a seat its queue when a pack reaches the front (``queue``).
- ``state`` (``?protocol=state``, the shipped pages'): on connect, and whenever the client
  asks (``sync``), a ``snapshot`` of everything the page shows, for that viewer only; after it,
  ``delta`` frames. A delta covers the versions after ``from`` up to ``version``: a page at
  version ``from`` applies it and is then at ``version``; a page at a later version has it
  already; a page at an earlier one missed a frame and sends ``sync``. A frame may carry
  several deltas (what was ready in one event-loop turn), in order.

A pod's socket URL may also name its pod (``?pod=<id>``, as the pages' do: ``drafts.live``); the
balancer routes by it and the server ignores it, so API clients may add it or not.

Cards travel as ``CardRow`` lists of ids; a page looks their faces up in the card sheet it
loaded once (``cards_url`` in the snapshot, ``drafts.cardsheet``). What a viewer may see is
decided in ``drafts.state`` (R15-R17), never here.

``check(frame, Type)`` validates a frame against its type: tests run it on every frame the
server sends and every frame they send (tests/frame_check.py). ``parse_client_frame`` is the one
parser of what a client sends: one validator per input, a ``FrameRefused`` with a stable code
for a frame the socket should refuse.
"""

import types
import typing
from typing import Any, Literal, NotRequired, TypedDict, Union

from drafts import error_codes, pick_input
from draftsite.frames import FrameRefused as FrameRefused  # what parse_client_frame raises
from draftsite.frames import frame_types
from draftsite.frames import parse_client_frame as parse_frame

PROTOCOL_VERSIONS = "versions"
PROTOCOL_STATE = "state"

Role = Literal["player", "staff", "member", "spectator"]

# [draft card id, catalogue card id, printing id or null, rarity, foil, is_dfc]
CardRow = list


# --- the state a page holds ------------------------------------------------------------------


class PodSummary(TypedDict):
    id: int
    event_id: int
    number: int
    state: str
    paused_from: str | None
    round: int
    direction: str | None
    review_deadline: str | None
    deck_building_deadline: str | None
    paused_remaining_ms: int | None
    pick_timer: bool
    version: NotRequired[int]  # state frames carry the version beside the state, not in it


class HeldPack(TypedDict):
    """A pack a seat holds, as the whole pod sees it: its size and its DFCs (R15)."""

    pack_id: int
    round: int
    cards_left: int
    dfcs: list[CardRow]


class BoardSeat(TypedDict):
    """One seat of the open board: open information only (R15-R16)."""

    id: int
    position: int
    name: str
    is_automatic: bool
    ready: bool
    picks: int
    packs: list[HeldPack]
    pile_dfcs: list[CardRow] | None  # None once piles are private again (after the draft)


class Board(TypedDict):
    piles_open: bool
    seats: list[BoardSeat]


class QueuePack(TypedDict):
    """A pack in a seat's queue as the viewer may see it: the front one in full; those
    waiting behind it (``waiting``) only their DFCs, unless the viewer is staff."""

    pack_id: int
    round: int
    pick_number: int
    cards_left: int
    deadline: str | None
    remaining_ms: int | None
    cards: list[CardRow]
    waiting: NotRequired[bool]


class SeatInfo(TypedDict):
    id: int
    position: int
    name: str
    is_automatic: bool
    pile_cover: str
    ready: bool


class SeatState(TypedDict):
    """A seat whose own cards the viewer may see (its player, or staff)."""

    info: SeatInfo
    queue: list[QueuePack]
    pile: list[CardRow]


class State(TypedDict):
    pod: PodSummary
    board: Board
    seats: dict[str, SeatState]  # by seat id; empty for members and spectators


class BoardChange(TypedDict):
    piles_open: NotRequired[bool]
    seats: NotRequired[dict[str, BoardSeat]]  # by position: each replaces that seat


class SeatChange(TypedDict):
    info: NotRequired[SeatInfo]
    queue: NotRequired[list[QueuePack]]
    pile: NotRequired[list[CardRow]]


# What changed for this viewer after version ``from`` up to ``version``: each key present
# replaces that part of the state. (Functional syntax: "from" is a Python keyword.)
Delta = TypedDict(
    "Delta",
    {
        "from": int,
        "version": int,
        "pod": NotRequired[PodSummary],
        "board": NotRequired[BoardChange],
        "seats": NotRequired[dict[str, SeatChange]],
    },
)


class PodDigest(TypedDict):
    """A pod as the organiser's dashboard shows it (no card). A summary frame carries only
    the fields that changed since the dashboard's last one, with the pod's ``id``."""

    id: int
    state: NotRequired[str]
    paused_from: NotRequired[str | None]
    round: NotRequired[int]
    pick: NotRequired[int | None]  # the pick its slowest seat is on
    # The clock the pod's line shows (``drafts.clocks.shown_clock``): which one, when it
    # runs out while it runs (seconds after the frame's ``at``), the milliseconds it has left
    # while the pod is paused.
    clock: NotRequired[Literal["pick", "review", "deck_building"] | None]
    due: NotRequired[int | None]
    frozen: NotRequired[int | None]
    holding: NotRequired[list[list[int]]]  # [seat position, packs held] of seats holding 2 or more
    names: NotRequired[list[str]]  # the seats' names by position
    offline: NotRequired[int]  # seats a player holds with no page connected (presence, every 10 s)


# --- server -> client ------------------------------------------------------------------------


class Hello(TypedDict):
    type: Literal["hello"]
    role: Role
    protocol: NotRequired[str]


class Changed(TypedDict):
    type: Literal["changed"]
    pod: int | None
    version: int | None


class QueuePush(TypedDict):
    type: Literal["queue"]
    seat: int
    version: int
    queue: list[dict]


class Snapshot(TypedDict):
    type: Literal["snapshot"]
    pod: int
    version: int
    server_time: str
    cards_url: str
    state: State


class Deltas(TypedDict):
    type: Literal["delta"]
    pod: int
    deltas: list[Delta]


class Summary(TypedDict):
    """The dashboard's pods that changed, at most every 2.5 seconds."""

    type: Literal["summary"]
    at: int  # the server's time, milliseconds since the epoch (``due`` counts from it)
    pods: list[PodDigest]


class Picked(TypedDict):
    type: Literal["picked"]
    ref: str | int | None
    pick: dict
    pod: dict
    queue: NotRequired[list[dict]]  # the versions dialect's (the HTTP 201 body); state pages get deltas
    # State dialect: the picker's own change (its pile, the pack gone from its queue), applied
    # as a ``delta`` frame's deltas are; without it the change comes in a ``delta`` frame.
    deltas: NotRequired[list[Delta]]


class PickRefused(TypedDict):
    type: Literal["pick_refused"]
    ref: str | int | None
    status: int
    detail: str
    errors: list[dict]


class Readied(TypedDict):
    """Answer to ``ready`` (state dialect): the seat is marked ready for the next round."""

    type: Literal["readied"]
    ref: str | int | None


class Refused(TypedDict):
    """Answer to an action other than a pick that the server refused (same body as a pick's)."""

    type: Literal["refused"]
    ref: str | int | None
    status: int
    detail: str
    errors: list[dict]


class Automatic(TypedDict):
    """Seat sockets of the seat's player, both dialects: the organiser has just given the seat
    to an automatic drafter (it picks for the player from now on; the pile stays the seat's,
    the player's pool when the draft ends). Sent once, at the change; the seat's state says it
    as well (``SeatInfo.is_automatic``), so a snapshot after it needs no frame."""

    type: Literal["automatic"]
    seat: int


class Heartbeat(TypedDict):
    type: Literal["heartbeat"]
    server_time: str


class Error(TypedDict):
    """A frame the server would not act on: ``invalid_frame`` for one that is not a JSON object
    (draftsite.frames, every socket of the site), ``unknown_message`` for an object of a type
    this socket does not take, ``service_unavailable`` while the database is out of reach."""

    type: Literal["error"]
    code: str


ServerFrame = (
    Hello
    | Changed
    | QueuePush
    | Snapshot
    | Deltas
    | Summary
    | Picked
    | PickRefused
    | Readied
    | Refused
    | Automatic
    | Heartbeat
    | Error
)

# --- client -> server ------------------------------------------------------------------------


class HeartbeatIn(TypedDict):
    type: Literal["heartbeat"]


class PickIn(TypedDict):
    type: Literal["pick"]
    card: int
    pack: NotRequired[int | None]
    position: NotRequired[int | None]
    ref: NotRequired[str | int | None]


class SyncIn(TypedDict):
    """State dialect: send me a snapshot (a page that missed a delta)."""

    type: Literal["sync"]


class ReadyIn(TypedDict):
    """State dialect, seat sockets of the seat's player: ready for the next round (the page's
    "I'm ready" button; over the socket so that a round costs no HTTP request)."""

    type: Literal["ready"]
    ref: NotRequired[str | int | None]


ClientFrame = HeartbeatIn | PickIn | SyncIn | ReadyIn

SERVER_FRAMES: dict[str, type] = frame_types(ServerFrame)
CLIENT_FRAMES: dict[str, type] = frame_types(ClientFrame)


# --- parsing what a client sends -------------------------------------------------------------


def _whole_number(bounds: pick_input.Range, *, required: bool):
    """A JSON integer in ``bounds`` (a bool, a float or a string is not one)."""
    low, high = bounds

    def validate(value: Any) -> int | None:
        if value is None and not required:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValueError(value)
        return value

    return validate


def _ref(value: Any) -> str | int | None:
    """The client's reference for its request, echoed in the answer: a short string or a
    number; anything else is dropped (answered with a null ``ref``), never refused."""
    if isinstance(value, bool) or not isinstance(value, (str, int)) or (isinstance(value, str) and len(value) > 100):
        return None
    return value


# One validator per input: the same field is read the same way in every frame that has it,
# in the ranges the form and the API read it in (``drafts.pick_input``).
VALIDATORS = {
    "card": _whole_number(pick_input.CARD, required=True),
    "pack": _whole_number(pick_input.PACK, required=False),
    "position": _whole_number(pick_input.POSITION, required=False),
    "ref": _ref,
}

# The code of a frame whose field its validator refuses (the answer is that frame's refusal).
INVALID = {"pick": error_codes.INVALID_PICK}


def parse_client_frame(content: dict) -> ClientFrame:
    """``content`` (a decoded JSON object: ``draftsite.frames``) as one of ``ClientFrame``.

    Raises ``FrameRefused``: ``unknown_message`` for a type this protocol does not declare,
    ``invalid_pick`` for a pick whose card, pack or position is not a whole number in range.
    Which frames a given socket takes (a pick only on a seat socket, ``sync`` and ``ready`` in
    the state dialect) is the socket's to say; this says what each frame holds."""
    return typing.cast(
        ClientFrame,
        parse_frame(content, CLIENT_FRAMES, VALIDATORS, unknown=error_codes.UNKNOWN_MESSAGE, invalid=INVALID),
    )


# --- checking a frame against its type ------------------------------------------------------


class FrameError(ValueError):
    pass


def check_server_frame(frame: object) -> None:
    """Raise ``FrameError`` unless ``frame`` is one of the server's frames, field for field."""
    if not isinstance(frame, dict) or frame.get("type") not in SERVER_FRAMES:
        raise FrameError(f"not a server frame: {frame!r:.200}")
    check(frame, SERVER_FRAMES[frame["type"]])


def check(value: object, expected: object, path: str = "$") -> None:
    """``value`` has the shape of ``expected`` (a TypedDict, a typing form or a plain type);
    a TypedDict allows no key it does not declare."""
    origin = typing.get_origin(expected)
    if expected is typing.Any:
        return
    if expected is None or expected is type(None):
        if value is not None:
            raise FrameError(f"{path}: expected null, got {value!r:.80}")
        return
    if origin in (Union, types.UnionType):
        errors = []
        for option in typing.get_args(expected):
            try:
                check(value, option, path)
                return
            except FrameError as error:
                errors.append(str(error))
        raise FrameError(f"{path}: none of {expected}: {'; '.join(errors)}")
    if origin is Literal:
        if value not in typing.get_args(expected):
            raise FrameError(f"{path}: {value!r} is not one of {typing.get_args(expected)}")
        return
    if origin is NotRequired:
        check(value, typing.get_args(expected)[0], path)
        return
    if origin is list or expected is list:
        if not isinstance(value, list):
            raise FrameError(f"{path}: expected a list, got {type(value).__name__}")
        (item,) = typing.get_args(expected) or (typing.Any,)
        for index, element in enumerate(value):
            check(element, item, f"{path}[{index}]")
        return
    if origin is dict or expected is dict:
        if not isinstance(value, dict):
            raise FrameError(f"{path}: expected an object, got {type(value).__name__}")
        key_type, item = typing.get_args(expected) or (str, typing.Any)
        for key, element in value.items():
            check(key, key_type, f"{path}.<key>")
            check(element, item, f"{path}.{key}")
        return
    if typing.is_typeddict(expected):
        if not isinstance(value, dict):
            raise FrameError(f"{path}: expected an object, got {type(value).__name__}")
        hints = typing.get_type_hints(expected)
        missing = expected.__required_keys__ - value.keys()
        if missing:
            raise FrameError(f"{path}: missing {sorted(missing)}")
        unknown = value.keys() - hints.keys()
        if unknown:
            raise FrameError(f"{path}: unexpected {sorted(unknown)}")
        for key, element in value.items():
            check(element, hints[key], f"{path}.{key}")
        return
    if expected is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise FrameError(f"{path}: expected an integer, got {value!r:.80}")
        return
    if isinstance(expected, type):
        if not isinstance(value, expected):
            raise FrameError(f"{path}: expected {expected.__name__}, got {value!r:.80}")
        return
    raise FrameError(f"{path}: cannot check against {expected!r}")  # pragma: no cover - a typo in a type
