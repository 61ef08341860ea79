"""``deploy/rehearsal run``: players drive a draft through the balancer (bench/draft_load with
``--client page --base-url``), and the scenarios put faults into the middle of it:

- ``draft``: no fault; pages spread over both web hosts; CPU per pick on each host.
- ``failover``: SIGKILL every process of one web host at ``--fault-at`` seconds into the window;
  measures how soon the balancer stops routing to it, the pages' reconnect times, then starts
  the host again and checks that it takes new connections.
- ``redis``: Redis on the data host restarted mid-draft.
- ``postgres``: PostgreSQL unreachable for ``--outage`` seconds (10) mid-draft.

Every run checks what the draft must keep: every acknowledged pick in the database, none twice,
conservation, no clock run out that the player beat (timeout picks in the window). Results go
to ``--results-dir`` (bench/results) as rehearsal_<scenario>_<players>p.json.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import rehearsal as r

SCENARIOS = ("draft", "failover", "redis", "postgres")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("scenarios", nargs="*", default=["all"], choices=[*SCENARIOS, "all"], metavar="SCENARIO")
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--seconds", type=float, default=90.0, help="the measured window of each scenario")
    parser.add_argument("--think", type=float, nargs=2, default=(2.0, 10.0), metavar=("MIN", "MAX"))
    parser.add_argument("--fault-at", type=float, default=25.0, help="seconds into the window")
    parser.add_argument(
        "--kill",
        choices=[*r.WEB_HOSTS, "busiest"],
        default="busiest",
        help="the web host lost (failover); busiest: the one with the most open connections at the fault (a "
        "pod's pages are all on one host: deploy/haproxy.cfg)",
    )
    parser.add_argument("--down-for", type=float, default=20.0, help="failover: seconds before the host is back")
    parser.add_argument("--outage", type=float, default=10.0, help="postgres: seconds unreachable")
    parser.add_argument("--observers", type=int, default=2)
    parser.add_argument("--results-dir", default=str(r.ROOT / "bench" / "results"))


class Db:
    """Small reads of the rehearsal's database (its own connection, outside the site)."""

    def __init__(self) -> None:
        import psycopg

        self.conn = psycopg.connect(r.database_url(), autocommit=True, connect_timeout=3)

    def one(self, sql: str, params: list | None = None) -> Any:
        row = self.conn.execute(sql, params or []).fetchone()
        return row[0] if row else None

    def close(self) -> None:
        self.conn.close()


def window_started(after_event: int) -> bool:
    """The bench's organiser started every pod of its event (the window opens with the first)."""
    try:
        db = Db()
    except Exception:
        return False
    try:
        # every pod started: the organiser (the bench, one pod after the other) is done, so a
        # fault meets the players only
        counts = db.conn.execute(
            "SELECT count(*), count(started_at) FROM drafts_pod WHERE event_id > %s", [after_event]
        ).fetchone()
        return bool(counts and counts[0] and counts[0] == counts[1])
    finally:
        db.close()


