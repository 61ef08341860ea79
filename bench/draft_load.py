#!/usr/bin/env python
"""Draft load benchmark: the production shape on this machine, driven over HTTP.

Starts uvicorn (several worker processes) and a Celery worker against PostgreSQL and Redis,
seats 1,000 players into 125 Innistrad pods, and drives them with simulated players:

- saturation: every player picks the moment a pack reaches them (picks/s, errors);
- event: players think 2-10 s before each pick (pick latency p50/p95/p99, errors), for a
  fixed window.

Afterwards it checks card conservation in every pod and profiles one pick request in
process (cProfile and query count). Results go to bench/results/draft_load.json and .txt.

    bench/draft_load                       # both runs, 2 web workers
    bench/draft_load --mode saturation --web-workers 4
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import json
import os
import pstats
import random
import signal
import statistics
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
RESULTS = ROOT / "bench" / "results"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--web-workers", type=int, default=2)
    parser.add_argument("--port", type=int, default=0, help="0: any free port")
    parser.add_argument("--mode", choices=["saturation", "event", "both"], default="both")
    parser.add_argument("--saturation-seconds", type=float, default=3600.0,
                        help="Cap on the saturation run (default: until every pod has drafted).")
    parser.add_argument("--event-seconds", type=float, default=120.0,
                        help="How long the event-load window runs.")
    parser.add_argument("--think", type=float, nargs=2, default=(2.0, 10.0), metavar=("MIN", "MAX"))
    parser.add_argument("--database-url", default=os.environ.get(
        "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/draftsite_bench"))
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/5"))
    parser.add_argument("--set", dest="set_code", default="ISD")
    parser.add_argument("--results", default=str(RESULTS / "draft_load.json"))
    parser.add_argument("--seed", type=int, default=1)
    return parser.parse_args()


# --- database and Django ---------------------------------------------------------------

def recreate_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def setup_django(args) -> None:
    os.environ.update(DATABASE_URL=args.database_url, REDIS_URL=args.redis_url,
                      DJANGO_SETTINGS_MODULE="draftsite.settings", DEBUG="0", SECURE_HTTPS="0")
    import django

    django.setup()


def prepare(args) -> None:
    """Fresh database: schema, the set's cards, an organiser and the players with tokens."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.core.management import call_command
    from rest_framework.authtoken.models import Token

    from cards.services import import_card_file

    call_command("migrate", verbosity=0)
    data = ROOT / "cards" / "data"
    for path in [data / "mtgjson" / f"{args.set_code}.json.gz", *sorted((data / "checklists").iterdir())]:
        import_card_file(path)
    User = get_user_model()
    organiser = User.objects.create_user("bench-organiser")
    organiser.groups.add(Group.objects.get(name="organiser"))
    Token.objects.create(user=organiser)
    users = User.objects.bulk_create(User(username=f"bench-{n:04d}") for n in range(args.players))
    Token.objects.bulk_create(Token(user=u, key=Token.generate_key()) for u in users)


def create_event(args, label: str, pick_timer: bool = True) -> dict:
    """An event with every bench player seated in pods of 8 and every pod started."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from drafts import services
    from drafts.models import Registration, Seat

    User = get_user_model()
    organiser = User.objects.get(username="bench-organiser")
    event = services.create_event(name=f"Bench {label}", date=timezone.now().date(), created_by=organiser,
                                  set_codes=[args.set_code], pick_timer=pick_timer)
    players = list(User.objects.filter(username__regex=r"^bench-[0-9]+$").order_by("username")
                   .select_related("auth_token")[: args.players])
    Registration.objects.bulk_create(Registration(event=event, user=u, name=u.username) for u in players)
    pods = services.seat_players(event_id=event.pk, seed=args.seed)
    for pod in pods:
        services.start_pod(pod_id=pod.pk, actor=organiser)
    seats = list(Seat.objects.filter(pod__event=event).select_related("registration__user__auth_token"))
    sessions = _sessions([s.registration.user for s in seats])
    return {
        "event": event.pk,
        "organiser_token": organiser.auth_token.key,
        "pods": {pod.pk: [] for pod in pods},
        "seats": [{"id": s.pk, "pod": s.pod_id, "position": s.position,
                   "token": s.registration.user.auth_token.key,
                   "session": sessions[s.registration.user_id]} for s in seats],
    }


def _sessions(users) -> dict[int, str]:
    """A logged-in session per player: browsers' websockets authenticate with the cookie."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    keys = {}
    for user in users:
        store = SessionStore()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        store.create()
        keys[user.pk] = store.session_key
    return keys


