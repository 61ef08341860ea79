"""The engine's calls into the database: the stored functions of ``drafts/sql``.

A pick is one call of ``drafts_pick``: PostgreSQL does the whole pick in one round trip
(lock the pod, apply whatever fell due first, check, move the card, record the pick, pass
the pack, take a last card, end a round, open the next one when its review is over) and
answers with the picker's new queue, so the web process builds no model instances and
sends one statement per pick. Settling (``drafts_settle``, ``drafts_settle_pod``) and
opening a round (``drafts_begin_round``) are the same functions for every caller.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import weakref
from typing import Any

import orjson
from django.conf import settings
from django.db import connection

# Typed parameters: the async path binds them on the server (a prepared statement).
PICK_SQL = (
    "SELECT drafts_pick(%s::bigint, %s::bigint, %s::bigint, %s::integer, %s::integer, "
    "%s::integer, %s::timestamptz, %s::timestamptz, %s::timestamptz)"
)


def async_enabled() -> bool:
    """Sockets pick on the event loop itself (no thread, no Django connection per pick)."""
    return bool(getattr(settings, "DRAFT_ASYNC_PICKS", True))


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


def settle(*, pod_id: int, now: dt.datetime, cutoff: dt.datetime) -> dict[str, Any]:
    """``drafts_settle`` (drafts/sql/drafts_settle.sql) inside the caller's transaction: lock the pod
    and apply everything due (``settle_pod``)."""
    return _one(SETTLE_SQL, [pod_id, now, cutoff])


def settle_pod(*, pod_id: int, now: dt.datetime, cutoff: dt.datetime) -> dict[str, Any]:
    """``drafts_settle_pod`` for a pod this transaction has locked: every clock, automatic
    drafter and last card due, the round's end, a review or deck-building clock's end."""
    return _one(
        "SELECT drafts_settle_pod(%s::bigint, %s::timestamptz, %s::timestamptz, NULL, NULL)", [pod_id, now, cutoff]
    )


def begin_round(*, pod_id: int, at: dt.datetime) -> list[int]:
    """``drafts_begin_round`` for a pod this transaction has locked: the seats sent a pack."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT drafts_begin_round(%s::bigint, %s::timestamptz)", [pod_id, at])
        (openers,) = cursor.fetchone()
    return list(openers)


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
    return _decoded(answer)


def _decoded(answer) -> dict[str, Any]:
    return answer if isinstance(answer, dict) else json.loads(answer)  # psycopg decodes jsonb


def arrivals(answer: dict[str, Any]) -> dict[int, list]:
    """The seats a pack reached the front of, with their queues (JSON keys are strings)."""
    return {int(seat_id): rows for seat_id, rows in (answer.get("arrivals") or {}).items()}


# --- the same call from an event loop -----------------------------------------------------

_pools: dict[asyncio.AbstractEventLoop, Any] = {}


def _conninfo() -> str:
    from psycopg.conninfo import make_conninfo

    db = settings.DATABASES["default"]
    return make_conninfo(
        dbname=db["NAME"],
        user=db.get("USER") or None,
        password=db.get("PASSWORD") or None,
        host=db.get("HOST") or None,
        port=db.get("PORT") or None,
    )


async def _configure(conn) -> None:
    """Answers carry whole packs: decode them with orjson rather than the standard library."""
    from psycopg.types.json import set_json_loads

    set_json_loads(orjson.loads, conn)


async def _pool():
    """This event loop's pool of autocommit connections (a pick is one statement)."""
    from psycopg_pool import AsyncConnectionPool

    loop = asyncio.get_running_loop()
    pool = _pools.get(loop)
    if pool is None:
        pool = AsyncConnectionPool(
            _conninfo(),
            min_size=1,
            max_size=settings.DRAFT_ASYNC_POOL_SIZE,
            kwargs={"autocommit": True},
            open=False,
            name=f"drafts-picks-{id(loop)}",
            configure=_configure,
        )
        _pools[loop] = pool
        await pool.open()
    return pool


# Each pod's picks in this process wait their turn here, in arrival order, before taking a
# connection: the database serialises a pod's picks on its row lock anyway, and a pooled
# connection blocked on that lock is one the other pods' picks cannot use. Only an
# optimisation: the row lock still decides between processes.
_turns: dict[asyncio.AbstractEventLoop, weakref.WeakValueDictionary[int, asyncio.Lock]] = {}


