"""A judge removed from an event's staff is cut off at the change, like a player whose seat is
handed over (issue 46 item 14): the staff seat socket (which carries the seat's packs) and the
judge-call queue socket close with 4403 before any further frame, without waiting for a
heartbeat; a role change that keeps every card in view keeps them open."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async

from events import services
from events.models import EventStaff, StaffRole
from judgecalls import services as call_services
from tests.drafts.test_consumers import (  # noqa: F401  (fixtures)
    _close_connections_of_the_orm_thread,
    judge,
    opened,
    pick_first,
    pod,
    seats,
)

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True), pytest.mark.asyncio]

CLOSED = {"type": "websocket.close", "code": 4403}


async def drained(ws) -> None:
    """Read what the socket sent on opening (hello, then a version, a snapshot or a signal)."""
    while not await ws.receive_nothing(timeout=0.3):
        await ws.receive_output(timeout=1)


@database_sync_to_async
def staff_row(event_id, user):
    return EventStaff.objects.get(event_id=event_id, user=user).pk


async def test_a_removed_judge_hears_nothing_more_on_any_socket(pod, seats, judge, organiser, players):  # noqa: F811
    sockets = {
        "seat (state)": await opened(f"/ws/seats/{seats[0].pk}/?protocol=state", judge),
        "seat (versions)": await opened(f"/ws/seats/{seats[1].pk}/", judge),
        "pod": await opened(f"/ws/pods/{pod.pk}/?protocol=state", judge),
        "judge-call queue": await opened(f"/ws/judgecalls/events/{pod.event_id}/", judge),
    }
    for ws in sockets.values():
        await drained(ws)
    staff_id = await staff_row(pod.event_id, judge)
    await database_sync_to_async(services.remove_event_staff)(event_id=pod.event_id, staff_id=staff_id, actor=organiser)
    for name, ws in sockets.items():
        assert await ws.receive_output(timeout=5) == CLOSED, name  # the very next thing: no frame first
    # What happens next (a pick moves packs to seats 0 and 1, a player calls a judge) reaches none of them.
    await pick_first(seats[3])
    await pick_first(seats[0])
    await database_sync_to_async(call_services.call_from_seat)(seat_id=seats[2].pk, actor=players[2], reason="help")
    for name, ws in sockets.items():
        assert await ws.receive_nothing(timeout=0.5), name


async def test_a_role_change_that_still_sees_every_card_keeps_the_sockets(pod, seats, judge, organiser):  # noqa: F811
    ws = await opened(f"/ws/seats/{seats[0].pk}/?protocol=state", judge)
    queue = await opened(f"/ws/judgecalls/events/{pod.event_id}/", judge)
    await drained(ws)
    await drained(queue)
    staff_id = await staff_row(pod.event_id, judge)
    await database_sync_to_async(services.change_staff_role)(
        event_id=pod.event_id, staff_id=staff_id, role=StaffRole.HEAD_JUDGE, actor=organiser
    )
    await pick_first(seats[3])  # the pack reaches seat 0: its page hears it
    frame = await ws.receive_output(timeout=5)
    assert frame["type"] == "websocket.send" and json.loads(frame["text"])["type"] == "delta"
    await queue.send_json_to({"type": "heartbeat"})
    assert (await queue.receive_json_from(timeout=5))["type"] == "heartbeat"
    await ws.disconnect()
    await queue.disconnect()