# --- the production shape ----------------------------------------------------------------

def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_servers(args) -> list[subprocess.Popen]:
    """Web workers and a Celery worker; sets ``args.base`` to where the web server listens."""
    port = args.port or free_port()
    args.base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "DATABASE_URL": args.database_url, "REDIS_URL": args.redis_url,
           "DJANGO_SETTINGS_MODULE": "draftsite.settings", "DEBUG": "0", "SECURE_HTTPS": "0",
           "ALLOWED_HOSTS": "127.0.0.1,localhost", "LOG_LEVEL": "WARNING"}
    web = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "draftsite.asgi:application", "--host", "127.0.0.1",
         "--port", str(port), "--workers", str(args.web_workers), "--no-access-log",
         "--log-level", "warning"], cwd=ROOT, env=env, start_new_session=True)
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "draftsite", "worker", "--pool", "solo",
         "--loglevel", "WARNING", "--without-gossip", "--without-mingle", "--without-heartbeat"],
        cwd=ROOT, env=env, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if web.poll() is not None:
            break  # it died (port taken?): never measure someone else's server
        try:
            with urllib.request.urlopen(f"{args.base}/healthz", timeout=2) as response:
                if response.status == 200:
                    return [web, worker]
        except OSError:
            time.sleep(0.3)
    stop_servers([web, worker])
    raise SystemExit("The web server did not start (see its output above).")


def stop_servers(processes: list[subprocess.Popen]) -> None:
    for process in processes:
        try:
            os.killpg(process.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    for process in processes:
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)


# --- simulated players -------------------------------------------------------------------

class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.statuses: Counter = Counter()
        self.codes: Counter = Counter()
        self.picks = 0
        self.started = time.monotonic()

    def summary(self, elapsed: float) -> dict:
        lat = sorted(self.latencies)

        def pct(p: float) -> float | None:
            return round(lat[min(len(lat) - 1, int(p * len(lat)))] * 1000, 1) if lat else None

        errors = sum(n for status, n in self.statuses.items() if status >= 500 or status == 0)
        return {
            "picks": self.picks, "seconds": round(elapsed, 1),
            "picks_per_second": round(self.picks / elapsed, 1) if elapsed else None,
            "latency_ms": {"p50": pct(0.50), "p95": pct(0.95), "p99": pct(0.99),
                           "mean": round(statistics.mean(lat) * 1000, 1) if lat else None},
            "statuses": {str(k): v for k, v in sorted(self.statuses.items())},
            "refusals": dict(self.codes), "errors": errors,
        }


class Notifications:
    """Pick-to-socket latency: a pick at version v must reach the next seat's socket."""

    def __init__(self) -> None:
        self.pending: dict[int, list[tuple[int, float]]] = {}
        self.heard_log: dict[int, list[tuple[int, float]]] = {}
        self.latencies: list[float] = []
        self.messages = 0
        self.duplicates = 0
        self.connected = 0
        self.failed = 0

    def expect(self, seat_id: int, version: int, started: float) -> None:
        # The socket often hears the change before the HTTP answer to the pick is read
        # (the notification is sent on commit, the answer after it): look back first.
        for heard_version, at in self.heard_log.get(seat_id, ()):
            if heard_version >= version:
                self.latencies.append(at - started)
                return
        self.pending.setdefault(seat_id, []).append((version, started))

    def heard(self, seat_id: int, version: int, at: float) -> None:
        log = self.heard_log.setdefault(seat_id, [])
        log.append((version, at))
        del log[:-50]
        waiting = self.pending.get(seat_id, [])
        keep = []
        for expected, started in waiting:
            if expected <= version:
                self.latencies.append(at - started)
            else:
                keep.append((expected, started))
        self.pending[seat_id] = keep

    def summary(self) -> dict:
        lat = sorted(self.latencies)

        def pct(p: float) -> float | None:
            return round(lat[min(len(lat) - 1, int(p * len(lat)))] * 1000, 1) if lat else None

        lost = sum(len(v) for v in self.pending.values())
        return {"sockets_connected": self.connected, "sockets_failed": self.failed,
                "notifications_measured": len(lat), "messages": self.messages,
                "duplicated_versions": self.duplicates, "not_heard": lost,
                "latency_ms": {"p50": pct(0.5), "p95": pct(0.95), "p99": pct(0.99)}}


