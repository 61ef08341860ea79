#!/usr/bin/env python
"""What one pick costs PostgreSQL: the ``drafts_pick`` function alone, no web process.

Seats ``--players`` bench players in pods of 8 (the draft load benchmark's set-up), starts
every pod and drafts them on one autocommit connection with prepared statements, as the seat
socket's pool does: pods in turn, each seat picking the first card of the pack in front of it.
The organiser's round advances run through the service between rounds and are not counted.

Measured: the database backend's CPU per pick (``/proc/<pid>/schedstat``, nanoseconds, read
around each call so nothing else is counted), the call's wall time (p50/p99), and the
function's answers by status. The draft load benchmark measures the whole server under load;
this one isolates the database's share so a change to the function can be judged in seconds.
For scale, a prepared call of a PL/pgSQL function that updates one row costs about 0.12 ms
of CPU with its synchronous commit, and one that writes three rows about 0.14 ms (5 December
2026; the commit's WAL flush and the answer's send are most of it).

    bench/pick_function --players 1000
    bench/pick_function --players 200 --events 5   # the 5th event on a database holding 4 finished ones

``--events N`` drafts N events one after the other on the same database (never vacuumed by
hand: whatever the server's autovacuum does) and shows each event's cost per pick, so a
database that slows down as events accumulate shows (deploy/postgresql.md); it also records
whether autovacuum was on. Its figures go to ``pick_function_events.{json,txt}``.

``--live`` calls instead what a live page's seat socket sends (``drafts_pick_live`` with the
version of the web process's copy of the pod's document, as ``drafts.aio`` does: the same pick,
its answer without the queues' cards, and what the pick wrote as a patch of that copy, or the
whole document when settling ran or the copy is not the version the pick found). The bench keeps
one copy per pod and patches it with ``drafts.state.Document.patched``, the web process's own
code, and follows the packs through it; it reports the PostgreSQL CPU of such a pick, the Python
CPU of patching (the web process's share of following it), and how many answers were patches
and how many whole documents. Its figures go to ``pick_function_live.{json,txt}``.

    bench/pick_function --players 1000 --live

``--rows`` counts instead the rows each pick writes: every pick runs in its own transaction,
which reads ``pg_stat_xact_user_tables`` (this backend's inserts, updates and deletes per
table) before and after the call, so the figure is exact whatever else the server is doing. CPU is not measured in this mode (the extra statements would count). Its figures go
to ``pick_function_rows.{json,txt}``.

    bench/pick_function --players 64 --rows
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import statistics
import time
from collections import Counter
from pathlib import Path

import draft_load  # the draft load benchmark's set-up (this script runs from bench/)
import history


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3, help="rounds to draft (1-3)")
    parser.add_argument("--pick-timer", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/draftsite_bench_function")
    parser.add_argument("--set", dest="set_code", default="ISD")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--results-dir", default=str(draft_load.RESULTS))
    parser.add_argument("--apply", metavar="FILE", help="SQL to run after migrating (to try a changed function)")
    parser.add_argument("--events", type=int, default=1, help="events drafted in turn on the same database")
    parser.add_argument("--rows", action="store_true", help="count the rows each pick writes, per table")
    parser.add_argument(
        "--live",
        action="store_true",
        help="the page socket's pick: drafts_pick_live, its patch applied to a copy of the pod's document",
    )
    parser.add_argument(
        "--history",
        type=int,
        default=0,
        metavar="N",
        help="first write N finished 1,000-player events in bulk (bench/history.py) and VACUUM ANALYZE",
    )
    parser.add_argument(
        "--keep-database",
        action="store_true",
        help="keep the database a run left (its history too) instead of recreating it",
    )
    parser.add_argument(
        "--analyze-between", action="store_true", help="with --events: ANALYZE the draft tables after each event"
    )
    args = parser.parse_args(argv)
    if args.live and args.events > 1:
        parser.error("--live measures one event's picks: not with --events")
    if not draft_load.bench_database(args.database_url):
        parser.error("the bench drops and recreates its database: use a name starting with draftsite_bench")
    args.redis_url = ""  # no live updates: nothing listens
    return args


def cpu_ns(pid: int) -> int:
    with open(f"/proc/{pid}/schedstat") as stat:
        return int(stat.read().split()[0])


def fetch_one(conn, sql: str, params: list):
    """The one value of a one-row answer (prepared: as the socket's pool sends it)."""
    row = conn.execute(sql, params, prepare=True).fetchone()
    assert row is not None
    return row[0]


def queue_of(conn, seat_id: int) -> list:
    return fetch_one(conn, "SELECT drafts_seat_queue(%s::bigint)", [seat_id])


# Row writes and reads per table this backend has counted and not yet flushed to the shared
# statistics (since PostgreSQL 15 they may span several transactions: only a delta inside one is
# a pick's). Reads: rows returned by sequential scans, rows fetched through indexes, and blocks
# (buffers) the table and its indexes asked for: none of them depends on the machine's load.
COUNTS = ("inserted", "updated", "hot", "deleted", "seq_scans", "seq_rows", "index_scans", "index_rows", "blocks")
WRITES_SQL = (
    "SELECT t.relname, t.n_tup_ins, t.n_tup_upd, t.n_tup_hot_upd, t.n_tup_del, t.seq_scan, t.seq_tup_read,"
    " coalesce(t.idx_scan, 0), coalesce(t.idx_tup_fetch, 0),"
    " pg_stat_get_xact_blocks_fetched(t.relid) + coalesce((SELECT sum(pg_stat_get_xact_blocks_fetched(i.indexrelid))"
    " FROM pg_index i WHERE i.indrelid = t.relid), 0)::bigint"
    " FROM pg_stat_xact_user_tables t WHERE t.relname LIKE 'drafts\\_%%' OR t.relname LIKE 'cards\\_%%'"
)


def written(conn) -> dict[str, tuple[int, ...]]:
    return {table: tuple(counts) for table, *counts in conn.execute(WRITES_SQL).fetchall()}


def started(draft_load_args, label: str, pick_timer: bool) -> tuple[dict, dt.datetime]:
    """An event whose pods all start at one moment, which the picks' clock then starts from: a
    set-up that takes long on a busy machine runs out no pick clock."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from drafts import services

    setup = draft_load.create_event(draft_load_args, label, pick_timer=pick_timer, start=False)
    organiser = get_user_model().objects.get(pk=setup["organiser"])
    start = timezone.now()
    for pod_id in setup["pods"]:
        services.start_pod(pod_id=pod_id, actor=organiser, now=start)
    return setup, start


def draft(args, setup: dict, now: dt.datetime) -> dict:
    """Draft every pod to its end; the function's calls measured one by one (``--rows``: the
    rows each call writes instead)."""
    import psycopg
    from django.contrib.auth import get_user_model

    from drafts import state
    from drafts.services.fastpath import PICK_LIVE_KNOWN_SQL, PICK_SQL

    organiser = get_user_model().objects.get(pk=setup["organiser"])
    seats_by_pod: dict[int, list[dict]] = {}
    for seat in setup["seats"]:
        seats_by_pod.setdefault(seat["pod"], []).append(seat)
    advances: dict[str, list] = {"python_ms": [], "postgres_ms": [], "queries": []}
    cpu: list[int] = []
    wall: list[float] = []
    statuses: Counter[str] = Counter()
    writes: list[list[tuple]] = []  # --rows: per pick, (table, *COUNTS)
    # --live: each pod's copy of its document, as a web process keeps it, and what following it cost.
    copies: dict[int, state.Document] = {}
    follow: dict[str, list | Counter] = {"python_us": [], "answers": Counter()}

    conn = psycopg.connect(args.database_url, autocommit=True)
    backend = fetch_one(conn, "SELECT pg_backend_pid()", [])
    # The picks' clock starts when the pods did and moves 1 ms a pick: a slow machine must not let
    # the small packs' clocks run out (a timeout pick would answer "refused" to the pick it replaced).
    for round_number in range(1, args.rounds + 1):
        if round_number > 1:
            for pod_id in setup["pods"]:
                advance(pod_id, organiser, advances, now)
        queues = {s["id"]: queue_of(conn, s["id"]) for s in setup["seats"]}
        while any(queues.values()):
            for pod_id in setup["pods"]:
                for seat in seats_by_pod[pod_id]:
                    queue = queues[seat["id"]]
                    if not queue:
                        continue
                    pack = queue[0]
                    now += dt.timedelta(milliseconds=1)
                    params = [
                        seat["id"],
                        pack["cards"][0][0],
                        pack["pack_id"],
                        None,
                        seat["user"],
                        seat["user"],
                        now,
                        now,
                        now - dt.timedelta(seconds=2),
                    ]
                    if args.live:
                        if pod_id not in copies:  # a process first following the pod reads it whole
                            copies[pod_id] = whole_document(conn, pod_id)
                        params += [pod_id, False, copies[pod_id].version]
                    sql = PICK_LIVE_KNOWN_SQL if args.live else PICK_SQL
                    document = None  # --live: the patch or whole document, which the answer's queues give otherwise
                    if args.rows:
                        with conn.transaction():  # no statistics flush inside: the delta is this pick's
                            before_writes = written(conn)
                            row = conn.execute(sql, params, prepare=True).fetchone()
                            after_writes = written(conn)
                        assert row is not None
                        answer = row[0]
                        if args.live:
                            document = row[1]
                        writes.append(
                            [
                                (table, *(a - b for a, b in zip(counts, before_writes.get(table, (0,) * len(COUNTS)))))
                                for table, counts in after_writes.items()
                            ]
                        )
                    else:
                        before_cpu, before = cpu_ns(backend), time.perf_counter()
                        row = conn.execute(sql, params, prepare=True).fetchone()
                        wall.append(time.perf_counter() - before)
                        cpu.append(cpu_ns(backend) - before_cpu)
                        assert row is not None
                        answer = row[0]
                        if args.live:
                            document = row[1]
                    statuses[answer["status"]] += 1
                    if answer["status"] != "ok":
                        raise SystemExit(f"the function answered {answer}")
                    if args.live:
                        copies[pod_id] = followed(conn, copies[pod_id], document, follow)
                        queues.update(queues_in(copies[pod_id].data, seats_by_pod[pod_id]))
                        continue
                    queues[seat["id"]] = answer["queue"]
                    for seat_id, queue in (answer.get("arrivals") or {}).items():
                        queues[int(seat_id)] = queue
    conn.close()
    return {
        "picks": len(cpu) or len(writes),
        "writes": writes,
        "cpu_us": cpu,
        "wall_s": wall,
        "statuses": dict(statuses),
        "advances": advances,
        "follow": follow,
    }


def followed(conn, copy, text: str | None, follow: dict):
    """The pod's copy after a pick's answer, as a web process makes it (``drafts.state``): the
    patch applied, or the whole document answered, or (a patch that does not fit) the document
    read whole. The Python CPU it took and the kind of answer are counted in ``follow``."""
    import orjson

    from drafts import state

    before = time.process_time_ns()
    if text is None:
        kind, after = "none", copy
    else:
        data = orjson.loads(text)
        if state.PATCH_FROM in data:
            after = copy.patched(data, text)
            kind = "patch" if after is not None else "patch_missed"
        else:
            kind, after = "whole", state.Document(data, text)
    follow["python_us"].append((time.process_time_ns() - before) / 1e3)
    follow["answers"][kind] += 1
    if after is None:  # as drafts.live.Hub.refresh: read the pod whole
        after = whole_document(conn, copy.pod_id)
    return after


def whole_document(conn, pod_id: int):
    """The pod's whole document (``drafts.state.DOCUMENT_SQL``), as a web process reads it."""
    from drafts import state

    document = state.from_text(fetch_one(conn, state.DOCUMENT_SQL, [pod_id]))
    assert document is not None, f"no pod {pod_id}"
    return document