def cpu_ticks(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total


def host_cpu() -> dict[str, int]:
    return {host: cpu_ticks(r.namespace_pids(host)) for host in r.HOSTS}


def served_by(count: int) -> Counter:
    """``count`` requests through the balancer (bounded: 2 s each at most): which host answered."""
    hosts: Counter = Counter()
    for _ in range(count):
        code, host = r.healthz(r.lb_url())
        hosts[f"{host or 'none'} {code}"] += 1
    return hosts


def watch_balancer(host: str, since: float, seconds: float) -> float | None:
    """Seconds from ``since`` until the balancer calls ``host`` DOWN (polled every 0.1 s)."""
    deadline = since + seconds
    while time.monotonic() < deadline:
        if r.server_states().get(host, "").startswith("DOWN"):
            return round(time.monotonic() - since, 2)
        time.sleep(0.1)
    return None


def failover(args, state: dict, at: float, notes: dict) -> None:
    notes["open_sessions_before"] = open_before = r.open_connections()
    host = max(open_before, key=open_before.__getitem__) if args.kill == "busiest" else args.kill
    notes["killed_host"] = host
    db = Db()
    notes["killed_at_db_time"] = db.one("SELECT now()::text")
    db.close()
    killed_at = time.monotonic()
    notes["killed_pids"] = r.kill_host(state, host)
    notes["killed_at_window_s"] = round(killed_at - at, 1)
    notes["balancer_down_after_s"] = watch_balancer(host, killed_at, 15)
    notes["open_sessions_after_down"] = r.open_connections()
    time.sleep(max(0.0, killed_at + args.down_for - time.monotonic()))
    r.start_web(state, host)
    started = time.monotonic()
    r.wait_until(lambda: r.web_up(host), 60, f"the web server on {host} (restarted)")
    notes["restart_serving_after_s"] = round(time.monotonic() - started, 1)
    r.wait_until(lambda: r.server_states().get(host) == "UP", 30, f"the balancer's check of {host}")
    notes["balancer_up_after_s"] = round(time.monotonic() - started, 1)
    total_before = int(r.haproxy_servers()[host]["stot"])
    notes["requests_after_return"] = dict(served_by(20))
    notes["sessions_taken_after_return"] = int(r.haproxy_servers()[host]["stot"]) - total_before


def redis_restart(args, state: dict, at: float, notes: dict) -> None:
    notes["restarted_at_window_s"] = round(time.monotonic() - at, 1)
    begun = time.monotonic()
    r.stop_process(state, "redis")
    r.start_redis(state)
    notes["redis_down_s"] = round(time.monotonic() - begun, 2)


def postgres_outage(args, state: dict, at: float, notes: dict) -> None:
    notes["blocked_at_window_s"] = round(time.monotonic() - at, 1)
    r.block_postgres(True)
    try:
        begun = time.monotonic()
        seen: Counter = Counter()
        while time.monotonic() - begun < args.outage:
            code, _ = r.healthz(r.lb_url())
            seen[str(code)] += 1
            time.sleep(0.5)
        notes["lb_healthz_during_outage"] = dict(seen)
    finally:
        r.block_postgres(False)
    back = time.monotonic()
    r.wait_until(lambda: r.healthz(r.lb_url())[0] == 200, 60, "the site after the outage")
    notes["site_healthy_after_s"] = round(time.monotonic() - back, 1)


FAULTS = {"failover": failover, "redis": redis_restart, "postgres": postgres_outage}


def seats_picking_after(moment: str, after_event: int) -> dict:
    """How many of the run's seats made a pick of their own after ``moment`` (the host's loss):
    a page that never came back would make none."""
    db = Db()
    try:
        seats = db.one(
            "SELECT count(*) FROM drafts_seat s JOIN drafts_pod p ON p.id = s.pod_id WHERE p.event_id > %s",
            [after_event],
        )
        picked = db.one(
            "SELECT count(DISTINCT k.seat_id) FROM drafts_pick k JOIN drafts_seat s ON s.id = k.seat_id "
            "JOIN drafts_pod p ON p.id = s.pod_id WHERE p.event_id > %s AND k.kind = 'manual' AND k.made_at > %s",
            [after_event, moment],
        )
    finally:
        db.close()
    return {"seats": seats, "seats_that_picked_after_the_loss": picked}


def server_pids(state: dict) -> str:
    web = [str(e["pid"]) for n, e in state["processes"].items() if n.endswith("-web")]
    worker = next((str(e["pid"]) for n, e in state["processes"].items() if n.endswith("-worker")), "0")
    return f"web={','.join(web)};worker={worker}"


def bench_command(args, seconds: float, results: Path, state: dict) -> list[str]:
    return [
        r.python(),
        str(r.ROOT / "bench" / "draft_load.py"),
        "--base-url",
        r.lb_url(),
        "--server-pids",
        server_pids(state),
        "--database-url",
        r.database_url(),
        "--redis-url",
        r.redis_url(),
        "--mode",
        "event",
        "--client",
        "page",
        "--players",
        str(args.players),
        "--event-seconds",
        str(seconds),
        "--think",
        *(str(t) for t in args.think),
        "--observers",
        str(args.observers),
        "--idle-seconds",
        "0",
        "--no-profile",
        "--results-dir",
        str(results.parent),
        "--results",
        str(results),
    ]


def one_scenario(args, scenario: str) -> dict:
    state = r.load_state()
    db = Db()
    last_event = db.one("SELECT coalesce(max(id), 0) FROM drafts_event")
    db.close()
    tmp = Path(tempfile.mkdtemp(prefix="rehearsal_"))
    results = tmp / "bench.json"
    print(f"[{scenario}] {args.players} players through {r.lb_url()} for {args.seconds:.0f} s", flush=True)
    bench = subprocess.Popen(
        bench_command(args, args.seconds, results, state),
        cwd=r.ROOT,
        env={**os.environ, "SECRET_KEY": r.site_env()["SECRET_KEY"]},
    )
    # (the site's key: the bench signs its players' sessions, which the web hosts then read)
    notes: dict[str, Any] = {}
    try:
        r.wait_until(
            lambda: window_started(last_event) or bench.poll() is not None, 600, "the bench's window", every=0.5
        )
        at = time.monotonic()
        cpu_before = host_cpu()
        spread = r.open_connections()
        notes["open_sessions_at_start"] = spread
        fault = FAULTS.get(scenario)
        if fault and bench.poll() is None:
            time.sleep(max(0.0, at + args.fault_at - time.monotonic()))
            fault(args, state, at, notes)
            print(f"[{scenario}] fault: {json.dumps(notes)}", flush=True)
        bench.wait(timeout=args.seconds + 600)
        if "killed_at_db_time" in notes:
            notes.update(seats_picking_after(notes["killed_at_db_time"], last_event))
        notes["host_cpu_seconds"] = {
            h: round((t - cpu_before.get(h, 0)) / os.sysconf("SC_CLK_TCK"), 2) for h, t in host_cpu().items()
        }
    finally:
        if bench.poll() is None:
            bench.send_signal(signal.SIGTERM)
            bench.wait(timeout=30)
    if bench.returncode != 0 or not results.exists():
        raise r.RehearsalError(f"bench/draft_load failed (exit {bench.returncode}) in scenario {scenario}")
    run = json.loads(results.read_text())[0]
    shutil.rmtree(tmp, ignore_errors=True)
    return summarise(args, scenario, run, notes)


def summarise(args, scenario: str, run: dict, notes: dict) -> dict:
    picks = run["picks"]
    page = run.get("page", {})
    cpu = notes.get("host_cpu_seconds", {})
    web_cpu = sum(cpu.get(h, 0.0) for h in r.WEB_HOSTS)
    summary = {
        "scenario": scenario,
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "players": run["players"],
        "web_hosts": len(r.WEB_HOSTS),
        "web_workers_per_host": r.WEB_WORKERS,
        "window_s": run["window"]["seconds"],
        "picks": picks,
        "picks_per_second": run["picks_per_second"],
        "ack_ms": run["ack_ms"],
        "told_ms": run["told_ms"],
        # pick sent -> the next seat's page holds the pack (in its queue): on either host
        "reached_next_page_ms": page.get("told_queue_ms"),
        "load_average_at_end": run["machine"]["load_average_at_end"],
        "reconnects": page.get("reconnects"),
        "reconnect_ms": page.get("reconnect_ms"),
        "closed_by_server": page.get("closed_by_server"),
        "cpu_ms_per_pick": {
            "web_hosts": round(web_cpu * 1000 / picks, 2) if picks else None,
            "data_host": round(cpu.get("data", 0.0) * 1000 / picks, 2) if picks else None,
            "balancer": round(cpu.get("lb", 0.0) * 1000 / picks, 3) if picks else None,
            "bench_meter": run["usage"]["cpu_ms_per_pick"],
        },
        "errors": run["errors"],
        "refusals": run["refusals"],
        "statuses": run["statuses"],
        "notifications": run["notifications"],
        "conservation": run["conservation"],
        "fault": notes,
    }
    summary["verdict"] = verdict(summary)
    return summary


def verdict(summary: dict) -> dict:
    """What must hold whatever the fault: nothing lost, nothing twice, no clock beaten by it."""
    c = summary["conservation"]
    checks = {
        "acknowledged_picks_all_stored": c["acknowledged_picks_missing"] == 0,
        "no_pick_twice": c["duplicated_picks"] == 0 and c["seats_with_a_pick_number_twice"] == 0,
        "conservation": not c["problems"],
        "no_clock_ran_out": c["timeout_picks_in_window"] == 0,
        "picks_made": summary["picks"] > 0,
    }
    if summary["scenario"] == "postgres":
        # No pick can be made while the database is away: a clock that runs out meanwhile is
        # the outage's (reported in the conservation figures), not a failover's.
        del checks["no_clock_ran_out"]
    if summary["scenario"] == "failover":
        fault = summary["fault"]
        checks["balancer_dropped_dead_host"] = fault.get("balancer_down_after_s") is not None
        checks["pages_reconnected"] = bool(summary["reconnects"])
        checks["every_seat_picked_after_the_loss"] = fault.get("seats_that_picked_after_the_loss") == fault.get("seats")
        checks["returned_host_takes_connections"] = fault.get("sessions_taken_after_return", 0) > 0
    checks["all"] = all(checks.values())
    return checks


def _terminate(signum, frame) -> None:
    raise SystemExit(f"deploy/rehearsal run: signal {signum}")  # so the bench child is stopped too


def run(args) -> int:
    signal.signal(signal.SIGTERM, _terminate)
    if not r.load_state()["namespaces"]:
        raise r.RehearsalError("not running: deploy/rehearsal start first")
    chosen = list(SCENARIOS) if "all" in args.scenarios else args.scenarios
    out = Path(args.results_dir)
    out.mkdir(parents=True, exist_ok=True)
    failed = []
    for scenario in chosen:
        summary = one_scenario(args, scenario)
        path = out / f"rehearsal_{scenario}_{summary['players']}p.json"
        path.write_text(json.dumps(summary, indent=2, default=str) + "\n")
        print(
            f"[{scenario}] {summary['picks']} picks, {summary['picks_per_second']}/s, ack p99 "
            f"{summary['ack_ms'].get('p99')} ms, told p99 {summary['told_ms'].get('p99')} ms, "
            f"reconnect {summary['reconnect_ms']}, verdict {summary['verdict']} -> {path}",
            flush=True,
        )
        if not summary["verdict"]["all"]:
            failed.append(scenario)
    if failed:
        print("FAILED: " + ", ".join(failed), file=sys.stderr)
        return 1
    return 0
