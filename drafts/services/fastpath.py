"""The engine's calls into the database: the stored functions of ``drafts/sql``.

A pick is one call of ``drafts_pick``: PostgreSQL does the whole pick in one round trip
(lock the pod, apply whatever fell due first, check, move the card, record the pick, pass
the pack, take a last card, end a round, open the next one when its review is over) and
answers with the picker's new queue, so the web process builds no model instances and
sends one statement per pick. Settling (``drafts_settle``, ``drafts_settle_pod``) and
opening a round (``drafts_begin_round``) are the same functions for every caller; the organiser's
controls are one call each too (``control``: ``drafts.sql.CONTROLS``).

Only the calls and the reading of their answers live here, on Django's connection in the
caller's transaction; sockets send the same statements from their event loop's own pool
(``drafts.aio``), which these services never import.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from django.db import connection

from drafts.sql import CONTROLS

# Typed parameters: the event loop's path (drafts.aio) binds them on the server (a prepared
# statement).
PICK_SQL = (
    "SELECT drafts_pick(%s::bigint, %s::bigint, %s::bigint, %s::integer, %s::integer, "
    "%s::integer, %s::timestamptz, %s::timestamptz, %s::timestamptz)"
)

# The pick of a live page's socket (drafts.aio): the same pick, and what the live pages need to
# follow it in the same call (a patch of the pod's document, or the whole document); the
# eleventh parameter says whether the answer carries the queues' cards (``drafts_pick``'s
# p_queues). ``PICK_LIVE_KNOWN_SQL`` adds the version of the caller's copy of the document: the
# answer is then a patch of that version or the whole document (drafts/sql/drafts_pick_live.sql).
PICK_LIVE_SQL = (
    "SELECT answer, document FROM drafts_pick_live(%s::bigint, %s::bigint, %s::bigint, %s::integer, "
    "%s::integer, %s::integer, %s::timestamptz, %s::timestamptz, %s::timestamptz, %s::bigint, %s::boolean)"
)
PICK_LIVE_KNOWN_SQL = PICK_LIVE_SQL.removesuffix(")") + ", %s::bigint)"


def call(
    *,
    seat_id: int,
    draft_card_id: int,
    pack_id: int | None,
    position: int | None,
    actor_id: int | None,
    owner_id: int | None,
    received_at: dt.datetime,
    now: dt.datetime,
    cutoff: dt.datetime,
) -> dict[str, Any]:
    """Run the function inside the caller's transaction; its JSON answer as a dict."""
    return _one(PICK_SQL, [seat_id, draft_card_id, pack_id, position, actor_id, owner_id, received_at, now, cutoff])


SETTLE_SQL = "SELECT drafts_settle(%s::bigint, %s::timestamptz, %s::timestamptz)"

# A player is ready for the next round (``drafts_ready``): seat, the user who must hold it,
# now, the clocks' cutoff, and whether to answer the pod's document too (a live page's socket).
READY_SQL = (
    "SELECT answer, document FROM drafts_ready(%s::bigint, %s::integer, %s::timestamptz, %s::timestamptz, %s::boolean)"
)


def ready(*, seat_id: int, owner_id: int | None, now: dt.datetime, cutoff: dt.datetime) -> dict[str, Any]:
    """``drafts_ready`` inside the caller's transaction: its JSON answer as a dict."""
    with connection.cursor() as cursor:
        cursor.execute(READY_SQL, [seat_id, owner_id, now, cutoff, False])
        answer, _document = cursor.fetchone()
    return decoded(answer)


def settle(*, pod_id: int, now: dt.datetime, cutoff: dt.datetime) -> dict[str, Any]:
    """``drafts_settle`` (drafts/sql/drafts_settle.sql) inside the caller's transaction: lock the pod
    and apply everything due (``settle_pod``)."""
    return _one(SETTLE_SQL, [pod_id, now, cutoff])


def control(
    function: str, *, pod_id: int, actor_id: int | None, now: dt.datetime, cutoff: dt.datetime, arguments: dict
) -> dict[str, Any]:
    """One control of ``drafts.sql.CONTROLS`` for a pod this transaction has locked: its JSON
    answer ({"status", "code", "version", "arrivals", ...}) as a dict."""
    if function not in CONTROLS:
        raise ValueError(f"{function!r} is not a control (drafts.sql.CONTROLS)")
    return _one(
        f"SELECT {function}(%s::bigint, %s::integer, %s::timestamptz, %s::timestamptz, %s::jsonb)",
        [pod_id, actor_id, now, cutoff, json.dumps(arguments)],
    )


def next_due(*, pod_id: int, now: dt.datetime) -> dt.datetime | None:
    """When the next clock, last card or automatic drafter of a drafting pod is due (``drafts_due``)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT min(d.at) FROM drafts_due(%s::bigint, %s::timestamptz) d", [pod_id, now])
        (due,) = cursor.fetchone()
    return due


def _one(sql: str, params: list) -> dict[str, Any]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        (answer,) = cursor.fetchone()
    return decoded(answer)


def decoded(answer) -> dict[str, Any]:
    return answer if isinstance(answer, dict) else json.loads(answer)  # psycopg decodes json and jsonb


def arrivals(answer: dict[str, Any]) -> dict[int, list]:
    """The seats a pack reached the front of, with their queues (JSON keys are strings)."""
    return {int(seat_id): rows for seat_id, rows in (answer.get("arrivals") or {}).items()}


# A seat socket's check that its player still holds the seat (``drafts.aio.aseat_holder``, or
# on Django's connection when DRAFT_ASYNC_PICKS is off).
SEAT_HOLDER_SQL = (
    "SELECT r.user_id FROM drafts_seat s JOIN drafts_registration r ON r.id = s.registration_id WHERE s.id = %s"
)
