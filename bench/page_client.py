"""The draft load benchmark's page client: does on the network what the shipped draft page
(static/js/live.js + static/js/draft.js) does in the state dialect of drafts/protocol.py.

A page opens its seat socket with ``?protocol=state``; the server says ``hello``, then sends a
``snapshot`` (the state the page draws) and after it ``delta`` frames. The page keeps the state
with the rule of drafts.protocol (``PageState``): a delta ``from`` its version is applied (it is
then at the delta's ``version``), one it has already (``version`` at most its own) is skipped, and
any other means it missed one: it sends ``sync`` and waits for a snapshot. It loads the card
sheet (``cards_url``) once per session, and asks ``/events/cards/?ids=..`` only for cards absent
from it. It knows its pack from ``state.seats[<its seat>].queue[0]``, picks over the socket, and
between rounds presses "ready" over the socket. It makes no other HTTP request; every one it makes
is counted.

Observers (a pod page of a seated player, the event dashboard of staff) hold one socket each and
count what they receive; they keep their state with the same rule.

Shared with the API client of bench/draft_load.py: ``SocketPage`` (a socket's requests with a
``ref``, heartbeats, thinking time). This module imports nothing from draft_load (which runs as a
script): its run and context objects are handed in.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import random
import re
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

try:  # the generator parses every frame: the fastest JSON available
    import orjson

    def loads(text):
        return orjson.loads(text)

    def dumps(value) -> str:
        return orjson.dumps(value).decode()
except ImportError:  # pragma: no cover - depends on the environment
    loads = json.loads  # type: ignore[assignment]

    def dumps(value) -> str:
        return json.dumps(value, separators=(",", ":"))


FINISHED = ("deck_building", "done")
# Refusals a player meets in a fair draft (its timer ran out, the pod moved on); any other is
# an error.
BENIGN_REFUSALS = {"wrong_pack", "already_picked", "no_pack", "pod_not_drafting", "pod_paused"}
# Refusals of "ready" a fair page meets: the others' readies (or the clock) started the round.
BENIGN_READY_REFUSALS = {"pod_not_reviewing", "pod_not_drafting", "pod_paused"}
MISSING_CARDS_PATH = "/events/cards/"


PAGE_SCRIPT = Path(__file__).resolve().parents[1] / "static" / "js" / "draft.js"


def page_settle_seconds(script: Path = PAGE_SCRIPT) -> float:
    """The shipped draft page's SETTLE_MS, in seconds: it ignores a click on a pack younger than
    that (read from the script, so the bench follows the page when it changes)."""
    found = re.search(r"\bvar SETTLE_MS = (\d+);", script.read_text())
    if found is None:
        raise RuntimeError(f"no SETTLE_MS in {script}: the page's click delay moved")
    return int(found.group(1)) / 1000


PAGE_SETTLE_SECONDS = page_settle_seconds()


class NoStateDialect(RuntimeError):
    """The server does not answer ``?protocol=state`` with a snapshot: nothing to measure."""


# --- the state a page keeps ------------------------------------------------------------------


class PageState:
    """A page's copy of the state: a snapshot, then deltas applied by the protocol's rule.

    Counts what the rule did: ``applied`` deltas (``versions_applied`` versions), ``skipped``
    ones the page had already, ``gaps`` (a delta beyond the page's version: ``versions_missed``
    of them; the page asks for a snapshot), ``applied_twice`` (a delta applied over versions the
    page's state had already passed: only a snapshot older than the page's state makes that
    possible, and it must never happen), ``went_back`` (such a snapshot), and
    ``dropped_while_syncing`` (deltas that came while the page waited for its snapshot).
    """

    def __init__(self) -> None:
        self.version: int | None = None  # None until the first snapshot
        self.state: dict | None = None
        self.high = -1  # the highest version this page's state ever reached
        self.awaiting_snapshot = False
        self.snapshots = 0
        self.applied = 0
        self.versions_applied = 0
        self.skipped = 0
        self.gaps = 0
        self.versions_missed = 0
        self.applied_twice = 0
        self.went_back = 0
        self.dropped_while_syncing = 0

    def load_snapshot(self, frame: dict) -> None:
        version = int(frame["version"])
        self.snapshots += 1
        if version < self.high:
            self.went_back += 1
        self.version = version
        self.state = frame["state"]
        self.high = max(self.high, version)
        self.awaiting_snapshot = False

    def apply_frame(self, frame: dict) -> tuple[bool, bool, set[str]]:
        """Apply a ``delta`` frame's deltas in order: (state changed, gap found: send ``sync``,
        the ids of seats whose part changed)."""
        changed, seats = False, set[str]()
        for delta in frame.get("deltas") or ():
            outcome = self.apply(delta)
            if outcome == "applied":
                changed = True
                seats.update((delta.get("seats") or {}).keys())
            elif outcome == "gap":
                return changed, True, seats
        return changed, False, seats

    def apply(self, delta: dict) -> str:
        """One delta by the rule: "applied", "skipped", "gap" or "waiting" (for a snapshot)."""
        start, version = int(delta["from"]), int(delta["version"])
        if self.version is not None and version <= self.version:
            self.skipped += 1
            return "skipped"
        if self.awaiting_snapshot or self.version is None or self.state is None:
            self.dropped_while_syncing += 1
            return "waiting"
        if start != self.version:
            self.gaps += 1
            self.versions_missed += max(0, start - self.version)
            self.awaiting_snapshot = True
            return "gap"
        if start < self.high:
            self.applied_twice += 1
        self._replace_parts(delta)
        self.applied += 1
        self.versions_applied += version - start
        self.version = version
        self.high = max(self.high, version)
        return "applied"

    def _replace_parts(self, delta: dict) -> None:
        state = self.state
        assert state is not None
        if "pod" in delta:
            state["pod"] = delta["pod"]
        board = delta.get("board")
        if board:
            current = state.setdefault("board", {"piles_open": False, "seats": []})
            if "piles_open" in board:
                current["piles_open"] = board["piles_open"]
            if board.get("seats"):
                seats = current.setdefault("seats", [])
                where = {seat.get("position"): index for index, seat in enumerate(seats)}
                for position, seat in board["seats"].items():
                    index = where.get(int(position))
                    if index is None:
                        seats.append(seat)
                    else:
                        seats[index] = seat
        for seat_id, change in (delta.get("seats") or {}).items():
            state.setdefault("seats", {}).setdefault(seat_id, {}).update(change)

    def seat(self, seat_id: int) -> dict:
        return ((self.state or {}).get("seats") or {}).get(str(seat_id)) or {}

    def pod_state(self) -> str | None:
        return ((self.state or {}).get("pod") or {}).get("state")

    def counters(self) -> Counter:
        return Counter(
            snapshots=self.snapshots,
            deltas_applied=self.applied,
            versions_applied=self.versions_applied,
            deltas_skipped=self.skipped,
            gaps=self.gaps,
            versions_missed=self.versions_missed,
            applied_twice=self.applied_twice,
            snapshots_went_back=self.went_back,
            dropped_while_syncing=self.dropped_while_syncing,
        )


def front_pack(queue: list) -> dict | None:
    """The pack the page shows to pick from: the queue's first, unless it is only waiting."""
    if queue and not queue[0].get("waiting") and queue[0].get("cards"):
        return queue[0]
    return None


