"""A seat's queue of packs as its viewer may see it.

At a table the next pack waits face down until the one in front is passed, so a player sees
the pack in front of them in full and, of the packs waiting behind it, only how many cards they
hold and their double-faced cards (open information, R15). Staff see every card.

Every path describes a queue with the same *queue rows*, built once, by ``drafts_seat_queue``
(the pick's answer carries them; ``queue_rows`` asks for them), so one function renders them
for the pick answer, the socket pushes and the pages.
"""

from __future__ import annotations

import datetime as dt
import json

from django.db import connection

from drafts import cardinfo


def queue_rows(seat_id: int) -> list[dict]:
    """The seat's packs in queue order with their card rows (``drafts_seat_queue``)."""
    return queue_rows_by_seat([seat_id])[seat_id]


def queue_rows_by_seat(seat_ids: list[int]) -> dict[int, list[dict]]:
    """``queue_rows`` of several seats in one call (a round start reaches every seat): the
    queue's shape is written once, in ``drafts_seat_queue``; deadlines are ISO text."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT drafts_seat_queues(%s::bigint[])", [list(seat_ids)])
        (answer,) = cursor.fetchone()
    # psycopg decodes json; a connection told otherwise answers text
    answer = answer if isinstance(answer, dict) else json.loads(answer)
    queues = {int(seat_id): rows for seat_id, rows in answer.items()}
    return {seat_id: queues.get(seat_id, []) for seat_id in seat_ids}


def iso(value) -> str | None:
    """ISO 8601 in UTC, whether the value is a datetime or the database's JSON text."""
    if value is None:
        return None
    if isinstance(value, str):
        value = dt.datetime.fromisoformat(value)
    return value.astimezone(dt.UTC).isoformat()


def shown_packs(rows: list[dict], *, full: bool = False):
    """R15 for a queue: each pack with whether it is shown in full and the cards shown: every
    card when ``full`` (staff) or for the pack in front, else only the waiting pack's DFCs."""
    for index, pack in enumerate(rows):
        visible = full or index == 0
        yield pack, visible, [card for card in pack["cards"] if visible or card[5]]


def queue_payload(rows: list[dict], *, full: bool = False) -> list[dict]:
    """What the viewer sees of the queue (``shown_packs``), each card as its page payload."""
    shown = list(shown_packs(rows, full=full))
    payload = cardinfo.payloads([card for _, _, cards in shown for card in cards])
    out = []
    for pack, visible, cards in shown:
        entry = {
            "pack_id": pack["pack_id"],
            "round": pack["round"],
            "pick_number": pack["picks_made"] + 1,
            "cards_left": pack["initial_size"] - pack["picks_made"],
            "deadline": iso(pack["deadline"]),
            "remaining_ms": pack["remaining_ms"],
            "cards": [payload[card[0]] for card in cards],
        }
        if not visible:
            entry["waiting"] = True  # face down: only its DFCs are shown
        out.append(entry)
    return out
