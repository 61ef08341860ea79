"""The draft engine on an event loop: the live layer's plumbing (seat sockets, live pages).

Sockets pick and read on the event loop itself, with no thread and no Django connection per
pick: each loop keeps a pool of autocommit connections and sends the services' own statement
(``drafts.services.fastpath.PICK_SQL``), built from the same order (``PickOrder``) and read
the same way (``read_answer``) as every other pick. What is here is only how the call travels
and how its news is published from the loop. ``drafts.services`` import nothing of it
(.importlinter: the services hold no event-loop plumbing).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import weakref
from typing import Any, NamedTuple

import orjson
from django.conf import settings

from drafts import live, state
from drafts.services.changes import grace_cutoff
from drafts.services.fastpath import PICK_LIVE_KNOWN_SQL, PICK_SQL, READY_SQL, SEAT_HOLDER_SQL, decoded
from drafts.services.picks import PickOrder, read_answer, read_ready

logger = logging.getLogger(__name__)


def async_enabled() -> bool:
    """Sockets pick on the event loop itself (no thread, no Django connection per pick)."""
    return bool(getattr(settings, "DRAFT_ASYNC_PICKS", True))


# --- the pick, awaited ---------------------------------------------------------------------


class SocketPick(NamedTuple):
    body: dict  # the answer's body, as over HTTP
    document: state.Document | None  # the pod as the pick left it (None: no live page follows it)


async def amake_pick(
    *,
    pod_id: int | None = None,
    seat_id: int,
    draft_card_id: int,
    actor_id: int,
    owner_id: int | None,
    position: int | None,
    pack_id: int | None,
    received_at: dt.datetime,
    with_queue: bool = True,
) -> SocketPick:
    """``services.make_pick`` from an event loop (the seat socket): the same order, the same
    database function, the same reading of its answer, awaited without a thread. Returns the
    answer's body and the pod's document as the pick left it. ``actor_id`` is the socket's
    user's id (``None`` is refused, as in ``PickOrder.of``). ``pod_id`` (the seat's pod, which
    the socket knows) lines the call up behind the pod's other picks in this process
    (``_turn``)."""
    order = PickOrder.of(
        seat_id=seat_id,
        draft_card_id=draft_card_id,
        actor=actor_id,
        owner=owner_id,
        position=position,
        pack_id=pack_id,
        received_at=received_at,
    )
    # What the live pages need in the same call, when some page may follow the pod: what the
    # pick wrote, patched into this process's copy of the pod's document (the whole document
    # when there is no copy, the copy is not of the version the pick found, or settling ran).
    with_document = bool(pod_id and live.wants_document(pod_id))
    answer, text = await acall(
        pod_id=pod_id,
        with_document=with_document,
        # Where the document travels, the answer needs no queue's cards unless the caller's
        # page wants its queue in it (the versions dialect).
        with_queues=with_queue or not with_document,
        **order.function_arguments(),
    )
    reading = read_answer(answer, order)
    result = reading.result
    document = None
    if reading.notice is not None:
        if text is not None and pod_id:
            document = state.shared_document(live.state_topic(pod_id), reading.notice[1], text)
            if document is None:  # the copy moved on while the pick ran: read the pod whole
                document = await adocument(pod_id)
        await apublish(*reading.notice, *([result.queue] if result is not None else []), document=document)
    if reading.refusal is not None:
        raise reading.refusal
    assert result is not None  # a pick is made or refused
    return SocketPick(result.answer(with_queue=with_queue), document)


async def amark_ready(*, pod_id: int, seat_id: int, owner_id: int, now: dt.datetime) -> None:
    """``services.mark_ready`` from an event loop (the seat socket): the same ``drafts_ready``,
    read the same way (``read_ready``), with the pod's document for the live pages in the same
    call. At a round's end a whole event's players press "ready" within seconds: each is one
    statement here, where through the ORM on executor threads they took the GIL from the loop
    and every pick of the event waited seconds."""
    pool = await _pool()
    async with _turn(pod_id):
        row = await _fetch_one(pool, READY_SQL, [seat_id, owner_id, now, grace_cutoff(now), True])
    assert row is not None  # the function answers one row
    notice, refusal = read_ready(decoded(row[0]))
    if notice is not None:
        changed_pod, version, arrivals = notice
        # The document holds the arrivals' queues: the seats are named, no queue is read.
        await apublish(changed_pod, version, dict.fromkeys(arrivals, []), document=state.from_text(row[1]))
    if refusal is not None:
        raise refusal


async def apublish(pod_id: int, version: int, arrivals: dict[int, list], *queues: list, document=None) -> None:
    """Tell live pages of a committed change from the event loop (``live.pod_messages``);
    ``document``: the pod as the change left it, read in the same round trip."""
    from drafts import cardinfo

    rows = [card for queue in (*queues, *arrivals.values()) for pack in queue for card in pack["cards"]]
    if cardinfo.missing(rows):  # a card this process has not shown yet: read it off the loop
        await off_the_loop(lambda: cardinfo.payloads(rows))
    await anotify_pod(pod_id, version, arrivals, document=document)


async def anotify_pod(
    pod_id: int, version: int, arrivals: dict[int, list | None] | None = None, *, document=None
) -> None:
    """``live.notify_pod`` from an event loop: the document is read on the loop's pool, unless
    the caller read it with the change (``document``)."""
    first = True
    if document is None and live.wants_document(pod_id):
        try:
            document, first = await reader(pod_id).document()
        except Exception:
            logger.warning("Could not read pod %s for its live pages", pod_id, exc_info=True)
    await live.apublish(*live.pod_messages(pod_id, version, arrivals, document, with_document=first))


# ``drafts_pick_live``'s p_known when this process has no copy of the pod's document: no
# version is negative, so the answer is the whole document.
NO_COPY = -1


async def adocument(pod_id: int) -> state.Document | None:
    """The pod's whole document, read after this call began (shared with the loop's other
    reads of the pod meanwhile); None when it could not be read."""
    try:
        document, _first = await reader(pod_id).document()
    except Exception:
        logger.warning("Could not read pod %s for its live pages", pod_id, exc_info=True)
        return None
    return document


class DocumentReader:
    """One event loop's reads of one pod's document: every change committed while a read is
    on its way shares the next read (at saturation a pod changes faster than one statement
    returns). Each caller gets a document read after its change committed."""

    def __init__(self, pod_id: int) -> None:
        self.pod_id = pod_id
        self.waiting: list[asyncio.Future] = []
        self.task: asyncio.Task | None = None

    async def document(self):
        """(a document read after this call began, whether this caller is the first to get it)."""
        future = asyncio.get_running_loop().create_future()
        self.waiting.append(future)
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self.read())
        return await future

    async def read(self) -> None:
        try:
            while self.waiting:
                waiting, self.waiting = self.waiting, []
                try:
                    document = await aread_document(self.pod_id)
                except Exception as error:
                    for future in waiting:
                        if not future.done():
                            future.set_exception(error)
                    continue
                for index, future in enumerate(waiting):
                    if not future.done():
                        future.set_result((document, index == 0))
        finally:
            self.task = None
            _readers.pop((asyncio.get_running_loop(), self.pod_id), None)


_readers: dict[tuple[asyncio.AbstractEventLoop, int], DocumentReader] = {}


def reader(pod_id: int) -> DocumentReader:
    key = (asyncio.get_running_loop(), pod_id)
    found = _readers.get(key)
    if found is None:
        found = _readers[key] = DocumentReader(pod_id)
    return found


async def aread_document(pod_id: int):
    """``state.read`` from an event loop: one prepared statement on the loop's pool. The
    process keeps it as its copy of the pod's (``state.remember``: a process that first follows
    a pod reads it here, and patches it from then on)."""
    document = state.from_rows(await afetch_all(state.DOCUMENT_SQL, state.document_params(pod_id)))
    if document is not None:
        state.remember(live.state_topic(pod_id), document)
    return document


async def off_the_loop(work):
    """Run Django ORM work on any executor thread, not the one thread Channels'
    database_sync_to_async shares (a round's readies from a whole pod arrive together and would
    queue behind it), and give its connection back afterwards (a thread that kept it would
    starve the process's requests; a broken one is dropped, never reused)."""
    from asgiref.sync import sync_to_async
    from django.db import close_old_connections

    def run():
        try:
            return work()
        finally:
            close_old_connections()

    return await sync_to_async(run, thread_sensitive=False)()


# --- each loop's pool of connections ---------------------------------------------------------

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
    with_document: bool = False,
    with_queues: bool = True,
) -> tuple[dict[str, Any], str | None]:
    """``fastpath.call`` on the event loop: one prepared statement, committed when it returns.
    ``pod_id``, when the caller knows the seat's pod, queues the call behind that pod's other
    picks in this process (``_turn``).

    ``with_document`` (``pod_id`` given): the statement is ``drafts_pick_live``, which also
    answers what the live pages need of the pick, else None: what it wrote (a patch of this
    process's copy of the pod's document, ``state.PATCH_FROM``) or the pod's whole document; and,
    without ``with_queues``, an answer without the queues' cards (``drafts_pick``'s p_queues)."""
    pool = await _pool()
    sql, params = PICK_SQL, [seat_id, draft_card_id, pack_id, position, actor_id, owner_id, received_at, now, cutoff]
    if pod_id is None:
        row = await _fetch_one(pool, sql, params)
    else:
        async with _turn(pod_id):
            if with_document:
                # The copy's version once the pod's earlier picks here were answered (each
                # patched the copy before this turn began): a version read before waiting for
                # the turn would be one behind, and every answer the whole document.
                copy = state.known(live.state_topic(pod_id))
                sql = PICK_LIVE_KNOWN_SQL
                params = [*params, pod_id, with_queues, copy.version if copy is not None else NO_COPY]
            row = await _fetch_one(pool, sql, params)
    assert row is not None  # the function answers one row
    return decoded(row[0]), (row[1] if len(row) > 1 else None)


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