async def listen(session, base: str, seat: dict, notes: Notifications, stop_at: float) -> None:
    """Hold the seat's websocket open like a browser, noting every version it hears."""
    import aiohttp

    url = base.replace("http", "ws", 1) + f"/ws/seats/{seat['id']}/"
    try:
        async with session.ws_connect(url, headers={"Origin": base, "Cookie": f"sessionid={seat['session']}"},
                                      heartbeat=None) as socket:
            notes.connected += 1
            last = -1
            while time.monotonic() < stop_at:
                try:
                    message = await socket.receive(timeout=max(0.1, stop_at - time.monotonic()))
                except asyncio.TimeoutError:
                    break
                if message.type != aiohttp.WSMsgType.TEXT:
                    break
                data = json.loads(message.data)
                if data.get("type") == "changed":
                    notes.messages += 1
                    version = data.get("version") or 0
                    if version == last:
                        notes.duplicates += 1
                    last = version
                    notes.heard(seat["id"], version, time.monotonic())
    except Exception:
        notes.failed += 1


class PodDriver:
    """Wakes a pod's players when a pack may have reached them; the organiser ends reviews."""

    def __init__(self, pod_id: int, seats: list[dict], organiser_token: str) -> None:
        self.pod_id = pod_id
        self.by_position = {s["position"]: s for s in seats}
        self.wake = {s["id"]: asyncio.Event() for s in seats}
        self.organiser_token = organiser_token
        self.advanced_rounds: set[int] = set()

    def passed(self, position: int, round_number: int) -> int:
        count = len(self.by_position)
        neighbour = self.by_position[(position + (1 if round_number % 2 else -1)) % count]
        self.wake[neighbour["id"]].set()
        return neighbour["id"]

    def wake_all(self) -> None:
        for event in self.wake.values():
            event.set()

    async def advance(self, session, base: str, round_number: int) -> None:
        if round_number in self.advanced_rounds:
            return
        self.advanced_rounds.add(round_number)
        async with session.post(f"{base}/api/pods/{self.pod_id}/advance/",
                                headers={"Authorization": f"Token {self.organiser_token}"}) as response:
            await response.read()
        self.wake_all()


