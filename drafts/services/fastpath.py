"""The pick's fast path: one call of the ``drafts_pick`` database function (migration 0004).

PostgreSQL does the whole pick in one round trip (lock the pod, check, move the card, record
the pick, pass the pack, take a last card, end a round) and answers with the picker's new
queue, so the web process builds no model instances and sends one statement per pick. The
function answers ``fallback`` without changing anything when the reference engine in
``drafts.services.picks`` must settle something first (a timer that ran out, an automatic
drafter); it then runs the whole pick instead, in the same transaction.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from django.conf import settings
from django.db import connection

PICK_SQL = "SELECT drafts_pick(%s, %s, %s, %s, %s, %s, %s, %s, %s)"


def enabled() -> bool:
    """PostgreSQL has the function; ``DRAFT_FAST_PATH=false`` (or a test) forces the reference."""
    return connection.vendor == "postgresql" and getattr(settings, "DRAFT_FAST_PATH", True)


def call(*, seat_id: int, draft_card_id: int, pack_id: int | None, position: int | None,
         actor_id: int | None, owner_id: int | None, received_at: dt.datetime,
         now: dt.datetime, cutoff: dt.datetime) -> dict[str, Any]:
    """Run the function inside the caller's transaction; its JSON answer as a dict."""
    with connection.cursor() as cursor:
        cursor.execute(PICK_SQL, [seat_id, draft_card_id, pack_id, position, actor_id, owner_id,
                                  received_at, now, cutoff])
        (answer,) = cursor.fetchone()
    return answer if isinstance(answer, dict) else json.loads(answer)  # psycopg decodes jsonb