def queues_in(document: dict, seats: list[dict]) -> dict[int, list[dict]]:
    """Each seat's queue as the pod's document lists it (drafts/state.py: packs in queue order,
    ``[id, holder, round, picks made, initial size, deadline, remaining ms, cards]``)."""
    queues: dict[int, list[dict]] = {seat["id"]: [] for seat in seats}
    for pack_id, holder, *_, cards in document["packs"]:
        queues[holder].append({"pack_id": pack_id, "cards": cards})
    return queues


def advance(pod_id: int, organiser, advances: dict[str, list], now) -> None:
    """The organiser ends a review (``drafts_begin_round`` deals the next packs): its cost."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from drafts import services

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (backend,) = cursor.fetchone()
    with CaptureQueriesContext(connection) as captured:
        before_db, before = cpu_ns(backend), time.process_time()
        services.advance_round(pod_id=pod_id, actor=organiser, now=now)
        advances["python_ms"].append((time.process_time() - before) * 1e3)
        advances["postgres_ms"].append((cpu_ns(backend) - before_db) / 1e6)
    advances["queries"].append(len(captured))


def main(argv=None) -> None:
    args = parse_args(argv)
    print(f"Preparing {args.database_url} ...", flush=True)
    if not (args.keep_database and draft_load.database_exists(args.database_url)):
        draft_load.recreate_database(args.database_url)
    draft_load_args = argparse.Namespace(**vars(args))
    draft_load.setup_django(draft_load_args)
    draft_load.prepare(draft_load_args)
    if args.apply:
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute(Path(args.apply).read_text())
    if args.history:
        print(f"Writing {args.history} finished events ...", flush=True)
        print(history.seed(args.database_url, args.history, set_code=args.set_code), flush=True)
    if args.events > 1:
        return events(args, draft_load_args)
    setup, start = started(draft_load_args, "pick function", args.pick_timer)
    print(f"{len(setup['seats'])} players in {len(setup['pods'])} pods; drafting ...", flush=True)
    measured = draft(args, setup, start)
    if args.rows:
        return rows_report(args, setup, measured)
    cpu = sorted(measured["cpu_us"])
    wall = sorted(measured["wall_s"])

    def pct(values, p):
        return values[min(len(values) - 1, int(p / 100 * len(values)))]

    result = {
        "players": len(setup["seats"]),
        "pods": len(setup["pods"]),
        "rounds": args.rounds,
        "pick_timer": args.pick_timer,
        "picks": measured["picks"],
        "statuses": measured["statuses"],
        "postgres_cpu_ms_per_pick": {
            "mean": round(statistics.fmean(cpu) / 1e6, 3),
            "p50": round(pct(cpu, 50) / 1e6, 3),
            "p99": round(pct(cpu, 99) / 1e6, 3),
        },
        "call_ms": {"p50": round(pct(wall, 50) * 1e3, 3), "p99": round(pct(wall, 99) * 1e3, 3)},
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
    }
    if args.live:
        follow = measured["follow"]
        result["follow"] = {
            "answers": dict(follow["answers"]),
            "python_cpu_us_per_pick": {
                "mean": round(statistics.fmean(follow["python_us"]), 1),
                "p50": round(statistics.median(follow["python_us"]), 1),
            },
        }
    advances = measured["advances"]
    if advances["queries"]:
        result["round_advance"] = {
            "count": len(advances["queries"]),
            "python_cpu_ms_median": round(statistics.median(advances["python_ms"]), 2),
            "postgres_cpu_ms_median": round(statistics.median(advances["postgres_ms"]), 2),
            "queries_median": statistics.median(advances["queries"]),
        }
    lines = [
        f"pick function{' (a live page: drafts_pick_live, its patch applied to a copy)' if args.live else ''}: "
        f"{result['picks']} picks, {result['players']} players, {args.rounds} round(s)",
        "PostgreSQL CPU per pick: mean {mean} ms, p50 {p50} ms, p99 {p99} ms".format(
            **result["postgres_cpu_ms_per_pick"]
        ),
        "call (round trip, commit included): p50 {p50} ms, p99 {p99} ms".format(**result["call_ms"]),
        f"answers: {result['statuses']}",
    ]
    if "follow" in result:
        lines.append(
            "following the pod (a web process's copy): {answers}; Python CPU per pick mean {mean} us, "
            "p50 {p50} us".format(answers=result["follow"]["answers"], **result["follow"]["python_cpu_us_per_pick"])
        )
    if "round_advance" in result:
        lines.append(
            "round advance (the service, between rounds): {count} advances, median {python_cpu_ms_median} ms "
            "of Python CPU, {postgres_cpu_ms_median} ms of PostgreSQL CPU, {queries_median} queries".format(
                **result["round_advance"]
            )
        )
    print("\n".join(lines), flush=True)
    out = Path(args.results_dir)
    out.mkdir(parents=True, exist_ok=True)
    name = "pick_function_live" if args.live else "pick_function"
    (out / f"{name}.json").write_text(json.dumps(result, indent=2) + "\n")
    (out / f"{name}.txt").write_text("\n".join(lines) + "\n")


def rows_report(args, setup: dict, measured: dict) -> None:
    """``--rows``: rows written and read and blocks asked for per pick, by table, and how the
    writes spread. Counts, not times: the same on a busy machine as on an idle one."""
    writes = measured["writes"]
    picks = len(writes)
    by_table: dict[str, Counter[str]] = {}
    per_pick: list[int] = []
    for pick in writes:
        total = 0
        for table, *counts in pick:
            by_table.setdefault(table, Counter()).update(dict(zip(COUNTS, counts)))
            total += counts[0] + counts[1] + counts[3]
        per_pick.append(total)
    spread = Counter(per_pick)
    totals: Counter[str] = Counter()
    for counts in by_table.values():
        totals.update(counts)
    result = {
        "players": len(setup["seats"]),
        "pods": len(setup["pods"]),
        "rounds": args.rounds,
        "pick_timer": args.pick_timer,
        "history_events": args.history,
        "picks": picks,
        "statuses": measured["statuses"],
        "rows_per_pick": round(sum(per_pick) / picks, 2),
        "reads_per_pick": {
            kind: round(totals[kind] / picks, 2)
            for kind in ("seq_scans", "seq_rows", "index_scans", "index_rows", "blocks")
        },
        "rows_per_pick_by_table": {
            table: {kind: round(counts[kind] / picks, 2) for kind in COUNTS if counts[kind]}
            for table, counts in sorted(by_table.items())
            if any(counts.values())
        },
        "picks_by_rows_written": dict(sorted(spread.items())),
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
    }
    lines = [
        f"rows written and read per pick: {result['picks']} picks, {result['players']} players, {args.rounds} round(s),"
        f" {args.history} finished events before",
        f"mean {result['rows_per_pick']} rows (inserted + updated + deleted) per pick",
        "reads per pick: {seq_scans} sequential scans returning {seq_rows} rows, {index_scans} index scans fetching"
        " {index_rows} rows, {blocks} blocks (buffers) asked for".format(**result["reads_per_pick"]),
        *(
            "  {table}: {inserted} inserted, {updated} updated ({hot} HOT), {deleted} deleted; read: {seq_rows} rows"
            " by {seq_scans} sequential scans, {index_rows} rows by {index_scans} index scans, {blocks} blocks".format(
                table=table, **dict.fromkeys(COUNTS, 0) | counts
            )
            for table, counts in result["rows_per_pick_by_table"].items()
        ),
        "picks by rows written: "
        + ", ".join(f"{rows} rows x {count}" for rows, count in result["picks_by_rows_written"].items()),
        f"answers: {result['statuses']}",
    ]
    if "follow" in result:
        lines.append(
            "following the pod (a web process's copy): {answers}; Python CPU per pick mean {mean} us, "
            "p50 {p50} us".format(answers=result["follow"]["answers"], **result["follow"]["python_cpu_us_per_pick"])
        )
    print("\n".join(lines), flush=True)
    out = Path(args.results_dir)
    out.mkdir(parents=True, exist_ok=True)
    name = "pick_function_rows" + ("_live" if args.live else "") + (f"_history{args.history}" if args.history else "")
    (out / f"{name}.json").write_text(json.dumps(result, indent=2) + "\n")
    (out / f"{name}.txt").write_text("\n".join(lines) + "\n")


def events(args, draft_load_args) -> None:
    """``--events``: each event's cost per pick on a database that keeps the earlier ones."""
    from draftsite import upkeep

    rows = []
    for number in range(1, args.events + 1):
        setup, start = started(draft_load_args, f"pick function {number}", args.pick_timer)
        measured = draft(args, setup, start)
        cpu = measured["cpu_us"]
        rows.append(
            {
                "event": number,
                "finished_before": number - 1,
                "picks": measured["picks"],
                "postgres_cpu_ms_per_pick_mean": round(statistics.fmean(cpu) / 1e6, 3),
                "postgres_cpu_ms_per_pick_p50": round(statistics.median(cpu) / 1e6, 3),
                "call_ms_p50": round(statistics.median(measured["wall_s"]) * 1e3, 3),
                "stale_statistics": upkeep.stale_tables(),
            }
        )
        print(rows[-1], flush=True)
        if args.analyze_between:
            from django.db import connection

            with connection.cursor() as cursor:
                cursor.execute("ANALYZE " + ", ".join(upkeep.DRAFT_TABLES))
    result = {
        "players": args.players,
        "rounds": args.rounds,
        "autovacuum": upkeep.autovacuum_on(),
        "analyze_between": args.analyze_between,
        "events": rows,
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
    }
    first, last = rows[0], rows[-1]
    lines = [
        f"pick function over {args.events} events of {args.players} players, {args.rounds} round(s), "
        f"autovacuum {'on' if result['autovacuum'] else 'off'}"
        + (", ANALYZE after each event" if args.analyze_between else ""),
        *(
            "event {event} ({finished_before} finished before it): {picks} picks, PostgreSQL CPU per pick mean "
            "{postgres_cpu_ms_per_pick_mean} ms, p50 {postgres_cpu_ms_per_pick_p50} ms; call p50 {call_ms_p50} ms; "
            "stale statistics: {stale}".format(**row, stale=", ".join(row["stale_statistics"]) or "none")
            for row in rows
        ),
        "last / first event, CPU per pick: {:.2f}".format(
            last["postgres_cpu_ms_per_pick_mean"] / first["postgres_cpu_ms_per_pick_mean"]
        ),
    ]
    print("\n".join(lines), flush=True)
    out = Path(args.results_dir)
    out.mkdir(parents=True, exist_ok=True)
    name = "pick_function_events" + ("_analyzed" if args.analyze_between else "")
    (out / f"{name}.json").write_text(json.dumps(result, indent=2) + "\n")
    (out / f"{name}.txt").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