def card_rows(state: dict | None) -> list[list]:
    """Every card row a state holds (queues, piles, the board's DFCs)."""
    rows: list[list] = []
    if not state:
        return rows
    for seat in (state.get("seats") or {}).values():
        for pack in seat.get("queue") or ():
            rows.extend(pack.get("cards") or ())
        rows.extend(seat.get("pile") or ())
    for seat in (state.get("board") or {}).get("seats") or ():
        for pack in seat.get("packs") or ():
            rows.extend(pack.get("dfcs") or ())
        rows.extend(seat.get("pile_dfcs") or ())
    return rows


def sheet_printings(sheet: Any) -> set[str]:
    """The printing ids a card sheet holds (``{"printings": {"<id>": ...}}``, drafts.cardsheet)."""
    printings = sheet.get("printings") if isinstance(sheet, dict) else None
    return {str(key) for key in printings} if isinstance(printings, dict) else set()


def sheet_ids(sheet: Any) -> set[str] | None:
    """The catalogue card ids a card sheet holds, as strings; None if its shape is unknown.
    Accepted: ``{"cards": {"<id>": ...}}`` (drafts.cardsheet), an object keyed by id,
    ``{"cards": [...]}`` or a list of objects with an ``id`` (or of lists whose first item is
    the id)."""
    if isinstance(sheet, dict) and "cards" in sheet:
        sheet = sheet["cards"]
    if isinstance(sheet, dict):
        return {str(key) for key in sheet}
    if isinstance(sheet, list):
        ids = set()
        for item in sheet:
            if isinstance(item, dict) and "id" in item:
                ids.add(str(item["id"]))
            elif isinstance(item, list) and item:
                ids.add(str(item[0]))
            else:
                return None
        return ids
    return None


