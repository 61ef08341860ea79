"""The draft load benchmark counts what a page hears: its bookkeeping, without servers.

A benchmark that miscounts hid the old engine's lost notifications (a socket that closed was
counted as nothing); these pin what ``not_heard``, ``heard_twice``, ``skipped`` and the
next-seat latency mean.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

PATH = Path(__file__).resolve().parents[2] / "bench" / "draft_load.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_draft_load", PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def socket(bench, run, seat_id, pod_id, connect_version, heard=()):
    connection = bench.Connection({"id": seat_id, "pod": pod_id})
    connection.connect_version = connect_version
    connection.changed[connect_version] += 1
    run.connections.append(connection)
    run.current[seat_id] = connection
    for version, at in heard:
        connection.changed[version] += 1
        run.on_heard(connection, version, at)
    return connection


def test_every_socket_of_the_pod_must_hear_every_acknowledged_version(bench):
    run = bench.Run()
    socket(bench, run, 1, 10, 0, [(1, 1.0), (2, 2.0)])
    socket(bench, run, 2, 10, 0, [(1, 1.0)])  # never heard version 2
    run.picks_by_pod[10] = [1, 2]
    found = run.notifications()
    assert found["not_heard"] == 1 and found["not_heard_deliveries"] == 1
    assert found["heard_twice"] == 0 and found["skipped"] == 0


def test_a_version_passed_over_for_a_later_one_is_skipped_not_lost(bench):
    run = bench.Run()
    socket(bench, run, 1, 10, 0, [(2, 1.0)])
    run.picks_by_pod[10] = [1, 2]
    found = run.notifications()
    assert found["not_heard"] == 0 and found["skipped"] == 1


def test_the_same_version_twice_on_one_socket_counts_even_when_not_back_to_back(bench):
    run = bench.Run()
    socket(bench, run, 1, 10, 0, [(1, 1.0), (2, 2.0), (1, 3.0)])
    run.picks_by_pod[10] = [1, 2]
    assert run.notifications()["heard_twice"] == 1


def test_a_socket_opened_after_a_version_is_not_expected_to_hear_it(bench):
    run = bench.Run()
    socket(bench, run, 1, 10, 5)
    run.picks_by_pod[10] = [3, 5]
    assert run.notifications()["not_heard"] == 0


def test_a_socket_that_closed_early_is_an_error_not_silence(bench):
    run = bench.Run()
    connection = socket(bench, run, 1, 10, 0)
    connection.closed_early = True
    run.picks_by_pod[10] = [1]
    found = run.notifications()
    assert found["sockets_closed_early"] == 1 and found["not_heard"] == 0


def test_next_seat_told_counts_a_change_heard_before_the_pickers_answer(bench):
    run = bench.Run()
    socket(bench, run, 2, 10, 0, [(3, 5.25)])
    run.expect_told(2, 3, started=5.0)  # the neighbour already heard version 3
    run.expect_told(2, 4, started=5.5)  # not yet: waits for version 4 or later
    assert run.told == [0.25]
    run.on_heard(run.current[2], 6, 6.0)
    assert run.told == [0.25, 0.5]
    assert run.notifications()["told_never"] == 0


def test_table_row_names_the_run(bench):
    result = {
        "mode": "event",
        "think": [2.0, 10.0],
        "window": {"seconds": 120.4},
        "pods_finished": 1,
        "pods": 125,
        "notifications": {"not_heard": 0, "heard_twice": 0},
        "transport": "socket",
        "web_workers": 2,
        "usage": {"cpu_ms_per_pick": {"web": 0.6, "postgres": 0.4, "server_total": 1.1}},
        "players": 1000,
        "picks_per_second": 250.0,
        "ack_ms": {"p50": 3.0, "p99": 1500.0},
        "told_ms": {"p50": None, "p99": None},
        "errors": {"total": 0},
        "conservation": {"timeout_picks_in_window": 0},
        "memory": {"total_rss_mb": 512.3},
    }
    row = bench.table_row(result)
    assert row.startswith(
        "| event (2-10 s thinking), 120 s; 2 web processes, no balancer | socket | 2 | 1,000 | 250.0 "
        "| 3.0 ms / 1.50 s | – / – |"
    )
    assert row.count("|") == bench.TABLE_HEADER.splitlines()[0].count("|")


def test_the_compact_changed_frame_is_read_without_parsing_and_anything_else_is_parsed(bench):
    assert bench.changed_version('{"type":"changed","pod":12,"version":345}') == 345
    assert bench.changed_version('{"type": "changed", "pod": 12, "version": 345}') is None
    assert bench.changed_version('{"type":"changed","pod":12,"version":3,"extra":1}') is None
    assert bench.changed_version('{"type":"queue","seat":1,"version":3}') is None
