"""A seat's queue of packs as its viewer may see it.

At a table the next pack waits face down until the one in front is passed, so a player sees
the pack in front of them in full and, of the packs waiting behind it, only how many cards they
hold and their double-faced cards (open information, R15). Staff see every card.

Both engine paths describe a queue with the same *queue rows* (the shape the fast path's
``drafts_seat_queue`` returns), so one function renders them for the pick answer, the socket
pushes and the pages.
"""

from __future__ import annotations

import datetime as dt

from drafts import cardinfo


def queue_rows(seat_id: int) -> list[dict]:
    """The seat's packs in queue order with their card rows (the ORM twin of the SQL)."""
    return queue_rows_by_seat([seat_id])[seat_id]


def queue_rows_by_seat(seat_ids: list[int]) -> dict[int, list[dict]]:
    """``queue_rows`` of several seats in two queries (a round start reaches every seat)."""
    from drafts.models import DraftCard, Pack

    packs = list(
        Pack.objects.filter(holder_id__in=seat_ids)
        .order_by("queue_seq")
        .values("pk", "holder_id", "round", "picks_made", "initial_size", "deadline", "remaining_ms", "card_ids")
    )
    rows = {
        row[0]: row
        for row in DraftCard.objects.filter(pk__in=[pk for p in packs for pk in p["card_ids"]]).values_list(
            "pk", "card_id", "printing_id", "rarity", "foil", "is_dfc"
        )
    }
    cards = {p["pk"]: [rows[pk] for pk in p["card_ids"]] for p in packs}
    queues: dict[int, list[dict]] = {seat_id: [] for seat_id in seat_ids}
    for p in packs:
        queues[p["holder_id"]].append(
            {
                "pack_id": p["pk"],
                "round": p["round"],
                "picks_made": p["picks_made"],
                "initial_size": p["initial_size"],
                "deadline": p["deadline"],
                "remaining_ms": p["remaining_ms"],
                "cards": cards[p["pk"]],
            }
        )
    return queues


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
