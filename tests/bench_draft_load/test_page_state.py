"""The page client keeps its state by the state dialect's rule (drafts/protocol.py): these pin
what it applies, skips and counts, with hand-made frames and no server."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from drafts import protocol

PATH = Path(__file__).resolve().parents[2] / "bench" / "page_client.py"


@pytest.fixture(scope="module")
def pc():
    spec = importlib.util.spec_from_file_location("bench_page_client", PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def pack(pack_id, cards=(101, 102), **extra):
    return {
        "pack_id": pack_id,
        "round": 1,
        "pick_number": 1,
        "cards_left": len(cards),
        "deadline": None,
        "remaining_ms": None,
        "cards": [[card, 9000 + card, None, "common", False, False] for card in cards],
        **extra,
    }


def pod(version, state="drafting"):
    return {
        "id": 7,
        "event_id": 1,
        "number": 1,
        "state": state,
        "paused_from": None,
        "round": 1,
        "direction": "left",
        "review_deadline": None,
        "deck_building_deadline": None,
        "paused_remaining_ms": None,
        "pick_timer": True,
        "version": version,
    }


def board_seat(position, picks=0):
    return {
        "id": 50 + position,
        "position": position,
        "name": f"p{position}",
        "is_automatic": False,
        "ready": False,
        "picks": picks,
        "packs": [],
        "pile_dfcs": None,
    }


def info(ready=False):
    return {"id": 51, "position": 1, "name": "p1", "is_automatic": False, "pile_cover": "", "ready": ready}


def snapshot(version, queue=None):
    frame = {
        "type": "snapshot",
        "pod": 7,
        "version": version,
        "server_time": "2026-12-03T12:00:00+00:00",
        "cards_url": "/static/cards/ISD.abc.json",
        "state": {
            "pod": pod(version),
            "board": {"piles_open": True, "seats": [board_seat(0), board_seat(1)]},
            "seats": {"51": {"info": info(), "queue": queue if queue is not None else [pack(1)], "pile": []}},
        },
    }
    protocol.check_server_frame(frame)  # the hand-made frames are frames the server may send
    return frame


def delta(start, version, **parts):
    return {"from": start, "version": version, **parts}


def frame(*deltas):
    value = {"type": "delta", "pod": 7, "deltas": list(deltas)}
    protocol.check_server_frame(value)
    return value


def test_deltas_in_order_are_applied_and_each_part_replaces_its_own(pc):
    page = pc.PageState()
    page.load_snapshot(snapshot(3))
    changed, gap, seats = page.apply_frame(
        frame(
            delta(3, 4, seats={"51": {"queue": [pack(2, (201, 202, 203))]}}),
            delta(4, 6, pod=pod(6), board={"seats": {"1": board_seat(1, picks=1)}}),
        )
    )
    assert (changed, gap, seats) == (True, False, {"51"})
    assert page.version == 6
    assert page.applied == 2 and page.versions_applied == 3
    seat = page.seat(51)
    assert seat["queue"][0]["pack_id"] == 2 and seat["info"]["ready"] is False and seat["pile"] == []
    assert [s["picks"] for s in page.state["board"]["seats"]] == [0, 1]
    assert page.state["board"]["piles_open"] is True
    assert page.state["pod"]["version"] == 6


def test_a_delta_the_page_has_already_is_skipped(pc):
    page = pc.PageState()
    page.load_snapshot(snapshot(5))
    changed, gap, _ = page.apply_frame(frame(delta(3, 4), delta(4, 5, pod=pod(5, "reviewing"))))
    assert (changed, gap) == (False, False)
    assert page.skipped == 2 and page.applied == 0 and page.version == 5
    assert page.pod_state() == "drafting"  # the skipped delta was not applied


def test_a_gap_asks_for_a_snapshot_and_drops_deltas_until_it_comes(pc):
    page = pc.PageState()
    page.load_snapshot(snapshot(5))
    changed, gap, _ = page.apply_frame(frame(delta(5, 6), delta(7, 8), delta(8, 9)))
    assert (changed, gap) == (True, True)
    assert page.version == 6 and page.gaps == 1 and page.versions_missed == 1
    assert page.awaiting_snapshot
    assert page.apply(delta(6, 7)) == "waiting"  # a late copy of the missing one: still waits
    assert page.dropped_while_syncing == 1
    assert page.apply(delta(5, 6)) == "skipped"
    page.load_snapshot(snapshot(9))
    assert not page.awaiting_snapshot and page.version == 9
    assert page.apply(delta(9, 10)) == "applied"
    assert page.applied_twice == 0 and page.went_back == 0


def test_a_snapshot_older_than_the_state_makes_the_next_delta_applied_twice(pc):
    page = pc.PageState()
    page.load_snapshot(snapshot(5))
    assert page.apply(delta(5, 6)) == "applied"
    page.load_snapshot(snapshot(5))  # the server went back
    assert page.went_back == 1
    assert page.apply(delta(5, 6)) == "applied"
    assert page.applied_twice == 1
    counters = page.counters()
    assert counters["applied_twice"] == 1 and counters["deltas_applied"] == 2 and counters["snapshots"] == 2


def test_no_delta_before_the_first_snapshot(pc):
    page = pc.PageState()
    assert page.apply(delta(0, 1)) == "waiting"
    assert page.applied == 0 and page.gaps == 0


def test_the_front_pack_is_the_first_not_waiting_one(pc):
    assert pc.front_pack([pack(1), pack(2, waiting=True)])["pack_id"] == 1
    assert pc.front_pack([pack(2, waiting=True)]) is None
    assert pc.front_pack([]) is None


def test_pick_to_the_next_page_holding_the_pack_is_measured_once_it_is_at_the_front(pc):
    stats = pc.PageStats()
    stats.expect(52, 9, started=10.0)
    stats.seat_queue_seen(7, 52, [pack(3), pack(9, waiting=True)], at=10.25)  # queued behind another
    assert stats.told_queue == [0.25] and stats.told_front == []
    stats.seat_queue_seen(7, 52, [pack(9)], at=11.0)
    assert stats.told_front == [1.0]
    stats.seat_queue_seen(7, 52, [pack(9)], at=12.0)  # measured once
    assert stats.told_front == [1.0] and not stats.pending_front
    assert (7, 9) in stats.pushed_packs


def test_the_card_sheet_ids_are_read_from_its_usual_shapes(pc):
    assert pc.sheet_ids({"9101": {"name": "x"}}) == {"9101"}
    assert pc.sheet_ids({"cards": {"9101": {}}}) == {"9101"}
    assert pc.sheet_ids({"cards": [{"id": 9101}, {"id": 9102}]}) == {"9101", "9102"}
    assert pc.sheet_ids([[9101, "x"]]) == {"9101"}
    assert pc.sheet_ids("nonsense") is None
    rows = pc.card_rows(snapshot(1)["state"])
    assert {row[1] for row in rows} == {9101, 9102}


def test_frames_and_bytes_are_counted_by_phase_and_kind_of_page(pc):
    stats = pc.PageStats()
    stats.pages["seat"] = 2
    stats.heard("seat", '{"type":"snapshot"}', "snapshot")
    stats.phase = "window"
    stats.heard("seat", '{"type":"delta"}', "delta")
    stats.heard("seat", '{"type":"delta","n":"é"}', "delta")  # bytes, not characters
    stats.request("card_sheet", 1000)
    summary = stats.summary(picks=2, seconds=1.0, percentiles=lambda values: {"count": len(values)})
    seat = summary["by_kind_of_page"]["seat"]
    assert seat["window"]["frames"] == {"delta": 2}
    assert seat["frames_per_pick"] == 1.0
    assert seat["bytes_per_pick"] == (len('{"type":"delta"}') + len('{"type":"delta","n":"é"}'.encode())) / 2 == 20.5
    assert seat["setup"]["frames"] == {"snapshot": 1}
    assert summary["http_requests_per_pick"] == 0.5 and summary["http_requests_in_window"] == {"card_sheet": 1}


class FakeContext:
    """What a page client needs of draft_load's Context, for a server made up here."""

    def __init__(self, base, session):
        self.base = base
        self.session = self.socket_session = session
        self.answer_timeout = 2.0
        self.snapshot_timeout = 0.3
        self.think = None
        self.heartbeat = 0