# --- what the pages count --------------------------------------------------------------------


class PageStats:
    """The page client's counters for one run, beside draft_load's ``Run`` (which keeps the
    counters both clients share: picks, acknowledgements, refusals, errors, statuses)."""

    def __init__(self) -> None:
        self.phase = "setup"  # "setup" (pages opening), "window" (measured), "after"
        self.frames: dict[str, Counter] = defaultdict(Counter)  # phase/kind of page -> frame type
        self.bytes: dict[str, Counter] = defaultdict(Counter)
        self.pages: Counter = Counter()  # kind of page -> sockets opened
        self.http: Counter = Counter()  # what the pages asked over HTTP (should be sheet only)
        self.http_window: Counter = Counter()
        self.http_bytes = 0
        self.missing_card_ids = 0
        self.missing_printing_ids = 0
        self.sheet_unreadable = 0
        self.closed_by_server: Counter = Counter()  # "<kind of page> <close code>" -> sockets
        self.reconnects = 0
        self.reconnect_seconds: list[float] = []  # a socket closed -> its page's next snapshot
        self.stall_syncs = 0  # syncs sent because the state stood still too long (should be 0)
        self.gap_syncs = 0
        self.ready_ack: list[float] = []
        self.readies = 0
        self.told_front: list[float] = []  # pick sent -> next seat's state shows the pack first
        self.told_queue: list[float] = []  # pick sent -> next seat's state holds the pack at all
        self.pending_front: dict[tuple[int, int], float] = {}  # (seat, pack) -> pick sent at
        self.pending_queue: dict[tuple[int, int], float] = {}
        self.states: list[tuple[str, PageState]] = []  # (kind of page, its state) of every socket
        self.pushed_packs: set[tuple[int, int]] = set()  # (the page's pod, a pack in its queue)
        self.max_version: dict[int, int] = {}

    def heard(self, kind: str, text: str, frame_type: str) -> None:
        key = f"{self.phase}/{kind}"
        self.frames[key][frame_type] += 1
        self.bytes[key][frame_type] += len(text) if text.isascii() else len(text.encode())

    def request(self, name: str, size: int) -> None:
        self.http[name] += 1
        self.http_bytes += size
        if self.phase == "window":
            self.http_window[name] += 1

    def expect(self, seat_id: int, pack_id: int, started: float) -> None:
        self.pending_front[(seat_id, pack_id)] = started
        self.pending_queue[(seat_id, pack_id)] = started

    def forget(self, seat_id: int, pack_id: int) -> None:
        self.pending_front.pop((seat_id, pack_id), None)
        self.pending_queue.pop((seat_id, pack_id), None)

    def seat_queue_seen(self, pod_id: int, seat_id: int, queue: list, at: float) -> None:
        for index, pack in enumerate(queue):
            pack_id = pack.get("pack_id")
            self.pushed_packs.add((pod_id, pack_id))
            started = self.pending_queue.pop((seat_id, pack_id), None)
            if started is not None:
                self.told_queue.append(at - started)
            if index == 0 and front_pack(queue) is not None:
                started = self.pending_front.pop((seat_id, pack_id), None)
                if started is not None:
                    self.told_front.append(at - started)

    def summary(self, picks: int, seconds: float, percentiles) -> dict:
        def per(value):
            return round(value / picks, 3) if picks else None

        kinds: dict[str, dict] = {}
        for key in sorted(self.frames):
            phase, kind = key.split("/", 1)
            frames, size = self.frames[key], self.bytes[key]
            entry = kinds.setdefault(kind, {"pages": self.pages[kind]})
            entry[phase] = {"frames": dict(frames), "bytes": dict(size)}
            if phase == "window":
                total_frames, total_bytes = sum(frames.values()), sum(size.values())
                entry["frames_per_pick"] = per(total_frames)
                entry["bytes_per_pick"] = per(total_bytes)
                entry["frames_per_second"] = round(total_frames / seconds, 1) if seconds else None
                entry["bytes_per_second"] = round(total_bytes / seconds, 1) if seconds else None
                pages = self.pages[kind] or 1
                entry["frames_per_page_per_second"] = round(total_frames / pages / seconds, 2) if seconds else None
                entry["bytes_per_page_per_second"] = round(total_bytes / pages / seconds, 1) if seconds else None
        rules: dict[str, Counter] = defaultdict(Counter)
        for kind, state in self.states:
            rules[kind].update(state.counters())
        http_total = sum(self.http.values())
        return {
            "http_requests": dict(self.http),
            "http_requests_in_window": dict(self.http_window),
            "http_requests_per_pick": per(http_total),
            "http_requests_per_pick_in_window": per(sum(self.http_window.values())),
            "http_bytes": self.http_bytes,
            "missing_card_ids": self.missing_card_ids,
            "missing_printing_ids": self.missing_printing_ids,
            "card_sheet_unreadable": self.sheet_unreadable,
            "by_kind_of_page": kinds,
            "state_rule": {kind: dict(counts) for kind, counts in rules.items()},
            "closed_by_server": dict(self.closed_by_server),
            "reconnects": self.reconnects,
            "reconnect_ms": percentiles(self.reconnect_seconds),
            "gap_syncs": self.gap_syncs,
            "stall_syncs": self.stall_syncs,
            "readies": self.readies,
            "ready_ack_ms": percentiles(self.ready_ack),
            "told_front_ms": percentiles(self.told_front),
            "told_queue_ms": percentiles(self.told_queue),
            "told_never": len(self.pending_front),
        }