async def player(session, base: str, seat: dict, driver: PodDriver, stats: Stats, think, stop_at,
                 notes: Notifications | None = None) -> None:
    headers = {"Authorization": f"Token {seat['token']}"}
    rng = random.Random(seat["id"])
    view = None
    while time.monotonic() < stop_at:
        if view is None:
            try:
                async with session.get(f"{base}/api/seats/{seat['id']}/queue/", headers=headers) as response:
                    status = response.status
                    view = await response.json() if status == 200 else None
            except Exception:  # a timeout under overload is an error, not the end of the run
                status, view = 0, None
            if view is None:
                stats.statuses[status] += 1
                await asyncio.sleep(1)
                continue
        state, queue = view["pod"]["state"], view["queue"]
        if queue:
            pack = queue[0]
            if think:
                await asyncio.sleep(rng.uniform(*think))
                if time.monotonic() >= stop_at:
                    return  # the window closed while this player was thinking
            card = rng.choice(pack["cards"])["id"]
            started = time.monotonic()
            try:
                async with session.post(f"{base}/api/seats/{seat['id']}/picks/", headers=headers,
                                        json={"card": card, "pack": pack["pack_id"]}) as response:
                    body = await response.json(content_type=None)
                    status = response.status
            except Exception:
                status, body = 0, None
            stats.latencies.append(time.monotonic() - started)
            stats.statuses[status] += 1
            if status == 201:
                stats.picks += 1
                neighbour = driver.passed(seat["position"], pack["round"])
                if notes is not None and pack["cards_left"] > 1:
                    notes.expect(neighbour, body["pick"]["pod_version"], started)
                view = {"pod": body["pod"], "queue": body["queue"]}
                continue
            if body and body.get("errors"):
                stats.codes[body["errors"][0]["code"]] += 1
            view = None
            continue
        if state in ("deck_building", "done"):
            return
        if state == "reviewing":
            await driver.advance(session, base, view["pod"]["round"])
        wake = driver.wake[seat["id"]]
        try:
            await asyncio.wait_for(wake.wait(), timeout=2.0)
        except asyncio.TimeoutError:
            pass
        wake.clear()
        view = None


async def drive(args, setup: dict, think, seconds: float, sockets: bool = False) -> dict:
    import aiohttp

    base = args.base
    stats = Stats()
    by_pod: dict[int, list[dict]] = {}
    for seat in setup["seats"]:
        by_pod.setdefault(seat["pod"], []).append(seat)
    drivers = {pod: PodDriver(pod, seats, setup["organiser_token"]) for pod, seats in by_pod.items()}
    connector = aiohttp.TCPConnector(limit=200)
    timeout = aiohttp.ClientTimeout(total=60)
    notes = Notifications() if sockets else None
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session, \
            aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as socket_session:
        listeners = []
        if notes is not None:
            listen_until = time.monotonic() + seconds + 15
            listeners = [asyncio.ensure_future(listen(socket_session, base, seat, notes, listen_until))
                         for seat in setup["seats"]]
            for _ in range(100):  # let the sockets connect before the first pick
                if notes.connected + notes.failed >= len(listeners):
                    break
                await asyncio.sleep(0.1)
        started = time.monotonic()
        stop_at = started + seconds
        await asyncio.gather(*(player(session, base, seat, drivers[seat["pod"]], stats, think, stop_at, notes)
                               for seat in setup["seats"]))
        elapsed = time.monotonic() - started
        if listeners:
            await asyncio.sleep(2)  # the last notifications in flight
            for task in listeners:
                task.cancel()
            await asyncio.gather(*listeners, return_exceptions=True)
    summary = stats.summary(elapsed)
    if notes is not None:
        summary["sockets"] = notes.summary()
    return summary


# --- checks and profile ----------------------------------------------------------------

def conservation(event_id: int) -> dict:
    from django.db.models import Count

    from drafts.models import Pick, Pod
    from drafts.simulation import check_conservation

    problems = {}
    for pod in Pod.objects.filter(event_id=event_id):
        found = check_conservation(pod)
        if found:
            problems[pod.pk] = found
    picks = Counter(Pick.objects.filter(seat__pod__event_id=event_id).values_list("kind", flat=True))
    duplicates = (Pick.objects.filter(seat__pod__event_id=event_id).values("draft_card_id")
                  .order_by().annotate(n=Count("pk")).filter(n__gt=1).count())
    return {"pods_checked": Pod.objects.filter(event_id=event_id).count(), "problems": problems,
            "picks_by_kind": dict(picks), "duplicated_picks": duplicates}


