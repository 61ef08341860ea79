#!/usr/bin/env python3
"""Benchmark: pairing a 1,000-player round with Web Push on, against the same pairing with push
off, alternated in the same minutes (the machine is shared: a figure taken an hour apart would
measure the neighbours).

Every player has a browser subscribed (its endpoint a push service stand-in on 127.0.0.1) and
"pairings posted" chosen. Measured per run: the pairing's answer (the service call, commit and
its on-commit callbacks: what a request waits for), then with push on the fan-out task that
books one delivery task per player (1,000 Redis enqueues), and, with ``--deliver``, the time
until a Celery worker (``--concurrency`` processes) has sent all 1,000 encrypted pushes to the
stand-in.

Each pairing is also measured in CPU, which a shared machine's neighbours do not inflate as they
do the wall time: this process's (Python: the service, the Swiss core, the on-commit callbacks)
and its PostgreSQL backend's (read from /proc, so the database must run on this machine), and
in SQL statements. ``--round N`` times round N (the rounds before it are paired and given
results first, untimed), so the history and standings are part of the work.

Needs DATABASE_URL (a PostgreSQL it may fill) and REDIS_URL (the broker; a database of its own
is best: the worker takes every task in it). Writes bench/results/push_pairings[_LABEL].json and
.txt.

Usage: ``bench/push_pairings [--players 1000] [--runs 5] [--round 1] [--deliver] [--concurrency 4]
[--label NAME]``
"""

from __future__ import annotations

import argparse
import http.server
import json
import os
import platform
import statistics
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