# --- a socket of a page ----------------------------------------------------------------------


class SocketPage:
    """What every simulated page does on its socket: requests answered by ``ref``, heartbeats
    like static/js/live.js, and a player's thinking time. Subclasses open ``self.ws`` and read
    it, resolving ``self.waiters[ref]`` with ``(when, frame)`` (``(when, None)`` once closed)."""

    def __init__(self, seat_id: int, run, ctx) -> None:
        self.run = run
        self.ctx = ctx
        self.ws = None
        self.reader: asyncio.Task | None = None
        self.waiters: dict[int, asyncio.Future] = {}
        self.refs = 0
        self.rng = random.Random(seat_id)

    async def ask(self, frame: dict) -> tuple[float, dict | None]:
        """Send ``frame`` with a fresh ``ref``; (when the answer came, the answer or None)."""
        if self.ws is None or self.ws.closed:
            return time.monotonic(), None
        self.refs += 1
        ref = self.refs
        waiter = asyncio.get_running_loop().create_future()
        self.waiters[ref] = waiter
        try:
            await self.ws.send_str(dumps({**frame, "ref": ref}))
            return await asyncio.wait_for(waiter, self.ctx.answer_timeout)
        except TimeoutError:
            self.waiters.pop(ref, None)
            self.run.errors["answer_timeout"] += 1
            return time.monotonic(), None
        except Exception:
            self.waiters.pop(ref, None)
            return time.monotonic(), None

    def answered(self, data: dict, at: float) -> None:
        waiter = self.waiters.pop(data.get("ref"), None)  # type: ignore[arg-type]
        if waiter is not None and not waiter.done():
            waiter.set_result((at, data))

    def release_waiters(self) -> None:
        for waiter in self.waiters.values():
            if not waiter.done():
                waiter.set_result((time.monotonic(), None))
        self.waiters.clear()

    async def heartbeat(self) -> None:
        """Like the page: a heartbeat every ``--heartbeat-seconds`` (the server checks the seat
        is still the player's and marks them present)."""
        await asyncio.sleep(self.rng.uniform(0, self.ctx.heartbeat))
        while True:
            if self.ws is not None and not self.ws.closed:
                try:
                    await self.ws.send_str('{"type":"heartbeat"}')
                    self.run.heartbeats += 1
                except Exception:
                    pass
            await asyncio.sleep(self.ctx.heartbeat)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await asyncio.gather(self.reader, return_exceptions=True)

    def think_seconds(self, pack: dict) -> float:
        low, high = self.ctx.think
        seconds = self.rng.uniform(low, high)
        if self.ctx.deadline_margin >= 0 and pack.get("deadline"):
            left = (dt.datetime.fromisoformat(pack["deadline"]).timestamp() - time.time()) - self.ctx.deadline_margin
            seconds = max(0.0, min(seconds, left))
        return seconds

    async def open_socket(self, path: str, session_key: str | None) -> bool:
        import aiohttp

        ctx = self.ctx
        url = ctx.base.replace("http", "ws", 1) + path
        headers = {"Origin": ctx.base}
        if session_key:
            headers["Cookie"] = f"sessionid={session_key}"
        try:
            self.ws = await ctx.socket_session.ws_connect(
                url, headers=headers, heartbeat=None, autoping=True, compress=15
            )  # offered, as browsers do
        except (TimeoutError, aiohttp.ClientError, OSError):
            self.run.errors["socket_connect_failed"] += 1
            self.ws = None
            return False
        return True