def _turn(pod_id: int) -> asyncio.Lock:
    turns = _turns.setdefault(asyncio.get_running_loop(), weakref.WeakValueDictionary())
    lock = turns.get(pod_id)
    if lock is None:
        lock = turns[pod_id] = asyncio.Lock()
    return lock


async def acall(
    *,
    pod_id: int | None = None,
    seat_id: int,
    draft_card_id: int,
    pack_id: int | None,
    position: int | None,
    actor_id: int | None,
    owner_id: int | None,
    received_at: dt.datetime,
    now: dt.datetime,
    cutoff: dt.datetime,
    then: tuple[str, list] | None = None,
) -> tuple[dict[str, Any], list[tuple] | None]:
    """``call`` on the event loop: one prepared statement, committed when it returns.
    ``pod_id``, when the caller knows the seat's pod, queues the call behind that pod's other
    picks in this process (``_turn``).

    ``then``: a read-only statement sent in the same round trip (a pipeline), run right after
    the pick in its transaction, so it sees the pod exactly as the pick left it (the live
    pages' document); its rows come back beside the answer."""
    pool = await _pool()
    params = [seat_id, draft_card_id, pack_id, position, actor_id, owner_id, received_at, now, cutoff]
    if pod_id is None:
        return await _execute(pool, params, then)
    async with _turn(pod_id):
        return await _execute(pool, params, then)


async def _execute(pool, params: list, then: tuple[str, list] | None) -> tuple[dict[str, Any], list[tuple] | None]:
    if then is None:
        (answer,) = await _fetch_one(pool, PICK_SQL, params)
        return _decoded(answer), None
    import psycopg
    from django.db import InterfaceError, OperationalError

    try:
        async with pool.connection() as conn:
            async with conn.pipeline():
                pick = await conn.execute(PICK_SQL, params, prepare=True)
                after = await conn.execute(then[0], then[1], prepare=True)
            (answer,) = await pick.fetchone()
            return _decoded(answer), await after.fetchall()
    except psycopg.InterfaceError as error:
        raise InterfaceError(str(error)) from error
    except psycopg.OperationalError as error:
        raise OperationalError(str(error)) from error


async def _fetch_one(pool, sql: str, params: list) -> tuple | None:
    """One prepared statement on a pooled connection. psycopg's connection errors (and the
    pool's timeout when every connection stayed busy) surface as Django's, which the callers
    already answer as "the database is out of reach"."""
    rows = await _fetch(pool, sql, params, one=True)
    return rows[0] if rows else None


async def afetch_all(sql: str, params: list) -> list[tuple]:
    """Every row of one prepared statement on this loop's pool (``_fetch_one``'s errors)."""
    return await _fetch(await _pool(), sql, params, one=False)


async def _fetch(pool, sql: str, params: list, *, one: bool) -> list[tuple]:
    import psycopg
    from django.db import InterfaceError, OperationalError

    try:
        async with pool.connection() as conn:
            cursor = await conn.execute(sql, params, prepare=True)
            if one:
                row = await cursor.fetchone()
                return [] if row is None else [row]
            return await cursor.fetchall()
    except psycopg.InterfaceError as error:
        raise InterfaceError(str(error)) from error
    except psycopg.OperationalError as error:
        raise OperationalError(str(error)) from error


# Also the sync check of a seat socket when DRAFT_ASYNC_PICKS is off.
SEAT_HOLDER_SQL = (
    "SELECT r.user_id FROM drafts_seat s JOIN drafts_registration r ON r.id = s.registration_id WHERE s.id = %s"
)


async def aseat_holder(seat_id: int) -> int | None:
    """The user id of the player now holding the seat (a socket's heartbeat asks it)."""
    row = await _fetch_one(await _pool(), SEAT_HOLDER_SQL, [seat_id])
    return row[0] if row else None


async def aclose() -> None:
    """Close this loop's pool (tests: each test has its own loop)."""
    _turns.pop(asyncio.get_running_loop(), None)
    pool = _pools.pop(asyncio.get_running_loop(), None)
    if pool is not None:
        await pool.close()
