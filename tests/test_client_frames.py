"""The one parser of client frames (draftsite.frames.parse_client_frame) behind each socket
app's protocol module, and the frame check every socket test runs through (tests/frame_check.py)."""

from __future__ import annotations

import typing

import pytest

from drafts import protocol as drafts_protocol
from draftsite.bounds import ID_MAX
from draftsite.frames import FrameRefused
from judgecalls import protocol as judgecalls_protocol
from matches import protocol as matches_protocol
from paper import protocol as paper_protocol
from tests import frame_check

PROTOCOLS = [drafts_protocol, paper_protocol, matches_protocol, judgecalls_protocol]


@pytest.mark.parametrize("protocol", PROTOCOLS, ids=lambda p: p.__name__)
def test_every_field_a_client_sends_has_its_validator(protocol):
    validators = getattr(protocol, "VALIDATORS", {})
    for frame_type in protocol.CLIENT_FRAMES.values():
        fields = set(typing.get_type_hints(frame_type)) - {"type"}
        assert fields <= set(validators), (frame_type, fields - set(validators))


@pytest.mark.parametrize("protocol", PROTOCOLS, ids=lambda p: p.__name__)
def test_a_heartbeat_parses_and_an_unknown_type_is_unknown_message(protocol):
    assert protocol.parse_client_frame({"type": "heartbeat"}) == {"type": "heartbeat"}
    for content in ({"type": "shout"}, {"type": 3}, {}, {"type": None}):
        with pytest.raises(FrameRefused) as refused:
            protocol.parse_client_frame(content)
        assert refused.value.code == "unknown_message"


def test_a_pick_reads_each_field_through_its_one_validator():
    parse = drafts_protocol.parse_client_frame
    assert parse({"type": "pick", "card": 7, "pack": 3, "position": 1000, "ref": "r1", "extra": 1}) == {
        "type": "pick",
        "card": 7,
        "pack": 3,
        "position": 1000,
        "ref": "r1",
    }
    assert parse({"type": "pick", "card": 7}) == {"type": "pick", "card": 7}
    assert parse({"type": "pick", "card": 7, "pack": None, "position": None}) == {
        "type": "pick",
        "card": 7,
        "pack": None,
        "position": None,
    }
    # A ref the answer cannot echo is dropped, never refused (as the socket always did).
    assert parse({"type": "ready", "ref": ["x"]}) == {"type": "ready", "ref": None}
    assert parse({"type": "ready", "ref": "x" * 101}) == {"type": "ready", "ref": None}
    assert parse({"type": "ready", "ref": True}) == {"type": "ready", "ref": None}


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({}, "card"),
        ({"card": 0}, "card"),
        ({"card": True}, "card"),
        ({"card": 1.0}, "card"),
        ({"card": "7"}, "card"),
        ({"card": ID_MAX + 1}, "card"),
        ({"card": 7, "pack": 0}, "pack"),
        ({"card": 7, "pack": ID_MAX + 1}, "pack"),
        ({"card": 7, "position": -1}, "position"),
        ({"card": 7, "position": 1001}, "position"),
    ],
)
def test_a_pick_out_of_its_fields_ranges_is_invalid_pick_with_its_ref(fields, field):
    with pytest.raises(FrameRefused) as refused:
        drafts_protocol.parse_client_frame({"type": "pick", "ref": 9, **fields})
    assert (refused.value.code, refused.value.field, refused.value.ref) == ("invalid_pick", field, 9)


@pytest.mark.parametrize(
    ("path", "protocol"),
    [
        ("/ws/seats/1/", drafts_protocol),
        ("ws/events/2/", drafts_protocol),
        ("/ws/watch/abc/", drafts_protocol),
        ("/ws/paper/pods/3/", paper_protocol),
        ("/ws/paper/follow/tok/", paper_protocol),
        ("/ws/matches/events/4/", matches_protocol),
        ("ws/judgecalls/events/5/", judgecalls_protocol),
        ("/ws/judgecalls/seats/6/", judgecalls_protocol),
        ("/ws/ping/", None),
    ],
)
def test_the_frame_check_finds_each_sockets_protocol(path, protocol):
    assert frame_check.protocol_of(path) is protocol


class _Socket:
    """What the frame check reads of a communicator: its scope."""

    def __init__(self, path):
        self.scope = {"path": path}


def test_the_frame_check_refuses_an_undeclared_frame_and_a_refusal_with_another_code():
    socket = _Socket("/ws/matches/events/4/")
    frame_check.check_received(socket, '{"type": "changed", "pod": null, "event": 4}')
    with pytest.raises(AssertionError, match="undeclared"):
        frame_check.check_received(socket, '{"type": "changed", "pod": 1, "event": 4}')
    with pytest.raises(AssertionError, match="undeclared"):
        frame_check.check_received(socket, '{"type": "heartbeat", "server_time": "now", "extra": 1}')
    frame_check.check_sent(socket, '{"type": "shout"}', None)  # a test of bad input: answered unknown_message
    with pytest.raises(AssertionError, match="refused a frame with 'invalid_frame'"):
        frame_check.check_received(socket, '{"type": "error", "code": "invalid_frame"}')
    frame_check.check_sent(socket, "{not json", None)
    frame_check.check_received(socket, '{"type": "error", "code": "invalid_frame"}')


def test_the_frame_check_refuses_a_sent_frame_the_types_do_not_declare():
    socket = _Socket("/ws/seats/1/")
    frame_check.check_sent(socket, '{"type": "pick", "card": 5, "ref": "a"}', None)
    with pytest.raises(AssertionError, match="do not declare"):
        frame_check.check_sent(socket, '{"type": "pick", "card": 5, "colour": "blue"}', None)
    frame_check.check_sent(socket, '{"type": "pick", "card": 0, "ref": "b"}', None)  # refused by the parser
    frame_check.check_received(
        socket,
        '{"type": "pick_refused", "ref": "b", "status": 400, "detail": "no",'
        ' "errors": [{"code": "invalid_pick", "message": "no"}]}',
    )


def test_the_frame_check_takes_unknown_message_for_a_declared_frame_the_socket_does_not_take():
    """A spectator's socket takes no pick: a pick the parser refuses is answered
    ``unknown_message`` there, as a valid one is; any other code still fails the check."""
    socket = _Socket("/ws/watch/abc/")
    frame_check.check_sent(socket, '{"type": "pick", "card": 0}', None)
    frame_check.check_received(socket, '{"type": "error", "code": "unknown_message"}')
    frame_check.check_sent(socket, '{"type": "pick", "card": 0}', None)
    with pytest.raises(AssertionError, match="refused a frame with 'invalid_frame'"):
        frame_check.check_received(socket, '{"type": "error", "code": "invalid_frame"}')
    frame_check.check_sent(socket, '{"type": "shout"}', None)  # not a declared type: its own code only
    with pytest.raises(AssertionError, match="refused a frame with 'service_unavailable'"):
        frame_check.check_received(socket, '{"type": "error", "code": "service_unavailable"}')