class StateSocket(SocketPage):
    """A socket in the state dialect: counts its frames, keeps its state(s) by the rule, asks for
    a snapshot on a gap, records who closed it. ``kind`` names the page in the report."""

    kind = "page"

    def __init__(self, seat_id: int, run, ctx, stats: PageStats, path: str, session_key: str | None) -> None:
        super().__init__(seat_id, run, ctx)
        self.stats = stats
        self.path = path
        self.session_key = session_key
        self.states: dict[int, PageState] = {}  # by pod: a dashboard follows several
        self.hello: dict | None = None
        self.snapshot_seen = asyncio.Event()
        self.changed = asyncio.Event()
        self.last_change = time.monotonic()
        self.first_frames: list[str] = []  # what came before any snapshot (for the failure message)
        self.cards_url: str | None = None
        self.closed_at: float | None = None

    def state_of(self, pod_id: int) -> PageState:
        state = self.states.get(pod_id)
        if state is None:
            state = self.states[pod_id] = PageState()
            self.stats.states.append((self.kind, state))
        return state

    async def connect(self) -> bool:
        separator = "&" if "?" in self.path else "?"
        if not await self.open_socket(f"{self.path}{separator}protocol=state", self.session_key):
            return False
        self.stats.pages[self.kind] += 1
        self.snapshot_seen.clear()
        self.reader = asyncio.ensure_future(self.read(self.ws))
        return True

    async def wait_for_snapshot(self, seconds: float) -> None:
        """Fail loudly unless the server sent a snapshot after its hello within ``seconds``."""
        try:
            await asyncio.wait_for(self.snapshot_seen.wait(), seconds)
        except TimeoutError:
            heard = ", ".join(self.first_frames[:4]) or "nothing"
            raise NoStateDialect(
                f"{self.path}?protocol=state: no snapshot within {seconds:g} s "
                f"(heard: {heard}). The server does not speak the state dialect of "
                "drafts/protocol.py yet; run with --client api, or against a server that does."
            ) from None

    async def read(self, ws) -> None:
        import aiohttp

        try:
            async for message in ws:
                if message.type != aiohttp.WSMsgType.TEXT:
                    break
                at = time.monotonic()
                text = message.data
                data = loads(text)
                kind = data.get("type") if isinstance(data, dict) else None
                self.stats.heard(self.kind, text, str(kind))
                if not self.snapshot_seen.is_set() and kind != "snapshot" and len(self.first_frames) < 8:
                    self.first_frames.append(f"{kind!s}{'' if kind != 'hello' else ' ' + text[:120]}")
                if kind == "delta":
                    await self.on_delta(data, at)
                elif kind == "snapshot":
                    self.on_snapshot(data, at)
                elif kind == "hello":
                    self.hello = data
                elif kind == "summary":  # a dashboard's first frame (drafts.protocol.Summary)
                    self.snapshot_seen.set()
                elif kind in ("picked", "pick_refused", "readied", "refused"):
                    self.answered(data, at)
                    if kind == "picked" and data.get("deltas"):  # the picker's own delta (live.js)
                        pod = data.get("pod") or {}
                        await self.on_delta({"type": "delta", "pod": pod.get("id"), "deltas": data["deltas"]}, at)
                elif kind == "error":
                    self.run.errors["socket_error_message"] += 1
                    self.run.note_error(f"{self.path}: {text[:200]}")
        except Exception as error:  # a broken connection, or a frame this reader cannot read
            self.run.errors[f"socket_reader_{type(error).__name__}"] += 1
            self.run.note_error(f"{self.path} reader: {error!r}")
        if not self.run.stopping:
            self.closed_at = time.monotonic()
            self.stats.closed_by_server[f"{self.kind} {ws.close_code}"] += 1
            self.run.errors["socket_disconnected"] += 1
        self.release_waiters()
        self.changed.set()
        if not self.run.stopping:
            self.on_closed()

    def on_closed(self) -> None:
        """The socket closed under the page (observers just count it)."""

    def on_snapshot(self, data: dict, at: float) -> None:
        pod_id = int(data.get("pod") or 0)
        state = self.state_of(pod_id)
        state.load_snapshot(data)
        self.cards_url = data.get("cards_url")
        if self.closed_at is not None:  # back after a lost socket: the page shows the draft again
            self.stats.reconnect_seconds.append(at - self.closed_at)
            self.closed_at = None
        self.snapshot_seen.set()
        self.state_changed(pod_id, state, None, at)

    async def on_delta(self, data: dict, at: float) -> None:
        pod_id = int(data.get("pod") or 0)
        state = self.state_of(pod_id)
        changed, gap, seats = state.apply_frame(data)
        if changed:
            self.state_changed(pod_id, state, seats, at)
        if gap:
            self.stats.gap_syncs += 1
            await self.sync()

    async def sync(self) -> None:
        if self.ws is not None and not self.ws.closed:
            for state in self.states.values():
                state.awaiting_snapshot = True
            try:
                await self.ws.send_str('{"type":"sync"}')
            except Exception:
                pass

    def state_changed(self, pod_id: int, state: PageState, seats: set[str] | None, at: float) -> None:
        self.last_change = at
        self.stats.max_version[pod_id] = max(self.stats.max_version.get(pod_id, -1), state.version or 0)
        self.changed.set()