class FakeRun:
    def __init__(self):
        from collections import Counter

        self.errors, self.statuses, self.refusals = Counter(), Counter(), Counter()
        self.stopping = False

    def note_error(self, text):
        pass


async def serve(frames):
    """A websocket server that sends ``frames`` to whoever connects, and keeps the socket open."""
    from aiohttp import web

    async def handler(request):
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        for frame in frames:
            await ws.send_str(frame)
        async for _ in ws:
            pass
        return ws

    app = web.Application()
    app.router.add_get("/ws/seats/1/", handler)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    return runner, f"http://127.0.0.1:{port}"


@pytest.mark.asyncio
async def test_a_server_without_the_state_dialect_stops_the_run_with_a_message(pc):
    import aiohttp

    runner, base = await serve(['{"type":"hello","role":"player"}', '{"type":"changed","pod":7,"version":3}'])
    try:
        async with aiohttp.ClientSession() as session:
            run = FakeRun()
            run.stopping = True
            page = pc.PagePlayer(
                {"id": 1, "pod": 7, "socket": "/ws/seats/1/?pod=7", "position": 0, "session": "x"},
                run,
                FakeContext(base, session),
                pc.PageStats(),
            )
            with pytest.raises(pc.NoStateDialect, match="heard: hello.*changed.*does not speak the state dialect"):
                await page.open()
            await page.close()
    finally:
        await runner.cleanup()