def profile_pick(args) -> dict:
    """One pod, 40 picks through the full Django stack in process, under cProfile."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from drafts.models import DraftCard, Pack, Seat

    setup = create_event(args, "profile", pick_timer=True)
    seats = [s for s in setup["seats"] if s["pod"] == next(iter(setup["pods"]))]
    client = Client()
    profiler = cProfile.Profile()
    queries: list[int] = []
    picks = 0
    for _ in range(5):
        for seat in seats:
            pack = Pack.objects.filter(holder_id=seat["id"]).order_by("queue_seq").first()
            if pack is None:
                continue
            card = DraftCard.objects.filter(pack=pack).first()
            with CaptureQueriesContext(connection) as captured:
                profiler.enable()
                response = client.post(f"/api/seats/{seat['id']}/picks/", {"card": card.pk, "pack": pack.pk},
                                       content_type="application/json",
                                       HTTP_AUTHORIZATION=f"Token {seat['token']}")
                profiler.disable()
            assert response.status_code == 201, response.content
            queries.append(len(captured))
            picks += 1
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(25)
    seat_ids = [s["id"] for s in seats]
    assert Seat.objects.filter(pk__in=seat_ids).count() == len(seat_ids)
    return {"picks": picks, "queries_per_pick": statistics.median(queries), "profile": out.getvalue()}


def main() -> None:
    args = parse_args()
    RESULTS.mkdir(parents=True, exist_ok=True)
    print(f"Preparing {args.database_url} ...", flush=True)
    recreate_database(args.database_url)
    import redis

    redis.Redis.from_url(args.redis_url).flushdb()  # no tasks left from an earlier run
    setup_django(args)
    prepare(args)
    results = {"players": args.players, "pods": -(-args.players // 8), "web_workers": args.web_workers,
               "machine": {"cores": os.cpu_count()}, "runs": {}}
    modes = ["saturation", "event"] if args.mode == "both" else [args.mode]
    for mode in modes:
        setup = create_event(args, mode)
        print(f"{mode}: {len(setup['seats'])} players in {len(setup['pods'])} pods; starting servers ...", flush=True)
        servers = start_servers(args)
        try:
            if mode == "saturation":
                summary = asyncio.run(drive(args, setup, None, args.saturation_seconds))
            else:
                summary = asyncio.run(drive(args, setup, tuple(args.think), args.event_seconds, sockets=True))
        finally:
            stop_servers(servers)
        summary["conservation"] = conservation(setup["event"])
        results["runs"][mode] = summary
        print(json.dumps({mode: {k: v for k, v in summary.items() if k != "conservation"}}, indent=2), flush=True)
        print(f"conservation: {len(summary['conservation']['problems'])} pod(s) with problems, "
              f"{summary['conservation']['duplicated_picks']} duplicated picks", flush=True)
    profile = profile_pick(args)
    results["profile"] = {"picks": profile["picks"], "queries_per_pick": profile["queries_per_pick"]}
    Path(args.results).write_text(json.dumps(results, indent=2) + "\n")
    text = Path(args.results).with_suffix(".txt")
    lines = [f"draft_load: {args.players} players, {args.web_workers} web worker(s), {os.cpu_count()} cores"]
    for mode, run in results["runs"].items():
        lines.append(f"{mode}: {run['picks']} picks in {run['seconds']} s = {run['picks_per_second']} picks/s; "
                     f"latency p50 {run['latency_ms']['p50']} ms, p95 {run['latency_ms']['p95']} ms, "
                     f"p99 {run['latency_ms']['p99']} ms; errors {run['errors']}; "
                     f"conservation problems {len(run['conservation']['problems'])}")
        if "sockets" in run:
            sock = run["sockets"]
            lines.append(f"  sockets: {sock['sockets_connected']} connected ({sock['sockets_failed']} failed); "
                         f"pick -> next seat's socket p50 {sock['latency_ms']['p50']} ms, "
                         f"p95 {sock['latency_ms']['p95']} ms, p99 {sock['latency_ms']['p99']} ms; "
                         f"{sock['notifications_measured']} measured, {sock['not_heard']} not heard, "
                         f"{sock['duplicated_versions']} duplicated")
    lines.append(f"profile: {profile['queries_per_pick']} queries per pick request")
    lines.append(profile["profile"])
    text.write_text("\n".join(lines) + "\n")
    print("\n".join(lines[:-1]))  # everything but the profile table (it is in the .txt)


if __name__ == "__main__":
    main()