class Observer(StateSocket):
    """A page that only watches: a pod page of a seated player (``pod_member``) or an event's
    dashboard of staff (``event_staff``)."""

    def __init__(self, kind: str, run, ctx, stats: PageStats, path: str, session_key: str | None) -> None:
        # The dashboard's script fetches no panel while its socket is up (every column is in
        # its digests), nor does the pod page's for a change: an observer only listens.
        super().__init__(sum(map(ord, path)), run, ctx, stats, path, session_key)
        self.kind = kind


class PagePlayer(StateSocket):
    """One player on the shipped draft page, in the state dialect."""

    kind = "seat"

    def __init__(self, seat: dict, run, ctx, stats: PageStats) -> None:
        super().__init__(seat["id"], run, ctx, stats, seat["socket"], seat["session"])
        self.seat = seat
        self.seat_key = str(seat["id"])
        self.sheet: set[str] | None = None  # catalogue card ids of the card sheet, once loaded
        self.sheet_printings: set[str] = set()
        self.asked_printings: set[str] = set()
        self.sheet_loaded = False
        self.asked_cards: set[str] = set()
        self.last_picked: tuple | None = None  # (pack, cards left) of the last pick sent
        self.ready_round: int | None = None
        self.reopening: asyncio.Future | None = None

    def on_closed(self) -> None:
        if self.reopening is None or self.reopening.done():
            self.reopening = asyncio.ensure_future(self.reopen())

    async def reopen(self) -> None:
        """As static/js/live.js: a lost socket is opened again after its backoff (1-1.5 s, then
        1 s between tries here), whatever the player is doing meanwhile."""
        await asyncio.sleep(1 + self.rng.uniform(0, 0.5))
        while not self.ctx.over() and (self.ws is None or self.ws.closed):
            self.stats.reconnects += 1
            if await self.connect():
                return
            await asyncio.sleep(1)

    def wake(self) -> None:
        self.changed.set()

    @property
    def state(self) -> PageState:
        return self.state_of(self.seat["pod"])

    async def open(self) -> None:
        """The page loads: socket, snapshot (or fail loudly), card sheet once."""
        if not await self.connect():
            return
        await self.wait_for_snapshot(self.ctx.snapshot_timeout)
        await self.load_card_sheet()

    def state_changed(self, pod_id: int, state: PageState, seats: set[str] | None, at: float) -> None:
        super().state_changed(pod_id, state, seats, at)
        if seats is None or self.seat_key in seats:
            queue = state.seat(self.seat["id"]).get("queue") or []
            self.stats.seat_queue_seen(self.seat["pod"], self.seat["id"], queue, at)
        if self.sheet is not None:  # cards the sheet lacks (a page would look them up)
            rows = card_rows(state.state) if seats is None else self.rows_of(state, seats)
            missing = {str(row[1]) for row in rows if len(row) > 1} - self.sheet - self.asked_cards
            printings = {str(row[2]) for row in rows if len(row) > 2 and row[2] is not None}
            printings -= self.sheet_printings | self.asked_printings
            if missing or printings:
                self.asked_cards |= missing
                self.asked_printings |= printings
                asyncio.ensure_future(self.look_up_cards(sorted(missing), sorted(printings)))

    @staticmethod
    def rows_of(state: PageState, seats: set[str]) -> list[list]:
        rows: list[list] = []
        for seat_id in seats:
            part = ((state.state or {}).get("seats") or {}).get(seat_id) or {}
            for pack in part.get("queue") or ():
                rows.extend(pack.get("cards") or ())
        return rows

    async def get(self, name: str, url: str) -> Any:
        """One HTTP request of the page (counted); the JSON body, or None."""
        try:
            async with self.ctx.session.get(url, headers={"Cookie": f"sessionid={self.seat['session']}"}) as response:
                body = await response.read()
                for _ in response.history:  # a stale digest's 302: one more request on the wire
                    self.stats.request(f"{name}_redirect", 0)
                self.stats.request(name, len(body))
                self.run.statuses[f"GET {name} {response.status}"] += 1
                if response.status != 200:
                    self.run.errors[f"http_{name}_{response.status}"] += 1
                    return None
                return loads(body)
        except Exception as error:
            self.stats.request(name, 0)
            self.run.errors[f"http_{name}_failed"] += 1
            self.run.note_error(f"GET {url}: {error!r}")
            return None

    async def load_card_sheet(self) -> None:
        if self.sheet_loaded:
            return  # once per page session: the browser caches the immutable sheet
        self.sheet_loaded = True
        url = self.cards_url
        if not url:
            self.run.errors["snapshot_without_cards_url"] += 1
            return
        sheet = await self.get("card_sheet", url if url.startswith("http") else self.ctx.base + url)
        ids = sheet_ids(sheet) if sheet is not None else None
        if ids is None:
            self.stats.sheet_unreadable += sheet is not None
            return
        self.sheet = ids
        self.sheet_printings = sheet_printings(sheet)
        self.state_changed(self.seat["pod"], self.state, None, time.monotonic())  # cards it lacks

    async def look_up_cards(self, ids: list[str], printings: list[str]) -> None:
        self.stats.missing_card_ids += len(ids)
        self.stats.missing_printing_ids += len(printings)
        query = {"ids": ",".join(ids), **({"printings": ",".join(printings)} if printings else {})}
        await self.get("missing_cards", f"{self.ctx.base}{MISSING_CARDS_PATH}?{urlencode(query)}")

    async def send(self, frame: dict, answers: tuple[str, str]) -> tuple[float, dict | None, int]:
        """A request and its answer: (when, body or None, HTTP-like status: 201 for the first
        kind of answer, the refusal's status for the second, 0 for none)."""
        at, data = await self.ask(frame)
        if data is None:
            return at, None, 0
        if data["type"] == answers[0]:
            return at, data, 201
        return at, data, int(data.get("status") or 400)

    def refused(self, body: dict | None, benign: set[str], prefix: str = "") -> str | None:
        code = ((body or {}).get("errors") or [{}])[0].get("code") if body else None
        if code:
            self.run.refusals[prefix + code] += 1
            if code not in benign:
                self.run.errors[f"refused_{prefix}{code}"] += 1
        return code

    async def play(self, view, driver) -> None:
        """Pick whenever the state shows a pack at the front; press ready between rounds; wait for
        the state to change otherwise (a page has nothing else to go on)."""
        ctx = self.ctx
        while not ctx.over():
            if driver.finished:
                return
            if self.ws is None or self.ws.closed:  # like the page: wait for the socket to reopen
                self.on_closed()
                assert self.reopening is not None
                await self.reopening
                continue
            state = self.state
            pod = (state.state or {}).get("pod") or {}
            if pod.get("state") in FINISHED:
                driver.finish()
                return
            seat = state.seat(self.seat["id"])
            front = front_pack(seat.get("queue") or [])
            self.note_pack(front)
            self.changed.clear()
            if (
                front is not None
                and not state.awaiting_snapshot
                and pod.get("state") == "drafting"
                and (front["pack_id"], front.get("cards_left")) != self.last_picked
            ):
                if await self.pick(front, driver) == "finished":
                    return
                continue
            if (
                pod.get("state") == "reviewing"
                and not (seat.get("info") or {}).get("ready", True)
                and self.ready_round != pod.get("round")
            ):
                await self.ready(int(pod.get("round") or 0))
                continue
            try:
                await asyncio.wait_for(self.changed.wait(), timeout=min(ctx.stall_seconds, max(0.05, ctx.left())))
            except TimeoutError:
                if ctx.left() < 0.05 or driver.finished:
                    return
                if time.monotonic() - self.last_change >= ctx.stall_seconds:
                    self.stats.stall_syncs += 1  # the state stood still: ask for a snapshot
                    self.last_change = time.monotonic()
                    if self.last_picked is not None and front is not None:
                        self.last_picked = None  # the snapshot may show the same pack: try it again
                    await self.sync()

    def note_pack(self, front: dict | None) -> None:
        """When the pack on show appeared, as static/js/draft.js's notePack: a pack is new each
        time it comes to the front (an 8-seat pod's own pack is back at pick 9)."""
        shown = front["pack_id"] if front is not None else None
        if shown != getattr(self, "shown_pack", None):
            self.shown_pack, self.shown_at = shown, time.monotonic()

    async def pick(self, front: dict, driver) -> str:
        """Think, pick a card of the front pack; "finished", "picked" or "refused". The page
        takes no pick of a pack younger than its SETTLE_MS (static/js/draft.js, 500 ms): a click
        before then is ignored, so the earliest pick a browser sends is ``click_delay`` after the
        pack appeared."""
        ctx, run = self.ctx, self.run
        if ctx.think:
            thinking = self.think_seconds(front)
            if thinking >= ctx.left():
                await asyncio.sleep(max(0.0, ctx.left()))
                return "finished"  # the window closes while this player is thinking
            await asyncio.sleep(thinking)
        settling = getattr(self, "shown_at", 0.0) + getattr(ctx, "click_delay", 0.0) - time.monotonic()
        if settling > 0:
            await asyncio.sleep(settling)
        card = self.rng.choice(front["cards"])[0]
        deadline = front.get("deadline")
        in_time = deadline is None or time.time() < dt.datetime.fromisoformat(deadline).timestamp()
        self.last_picked = (front["pack_id"], front.get("cards_left"))
        neighbour = driver.neighbour(self.seat["position"], front["round"])
        # The next seat's page shows the pack only if it keeps two cards or more: a pack's last
        # card is picked for the seat by the server (a ``last_card`` pick) without reaching it.
        passes = front.get("cards_left", 3) > 2
        started = time.monotonic()
        if passes:
            self.stats.expect(neighbour, front["pack_id"], started)
        answered, body, status = await self.send({"type": "pick", "card": card, "pack": front["pack_id"]}, PICK)
        run.ack.append(answered - started)
        run.statuses[status] += 1
        if status == 201:
            assert body is not None
            run.picks += 1
            run.acked.append((self.seat["id"], card))
            run.picks_by_pod[self.seat["pod"]].append((body.get("pick") or {}).get("pod_version"))
            if (body.get("pod") or {}).get("state") in FINISHED:
                driver.finish()
                return "finished"
            return "picked"
        if passes:
            self.stats.forget(neighbour, front["pack_id"])
        if status == 0 or status >= 500:
            run.errors["pick_failed"] += 1
            # No answer (the socket's host died) or the site could not serve it (503): the page
            # says so and shows the pack still there; the player picks again.
            self.last_picked = None
            await asyncio.sleep(0.5)
        code = self.refused(body, BENIGN_REFUSALS)
        if code in BENIGN_REFUSALS and in_time:
            run.sent_in_time_lost += 1
        return "refused"

    async def ready(self, round_number: int) -> None:
        self.ready_round = round_number
        started = time.monotonic()
        answered, body, status = await self.send({"type": "ready"}, READY)
        self.stats.ready_ack.append(answered - started)
        self.run.statuses[f"ready {status}"] += 1
        if status == 201:
            self.stats.readies += 1
            return
        if status == 0 or status >= 500:
            self.run.errors["ready_failed"] += 1
        self.refused(body, BENIGN_READY_REFUSALS, prefix="ready_")


PICK = ("picked", "pick_refused")
READY = ("readied", "refused")