def test_the_page_table_row_has_a_cell_per_column(pc):
    import importlib.util as util

    spec = util.spec_from_file_location("bench_draft_load_for_page", PATH.parent / "draft_load.py")
    bench = util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    result = {
        "client": "page",
        "mode": "saturation",
        "think": None,
        "window": {"seconds": 8.2},
        "pods_finished": 2,
        "pods": 2,
        "web_workers": 2,
        "players": 16,
        "picks_per_second": 75.6,
        "ack_ms": {"p50": 82.9, "p99": 357.5},
        "told_ms": {"p50": 116.3, "p99": 408.3},
        "page": {
            "told_queue_ms": {"p50": 95.0, "p99": 332.0},
            "http_requests_per_pick": 0.026,
            "by_kind_of_page": {"seat": {"frames_per_pick": 7.5, "bytes_per_pick": 8198.5}},
            "closed_by_server": {"seat 1013": 2},
        },
        "notifications": {"versions_missed": 0, "applied_twice": 0},
        "errors": {"total": 0},
        "conservation": {"timeout_picks_in_window": 0},
        "usage": {"cpu_ms_per_pick": {"web": 4.7, "postgres": 3.2, "server_total": 8.3}},
        "memory": {"total_rss_mb": 537.5},
    }
    row = bench.table_row(result)
    assert row.startswith(
        "| saturation, 8 s, all pods drafted; 2 web processes, no balancer | page | 2 | 16 | 75.6 | 82.9 ms / 357.5 ms |"
    )
    assert "| 95.0 ms / 332.0 ms; 116.3 ms / 408.3 ms | 0.026 | 7.5 / 8.01 | 0 / 0 | 0 | 2 |" in row
    assert row.count("|") == bench.PAGE_TABLE_HEADER.splitlines()[0].count("|")
    assert bench.run_name("saturation", 16, 2, "socket", "page") == "draft_load_saturation_16p_2web_page"
    assert bench.run_name("saturation", 16, 2, "http") == "draft_load_saturation_16p_2web_http"