class StandIn:
    """A push service that answers 201 and counts."""

    def __init__(self):
        self.count = 0
        self.lock = threading.Lock()
        stand_in = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with stand_in.lock:
                    stand_in.count += 1
                self.send_response(201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


def setup(players: int, runs: int, base: str, round_number: int = 1):
    """``runs`` fresh events of ``players`` registered players, each opted in with a browser,
    with ``round_number - 1`` rounds already played."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "draftsite.settings")
    os.environ["PUSH_ALLOW_HTTP_ENDPOINTS"] = "1"
    import django

    django.setup()
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.utils import timezone

    from events.access import SYSTEM
    from events.models import Event, EventStaff, Registration, StaffRole
    from matches import services as match_services
    from push.config import b64url_encode
    from push.models import EventPush, PushSubscription

    call_command("migrate", verbosity=0)
    User = get_user_model()
    stamp = str(int(time.time()))
    organiser = User.objects.create(username=f"push-bench-org-{stamp}")
    users = User.objects.bulk_create(User(username=f"push-bench-{stamp}-{i}") for i in range(players))
    key = ec.generate_private_key(ec.SECP256R1()).public_key()
    p256dh = b64url_encode(key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))
    now = timezone.now()
    PushSubscription.objects.bulk_create(
        PushSubscription(
            user=u, endpoint=f"{base}/{u.pk}", p256dh=p256dh, auth="AAAAAAAAAAAAAAAAAAAAAA", created_at=now
        )
        for u in users
    )
    events = []
    for run in range(runs * 2 + 1):  # one more: the warm-up
        event = Event.objects.create(name=f"Push bench {stamp} #{run}", date=now.date(), created_by=organiser)
        EventStaff.objects.create(event=event, user=organiser, role=StaffRole.ORGANISER)
        Registration.objects.bulk_create(Registration(event=event, user=u, name=u.username) for u in users)
        EventPush.objects.bulk_create(EventPush(user=u, event=event, updated_at=now) for u in users)
        match_services.configure_matches(event_id=event.pk, actor=SYSTEM, mode="event", seed=run)
        for _ in range(round_number - 1):
            play_round(event.pk, organiser, run)
        events.append(event.pk)
    return organiser, events


def play_round(event_id: int, organiser, seed: int) -> None:
    """Pair a round and give every table a result (a shortcut around the report services: this
    is the setting up, not what is measured), then close it."""
    import random

    from django.db import transaction
    from django.utils import timezone

    from matches import services as match_services
    from matches.models import Match, MatchStatus

    rng = random.Random(seed)
    with transaction.atomic():
        round_obj = match_services.pair_next_round(event_id=event_id, actor=organiser)
    match_services.start_round(round_id=round_obj.pk, actor=organiser)
    now = timezone.now()
    tables = list(Match.objects.filter(round=round_obj, player_b__isnull=False))
    for match in tables:
        roll = rng.random()
        loser = rng.choice([0, 1])
        if roll < 0.05:
            match.a_wins, match.b_wins, match.draws = 1, 1, 0
        elif roll < 0.5:
            match.a_wins, match.b_wins, match.draws = 2, loser, 0
        else:
            match.a_wins, match.b_wins, match.draws = loser, 2, 0
        match.status, match.result_at = MatchStatus.CONFIRMED, now
    Match.objects.bulk_update(tables, ["a_wins", "b_wins", "draws", "status", "result_at"])
    match_services.finish_round(round_id=round_obj.pk, actor=organiser)


def backend_cpu_seconds() -> float:
    """CPU time (user + system) of this connection's PostgreSQL backend so far."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pair(event_id: int, organiser) -> dict:
    """One pairing as a request makes it: wall time, this process's CPU, the database's, and
    the statements sent (commit and on-commit callbacks included)."""
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from matches import services as match_services

    connection.queries_log.clear()  # a full log (9,000) would shift the captured slice
    database_before = backend_cpu_seconds()
    cpu_started, started = time.process_time(), time.perf_counter()
    with CaptureQueriesContext(connection) as queries:
        with transaction.atomic():  # as a request does (ATOMIC_REQUESTS off: the service's own)
            match_services.pair_next_round(event_id=event_id, actor=organiser)
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    return {
        "wall": wall,
        "cpu": cpu,
        "database_cpu": backend_cpu_seconds() - database_before,
        "queries": len(queries.captured_queries),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--deliver", action="store_true", help="start a Celery worker and time the deliveries")
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--round", type=int, default=1, help="the round timed (the ones before are played first)")
    parser.add_argument("--label", default="", help="written to push_pairings_LABEL.json")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL") or not os.environ.get("REDIS_URL"):
        sys.exit("bench/push_pairings needs DATABASE_URL and REDIS_URL")
    from push.config import make_key_pair

    public, private = make_key_pair()
    os.environ.update(VAPID_PUBLIC_KEY=public, VAPID_PRIVATE_KEY=private, VAPID_SUBJECT="mailto:bench@example.org")
    stand_in = StandIn()
    organiser, events = setup(args.players, args.runs, stand_in.base, args.round)

    from django.conf import settings

    # What push adds to the pairing's answer: the on-commit booking of the fan-out, timed alone
    # (the whole pairing's time swings by seconds on a shared machine).
    from push import dispatch
    from push import services as push_services
    from push.dispatch import FAN_OUT_TASK

    booking_seconds: list[float] = []
    enqueue = dispatch.enqueue

    def timed_enqueue(kind: str, object_id: int) -> None:
        started = time.perf_counter()
        enqueue(kind, object_id)
        if settings.VAPID_PUBLIC_KEY:  # push on: the booking really happened
            booking_seconds.append(time.perf_counter() - started)

    dispatch.enqueue = timed_enqueue

    worker = None
    if args.deliver:
        worker = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "draftsite",
                "worker",
                "-Q",
                "celery",
                "-c",
                str(args.concurrency),
                "--loglevel",
                "WARNING",
                "--without-heartbeat",
                "--without-mingle",
                "--without-gossip",
            ],
            cwd=ROOT,
            env={**os.environ, "PUSH_ALLOW_HTTP_ENDPOINTS": "1"},
        )
        time.sleep(8)  # the worker's processes start

    # A warm-up pairing, untimed: a web process has long loaded its URL conf, templates and
    # translations before it pairs (the first pairing of this process would time those too).
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = "", ""
    pair(events.pop(), organiser)

    rows: dict[str, list[dict]] = {"on": [], "off": []}
    on_events: list[int] = []
    fan_out_seconds, deliver_seconds = [], []
    try:
        for run in range(args.runs):
            for mode in ("on", "off") if run % 2 == 0 else ("off", "on"):  # alternate which goes first
                event_id = events.pop()
                keys = (public, private) if mode == "on" else ("", "")
                settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = keys
                before = stand_in.count
                rows[mode].append(pair(event_id, organiser))
                if mode == "on":
                    on_events.append(event_id)
                if mode == "on" and args.deliver:
                    started = time.perf_counter()
                    while stand_in.count - before < args.players and time.perf_counter() - started < 600:
                        time.sleep(0.05)
                    deliver_seconds.append(time.perf_counter() - started)
        if not args.deliver:
            # What each fan-out task does, timed after the pairings (not between them, where
            # its 1,000 enqueues would load the machine for the next pairing): the audience, and
            # one delivery task booked per player.
            from celery import current_app

            from matches.models import Round

            settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = public, private
            deliver = current_app.tasks["push.deliver"]
            for event_id in on_events:
                round_id = Round.objects.filter(event_id=event_id, number=args.round).values_list("pk", flat=True).get()
                started = time.perf_counter()
                users = push_services.fan_out("pairings", round_id)
                for user_id in users:
                    deliver.apply_async(("pairings", round_id, user_id))
                fan_out_seconds.append(time.perf_counter() - started)
                assert len(users) == args.players, (len(users), FAN_OUT_TASK)
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(timeout=30)
        if not args.deliver:  # the enqueued deliveries had no worker: leave the broker clean
            import redis

            redis.Redis.from_url(os.environ["REDIS_URL"]).delete("celery")

    def ms(values):
        return {
            "mean": round(statistics.mean(values) * 1000, 1),
            "median": round(statistics.median(values) * 1000, 1),
            "max": round(max(values) * 1000, 1),
        }

    def column(mode: str, key: str) -> list:
        return [row[key] for row in rows[mode]]

    result = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": f"{platform.machine()} {os.cpu_count()} cores, shared",
        "load_average": [round(v, 1) for v in os.getloadavg()],
        "players": args.players,
        "round": args.round,
        "runs": args.runs,
        "pairing_ms_push_on": ms(column("on", "wall")),
        "pairing_ms_push_off": ms(column("off", "wall")),
        "pairing_on": [round(v * 1000, 1) for v in column("on", "wall")],
        "pairing_off": [round(v * 1000, 1) for v in column("off", "wall")],
        "python_cpu_ms_push_on": ms(column("on", "cpu")),
        "python_cpu_ms_push_off": ms(column("off", "cpu")),
        "database_cpu_ms_push_on": ms(column("on", "database_cpu")),
        "database_cpu_ms_push_off": ms(column("off", "database_cpu")),
        "queries_push_on": sorted(set(column("on", "queries"))),
        "queries_push_off": sorted(set(column("off", "queries"))),
    }
    result["push_booking_in_the_answer_ms"] = ms(booking_seconds) if booking_seconds else None
    if fan_out_seconds:
        result["fan_out_ms"] = ms(fan_out_seconds)
    if deliver_seconds:
        result["all_pushes_delivered_s"] = [round(v, 2) for v in deliver_seconds]
        result["worker_concurrency"] = args.concurrency
    out = ROOT / "bench" / "results"
    name = "push_pairings_deliver" if args.deliver else "push_pairings"
    if args.label:
        name = f"{name}_{args.label}"
    (out / f"{name}.json").write_text(json.dumps(result, indent=2) + "\n")
    lines = [f"{k}: {v}" for k, v in result.items()]
    (out / f"{name}.txt").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
