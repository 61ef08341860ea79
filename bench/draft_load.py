#!/usr/bin/env python
"""Draft load benchmark: the production shape on this machine, players on their seat sockets.

Two kinds of client (``--client``):
- ``page`` (the default): the shipped draft page in the state dialect of drafts/protocol.py
  (bench/page_client.py): a snapshot then deltas on ``ws/seats/<id>/?protocol=state``, the card
  sheet loaded once, picks and "ready" over the socket, no other HTTP request. It reports what a
  page costs: HTTP requests, frames and bytes per pick by kind of page (seat pages, and a few
  observers: pod pages of members, the event's dashboard), versions missed or applied twice,
  sockets the server closed, and pick -> the next seat's page holding the pack. A server that
  sends no snapshot stops the run with a message instead of a measurement.
- ``api``: the clients described below (the versions dialect); their numbers as before.

Starts uvicorn (``--web-workers`` processes, uvloop and httptools when installed), a Celery
worker and Celery beat against PostgreSQL and Redis, seats the players into pods of 8 and
drives them with simulated players, each holding one websocket on its seat like the draft
page: it picks over that socket (``--transport socket``, the protocol of drafts/consumers.py)
or over HTTP (``--transport http``, as API clients do) and hears its pushes on it. A player
learns its next pack from the pick's answer or from the ``queue`` push, never by polling; an
organiser client ends each review (POST /api/pods/<id>/advance/). Pages open (socket, then one
read of the queue) before the pods start, so no pick clock runs during setup; the organiser then
starts every pod and each page is pushed its first pack. Pages send a heartbeat every 20 s like
static/js/live.js. A waiting player whose socket stays silent for ``--stall-seconds`` reads its
queue over HTTP; such reads are counted (they should be 0).

Its defaults are what a browser and a deployment cause (issue 48); every figure it prints says
which: the page's click delay (static/js/draft.js ignores a click on a pack younger than 500 ms),
a site that keeps 20 finished 1,000-player events (``--history``, bench/history.py), and
PostgreSQL as deploy/ requires it (autovacuum on: the bench starts a cluster of its own,
bench/pgcluster.py, unless ``--database-url`` names a server; that server's autovacuum setting
is reported) behind the shape deploy/ runs: two single-worker uvicorn processes behind HAProxy
(``--balancer``, the default where HAProxy is installed and ``--web-workers`` is 2;
deploy/haproxy.cfg: a pod's sockets, which name it in ``?pod=``, on one process); the clients
connect to HAProxy, whose CPU is reported apart ("balancer"). ``--no-balancer``: one
``uvicorn --workers N``. The bench's cluster keeps each database it built (schema, cards,
players, history), and a run starts on a copy of it (seconds, where 20 events take minutes to
write).

Modes:
- saturation: every player picks the moment a pack reaches them, until every pod has drafted
  (or ``--saturation-seconds``);
- event: players think 2-10 s (``--think``) before each pick, for ``--event-seconds``;
- scaling: saturation with 1, 2 and 4 web processes in turn (``--scaling-seconds`` each);
- both: saturation then event.

Measured per run: picks/s; acknowledgement latency (pick sent -> answer); pick -> next seat
told (the neighbour's socket hears the ``queue`` push or a ``changed`` of the pick's version or
later); notifications (every seat socket of a pod must hear every committed version once:
``not_heard``, ``heard_twice``, ``skipped``; plus the order in which versions were published and
any message that belongs to another site on the same Redis server); errors (non-benign refusals,
disconnects, answer timeouts, failed reads); timeout picks the server made although the
player picked in time; conservation and duplicated picks; CPU milliseconds per pick of the web
processes, Celery worker and beat, PostgreSQL, Redis and the load generator (/proc); resident
memory of web and worker processes; database transactions per pick (pg_stat_database) and calls
of the pick function; and an in-process profile of the service path (queries per pick, cProfile).

Each run writes bench/results/draft_load_<mode>_<players>p_<N>web[_lb][_http][_page].json (a summary)
and .txt, the raw result with every pick's record to bench/results/raw/ (not in git), and
prints a markdown row for the "Draft load" table in bench/results/README.md.

    bench/draft_load --mode saturation --client api       # 1,000 players, 2 web processes
    bench/draft_load --mode event --players 1000 --web-workers 2 --client api
    bench/draft_load --mode scaling --players 200 --scaling-seconds 30 --client api
    bench/draft_load --mode event --players 16 --event-seconds 20 --transport http --client api
    bench/draft_load --mode saturation --players 16 --saturation-seconds 30   # page client
    bench/draft_load --mode event --players 1000 --no-balancer --history 0     # uvicorn --workers 2, empty site
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import datetime as dt
import gc
import importlib.util
import inspect
import io
import json
import os
import pstats
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
RESULTS = ROOT / "bench" / "results"
sys.path.insert(0, str(ROOT / "bench"))  # page_client, when this file is loaded by path (tests)
sys.path.insert(0, str(ROOT / "deploy"))  # rehearsal: HAProxy's view of its servers (--balancer)

import accounted_asgi  # noqa: E402  (after the path)
import history  # noqa: E402
import page_client  # noqa: E402
import pgcluster  # noqa: E402
import rehearsal  # noqa: E402
from page_client import BENIGN_REFUSALS, FINISHED, SocketPage  # noqa: E402

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024
CHANGED = '{"type":"changed","pod":'  # the compact frame drafts.live publishes; others are parsed


def changed_version(text: str) -> int | None:
    """The version of a compact ``changed`` frame, or None for any other frame."""
    if text.startswith(CHANGED):
        _, found, tail = text.rpartition(',"version":')
        if found and tail.endswith("}") and tail[:-1].isdigit():
            return int(tail[:-1])
    return None


try:  # the load generator parses every frame: the fastest JSON available
    import orjson

    def loads(text):
        return orjson.loads(text)

    def dumps(value) -> str:
        return orjson.dumps(value).decode()
except ImportError:  # pragma: no cover - depends on the environment
    loads = json.loads  # type: ignore[assignment]  # called with the text only, like orjson's

    def dumps(value) -> str:
        return json.dumps(value, separators=(",", ":"))


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--web-workers", type=int, default=2, help="uvicorn worker processes")
    parser.add_argument("--port", type=int, default=0, help="0: any free port")
    parser.add_argument(
        "--balancer",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="Serve as deploy/ does: HAProxy (deploy/haproxy.cfg, a pod's sockets on one web process) in front "
        "of --web-workers 2 uvicorn processes of one worker each; HAProxy's CPU is counted apart (default: so "
        "where HAProxy is installed and --web-workers is 2, but for --mode scaling)",
    )
    parser.add_argument(
        "--base-url",
        default=None,
        help="Drive a site that runs already (a load balancer, deploy/rehearsal) instead of starting "
        "servers; the database is kept (players are created once) and --database-url/--redis-url "
        "must be that site's",
    )
    parser.add_argument(
        "--server-pids",
        default="",
        help="with --base-url: the site's processes to meter, as web=PID,PID;worker=PID",
    )
    parser.add_argument("--mode", choices=["saturation", "event", "scaling", "both"], default="both")
    parser.add_argument(
        "--client",
        choices=["page", "api"],
        default="page",
        help="page: the shipped draft page in the state dialect (bench/page_client.py); "
        "api: API clients in the versions dialect (queue pushes, picks over --transport)",
    )
    parser.add_argument(
        "--observers",
        type=int,
        default=2,
        help="page client: this many pods also get a pod page of a seated player, and the event "
        "a dashboard of its organiser (0: none)",
    )
    parser.add_argument(
        "--snapshot-timeout",
        type=float,
        default=5.0,
        help="page client: a seat socket without a snapshot this long after connecting stops the run",
    )
    parser.add_argument(
        "--transport",
        choices=["socket", "http"],
        default="socket",
        help="how players pick (both hear pushes on their seat socket)",
    )
    parser.add_argument(
        "--saturation-seconds",
        type=float,
        default=3600.0,
        help="Cap on a saturation run (default: until every pod has drafted).",
    )
    parser.add_argument("--event-seconds", type=float, default=120.0, help="Event-load window.")
    parser.add_argument("--scaling-seconds", type=float, default=60.0, help="Cap on each scaling run.")
    parser.add_argument("--scaling-workers", default="1,2,4", help="web processes of the scaling runs")
    parser.add_argument("--think", type=float, nargs=2, default=(2.0, 10.0), metavar=("MIN", "MAX"))
    parser.add_argument(
        "--click-delay",
        type=float,
        default=page_client.PAGE_SETTLE_SECONDS,
        help="page client: the earliest pick after a pack appears, as the shipped page allows it "
        "(static/js/draft.js ignores a click on a pack younger than SETTLE_MS, 500 ms; 0: at once)",
    )
    parser.add_argument(
        "--history",
        type=int,
        default=20,
        metavar="N",
        help="finished 1,000-player events the database holds before the run, written in bulk and "
        "vacuumed and analysed (bench/history.py), as a site that keeps its events (0: an empty site)",
    )
    parser.add_argument(
        "--keep-database",
        action="store_true",
        help="keep the database an earlier run left (its history too) instead of recreating it",
    )
    parser.add_argument(
        "--deadline-margin",
        type=float,
        default=1.0,
        help="Event players pick at least this long before their pack's deadline, so "
        "every timeout pick is one the server caused (negative: think freely).",
    )
    parser.add_argument(
        "--idle-seconds",
        type=float,
        default=5.0,
        help="Measure the idle cost (pages open, nobody picking) this long before the "
        "window, and also report CPU per pick net of it (0: skip)",
    )
    parser.add_argument(
        "--heartbeat-seconds",
        type=float,
        default=20.0,
        help="Each page's heartbeat on its socket, as static/js/live.js (0: none)",
    )
    parser.add_argument(
        "--answer-timeout", type=float, default=30.0, help="A pick without an answer after this long is an error."
    )
    parser.add_argument(
        "--stall-seconds",
        type=float,
        default=None,
        help="A waiting player whose socket heard nothing for this long reads its "
        "queue over HTTP (counted as a fallback; default 5 s, event 2*think max + 5)",
    )
    parser.add_argument(
        "--database-url",
        default=os.environ.get("BENCH_DATABASE_URL"),
        help="a server's database to use (dropped and made anew); default: the bench's own PostgreSQL "
        "cluster, set as deploy/postgresql.md asks (bench/pgcluster.py)",
    )
    parser.add_argument(
        "--pg-statements",
        action="store_true",
        help="the bench's own cluster loads pg_stat_statements and the run reports the statements that "
        "cost the most PostgreSQL time (not as deployed: it costs a little a statement)",
    )
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/5"))
    parser.add_argument("--set", dest="set_code", default="ISD")
    parser.add_argument("--results-dir", default=str(RESULTS))
    parser.add_argument("--results", default=None, help="Also write every run of this invocation to this JSON file.")
    parser.add_argument("--no-profile", action="store_true", help="Skip the in-process profile.")
    parser.add_argument(
        "--profile-generator",
        action="store_true",
        help="Print where the load generator's own time goes (cProfile; slows it down).",
    )
    parser.add_argument(
        "--profile-web",
        metavar="DIR",
        help="Profile each web process's event loop by CPU time into DIR/web-<pid>.prof (bench/profiled_asgi.py).",
    )
    parser.add_argument(
        "--account-web",
        metavar="DIR",
        help="Count each web process's CPU by stage (the pick, its statement, a document's fan-out, frames)"
        " into DIR and print it per pick (bench/accounted_asgi.py; a microsecond or two a step).",
    )
    parser.add_argument(
        "--web-server",
        choices=["uvicorn", "granian"],
        default="uvicorn",
        help="the ASGI server of the web processes (deploy/ runs uvicorn)",
    )
    parser.add_argument(
        "--ws",
        choices=["websockets", "websockets-sansio", "wsproto"],
        default=None,
        help="uvicorn's websocket implementation (default: uvicorn's own choice, as deploy/ runs it)",
    )
    parser.add_argument("--worker-pool", default="solo", help="Celery worker pool (solo: one process)")
    parser.add_argument(
        "--beat",
        choices=["separate", "embedded"],
        default="separate",
        help="Celery beat as its own process, or inside the worker (celery worker -B)",
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.client == "page" and args.transport != "socket":
        parser.error("the page picks over its socket: --transport http needs --client api")
    if args.balancer is None:
        args.balancer = (
            shutil.which("haproxy") is not None
            and args.web_workers == 2
            and args.mode != "scaling"
            and not args.base_url
        )
    if args.database_url is not None and not bench_database(args.database_url):
        parser.error("the bench drops and recreates its database: use a name starting with draftsite_bench")
    return args


# --- database and Django ---------------------------------------------------------------


def bench_database(url: str) -> bool:
    """Whether the bench may drop and recreate the database at ``url``: its name says it is a
    bench's (``draftsite_bench...``, or another site's prefix then ``_bench...``)."""
    name = url.rsplit("/", 1)[1]
    return name.startswith("draftsite_bench") or (name.startswith("draftsite_") and "_bench" in name)


def database_exists(url: str) -> bool:
    import psycopg

    with psycopg.connect(admin_url(url), autocommit=True) as conn:
        found = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [url.rsplit("/", 1)[1]]).fetchone()
    return found is not None


def recreate_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(admin_url(url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
        # Calls and time of PL/pgSQL functions (the pick function), this database only.
        conn.execute(f"ALTER DATABASE \"{name}\" SET track_functions = 'pl'")


def postgres_settings(args) -> dict:
    """What the figures' PostgreSQL was: its own cluster or a given server, and the settings
    deploy/postgresql.md names."""
    import psycopg

    with psycopg.connect(args.database_url, autocommit=True) as conn:
        found = {
            name: conn.execute(f"SHOW {name}").fetchone()[0]  # type: ignore[index]
            for name in ("autovacuum", "synchronous_commit", "shared_buffers", "server_version")
        }
    return {"own_cluster": args.cluster is not None, **found}


def admin_url(url: str) -> str:
    return url.rsplit("/", 1)[0] + "/postgres"


def server_env(args) -> dict:
    return {
        "DATABASE_URL": args.database_url,
        "REDIS_URL": args.redis_url,
        "DJANGO_SETTINGS_MODULE": "draftsite.settings",
        "DEBUG": "0",
        "SECURE_HTTPS": "0",
        "ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
        "LOG_LEVEL": "WARNING",
    }


def setup_django(args) -> None:
    os.environ.update(server_env(args))
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
    User = get_user_model()
    if not User.objects.filter(username="bench-organiser").exists():  # a kept database has them
        data = ROOT / "cards" / "data"
        for path in [data / "mtgjson" / f"{args.set_code}.json.gz", *sorted((data / "checklists").iterdir())]:
            import_card_file(path)
        organiser = User.objects.create_user("bench-organiser")
        organiser.groups.add(Group.objects.get(name="organiser"))
        Token.objects.create(user=organiser)
    have = set(User.objects.filter(username__startswith="bench-").values_list("username", flat=True))
    names = [f"bench-{n:04d}" for n in range(max(args.players, 8))]
    users = User.objects.bulk_create(User(username=name) for name in names if name not in have)
    Token.objects.bulk_create(Token(user=u, key=Token.generate_key()) for u in users)


def create_event(args, label: str, players: int | None = None, pick_timer: bool = True, start: bool = True) -> dict:
    """An event with ``players`` bench players seated in pods of 8, and every pod started
    (or not: the run starts them once every page is open, so no clock runs meanwhile)."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from drafts import live, services
    from drafts.models import Seat
    from events.models import Registration

    User = get_user_model()
    organiser = User.objects.get(username="bench-organiser")
    event = services.create_event(
        name=f"Bench {label}",
        date=timezone.now().date(),
        created_by=organiser,
        set_codes=[args.set_code],
        pick_timer=pick_timer,
    )
    chosen = list(
        User.objects.filter(username__regex=r"^bench-[0-9]+$")
        .order_by("username")
        .select_related("auth_token")[: players or args.players]
    )
    Registration.objects.bulk_create(Registration(event=event, user=u, name=u.username) for u in chosen)
    pods = services.seat_players(event_id=event.pk, seed=args.seed, actor=organiser)
    for pod in pods if start else ():
        services.start_pod(pod_id=pod.pk, actor=organiser)
    # every seat of a new event has a registration
    seats: list[Any] = list(Seat.objects.filter(pod__event=event).select_related("registration__user__auth_token"))
    sessions = _sessions([s.registration.user for s in seats] + [organiser])
    return {
        "event": event.pk,
        "organiser_token": organiser.auth_token.key,
        "organiser": organiser.pk,
        "organiser_session": sessions[organiser.pk],
        "pods": sorted(pod.pk for pod in pods),
        "seats": [
            {
                "id": s.pk,
                "pod": s.pod_id,
                "socket": live.seat_socket(s.pk, s.pod_id),  # the seat page's data-socket
                "position": s.position,
                "user": s.registration.user_id,
                "token": s.registration.user.auth_token.key,
                "session": sessions[s.registration.user_id],
            }
            for s in seats
        ],
    }


def _sessions(users) -> dict[int, str | None]:
    """A logged-in session per player: browsers' websockets authenticate with the cookie."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    keys: dict[int, str | None] = {}
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


def distinct_free_ports(count: int, taken: set[int]) -> list[int]:
    ports: list[int] = []
    while len(ports) < count:
        candidate = free_port()
        if candidate not in taken and candidate not in ports:
            ports.append(candidate)
    return ports


def uvicorn_options(ws: str | None = None) -> list[str]:
    options = ["--ws", ws] if ws else []
    if importlib.util.find_spec("uvloop"):
        options += ["--loop", "uvloop"]
    if importlib.util.find_spec("httptools"):
        options += ["--http", "httptools"]
    # As deploy/ runs it: frames uncompressed (deflate cost 30% more web CPU per pick here).
    options += ["--ws-per-message-deflate", "false"]
    return options


class Servers:
    """uvicorn (N processes), a Celery worker and Celery beat; ``base`` is where web listens."""

    def __init__(self, args, web_workers: int) -> None:
        port = args.port or free_port()
        self.base = f"http://127.0.0.1:{port}"
        self.tmp = tempfile.TemporaryDirectory(prefix="draft_load_")
        env = {**os.environ, **server_env(args)}
        profile_dir = getattr(args, "profile_web", None)
        account_dir = getattr(args, "account_web", None)
        if profile_dir and account_dir:
            raise SystemExit("--profile-web and --account-web each wrap the site: choose one")
        app = "draftsite.asgi:application"
        if profile_dir:
            os.makedirs(profile_dir, exist_ok=True)
            env["PROFILE_WEB_DIR"] = os.path.abspath(profile_dir)
            app = "bench.profiled_asgi:application"
        if account_dir:
            os.makedirs(account_dir, exist_ok=True)
            for old in Path(account_dir).glob("accounting-*.json"):  # one run's processes only
                old.unlink()
            env[accounted_asgi.ENV] = os.path.abspath(account_dir)
            app = "bench.accounted_asgi:application"
        python = sys.executable

        def web_command(web_port: int, workers: int) -> list[str]:
            if getattr(args, "web_server", "uvicorn") == "granian":  # measured against uvicorn (issue 48)
                return [
                    python,
                    "-m",
                    "granian",
                    "--interface",
                    "asginl",  # Django's ASGI application has no lifespan protocol
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(web_port),
                    "--workers",
                    str(workers),
                    "--runtime-mode",
                    "st",
                    *(["--loop", "uvloop"] if importlib.util.find_spec("uvloop") else []),
                    "--no-access-log",
                    "--log-level",
                    "warning",
                    app,
                ]
            return [
                python,
                "-m",
                "uvicorn",
                app,
                "--host",
                "127.0.0.1",
                "--port",
                str(web_port),
                "--workers",
                str(workers),
                "--no-access-log",
                "--log-level",
                "warning",
                *uvicorn_options(getattr(args, "ws", None)),
            ]

        self.balancer: subprocess.Popen | None = None
        if getattr(args, "balancer", False):
            # As deploy/ runs a site: one uvicorn process per port, HAProxy in front with
            # deploy/haproxy.cfg (a pod's sockets on one process), the clients on HAProxy's port.
            haproxy = shutil.which("haproxy")
            if haproxy is None:
                raise SystemExit("--balancer needs HAProxy (Debian: apt-get install haproxy)")
            if web_workers != 2:
                raise SystemExit("--balancer runs deploy/haproxy.cfg, which names two web servers: --web-workers 2")
            web_ports = distinct_free_ports(web_workers, taken={port})
            self.web_command = web_command(web_ports[0], 1)
            self.webs = [
                subprocess.Popen(web_command(p, 1), cwd=ROOT, env=env, start_new_session=True) for p in web_ports
            ]
            lb_env = {
                **os.environ,
                "LB_BIND": f"127.0.0.1:{port}",
                "WEB1": f"127.0.0.1:{web_ports[0]}",
                "WEB2": f"127.0.0.1:{web_ports[1]}",
                "RUN_DIR": self.tmp.name,
            }
            self.balancer = subprocess.Popen(
                [haproxy, "-db", "-f", str(ROOT / "deploy" / "haproxy.cfg")],
                cwd=ROOT,
                env=lb_env,
                start_new_session=True,
            )
            web_bases = [f"http://127.0.0.1:{p}" for p in web_ports]
        else:
            self.web_command = web_command(port, web_workers)
            self.webs = [subprocess.Popen(self.web_command, cwd=ROOT, env=env, start_new_session=True)]
            web_bases = []
        self.web = self.webs[0]
        celery = [python, "-m", "celery", "--quiet", "-A", "draftsite"]
        schedule = ["--schedule", os.path.join(self.tmp.name, "beat-schedule")]
        embedded = args.beat == "embedded"  # beat inside the worker process (celery worker -B)
        self.worker = subprocess.Popen(
            [
                *celery,
                "worker",
                *(["--beat", *schedule] if embedded else []),
                "--pool",
                args.worker_pool,
                "--loglevel",
                "WARNING",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
            ],
            cwd=ROOT,
            env=env,
            start_new_session=True,
        )
        self.beat = (
            self.worker
            if embedded
            else subprocess.Popen(
                [
                    *celery,
                    "beat",
                    "--loglevel",
                    "WARNING",
                    *schedule,
                    "--pidfile",
                    os.path.join(self.tmp.name, "beat.pid"),
                ],
                cwd=ROOT,
                env=env,
                start_new_session=True,
            )
        )
        self.processes = [*self.webs, self.worker] + ([self.beat] if self.beat is not self.worker else [])
        if self.balancer is not None:
            self.processes.append(self.balancer)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if any(p.poll() is not None for p in self.processes):
                break  # one died (port taken?): never measure someone else's server
            try:
                if self._serving(web_bases, web_workers):
                    return
            except OSError:  # HAProxy's stats socket is not there yet
                pass
            time.sleep(0.3)
        self.stop()
        raise SystemExit("The servers did not start (see their output above).")

    def _serving(self, web_bases: list[str], web_workers: int) -> bool:
        """Every web server answers, then the site's address; through the balancer, once its
        checks call every server up."""
        if not all(rehearsal.healthz(base)[0] == 200 for base in [*web_bases, self.base]):
            return False
        if self.balancer is not None:
            return all(row["status"] == "UP" for row in rehearsal.haproxy_servers(Path(self.tmp.name)).values())
        # uvicorn runs one worker in its own process, several under a supervisor
        return len(descendants(self.web.pid)) >= web_workers + (web_workers > 1)

    @property
    def web_pids(self) -> list[int]:
        return [web.pid for web in self.webs]

    def open_connections(self) -> dict[str, int] | None:
        """With ``--balancer``: HAProxy's open connections per web server."""
        return None if self.balancer is None else rehearsal.open_connections(Path(self.tmp.name))

    def stop(self) -> None:
        for process in self.processes:
            try:
                os.killpg(process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for process in self.processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        self.tmp.cleanup()


class External:
    """A site started elsewhere (``--base-url``): nothing to start or stop; its processes (on
    this machine, ``--server-pids``) are metered like ours."""

    class Pid:
        def __init__(self, pid: int) -> None:
            self.pid = pid

    def __init__(self, args) -> None:
        self.base = args.base_url.rstrip("/")
        parts = dict(part.split("=", 1) for part in args.server_pids.split(";") if part)
        self.web_pids = [int(p) for p in parts.get("web", "").split(",") if p]
        self.worker = self.beat = self.Pid(int(parts.get("worker") or 0))  # beat in the worker
        self.web_command = ["external", self.base]

    def open_connections(self) -> None:
        return None

    def stop(self) -> None:
        pass


# --- /proc: CPU and memory ---------------------------------------------------------------


def proc_table() -> dict[int, dict]:
    """Every process: parent, name, CPU ticks of its own and of its reaped children."""
    table = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                text = handle.read()
        except OSError:
            continue
        comm = text[text.index("(") + 1 : text.rindex(")")]
        fields = text[text.rindex(")") + 2 :].split()
        table[int(entry)] = {
            "ppid": int(fields[1]),
            "comm": comm,
            "ticks": int(fields[11]) + int(fields[12]),
            "child_ticks": int(fields[13]) + int(fields[14]),
        }
    return table


def descendants(root: int, table: dict | None = None) -> list[int]:
    table = table if table is not None else proc_table()
    children = defaultdict(list)
    for pid, info in table.items():
        children[info["ppid"]].append(pid)
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        if pid in table:
            found.append(pid)
            todo.extend(children[pid])
    return found


def tree_ticks(root: int, table: dict) -> int:
    """CPU of a process tree: the live processes plus what the root reaped from dead children."""
    pids = descendants(root, table)
    return sum(table[p]["ticks"] for p in pids) + (table[root]["child_ticks"] if root in table else 0)


def memory_kb(pids: list[int]) -> dict:
    """Resident set (VmRSS, counts shared pages once per process) and proportional set (Pss)."""
    rss = pss = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as handle:
                for line in handle:
                    if line.startswith("VmRSS:"):
                        rss += int(line.split()[1])
            with open(f"/proc/{pid}/smaps_rollup") as handle:
                for line in handle:
                    if line.startswith("Pss:"):
                        pss += int(line.split()[1])
        except OSError:
            continue
    return {"rss_mb": round(rss / 1024, 1), "pss_mb": round(pss / 1024, 1)}


class Meter:
    """CPU of every part of the system and the database's counters, between two samples."""

    def __init__(self, args, servers: Servers | External) -> None:
        import redis

        self.args = args
        self.servers = servers
        self.dbname = args.database_url.rsplit("/", 1)[1]
        self.own_pids: set[int] = set()
        self.admin = self._connect(admin_url(args.database_url))
        self.bench_db = self._connect(args.database_url)
        self.redis_pid = int(redis.Redis.from_url(args.redis_url).info("server")["process_id"])
        # The bench's own cluster: all of its processes are the run's (autovacuum included).
        self.cluster = getattr(args, "cluster", None)

    def _connect(self, url: str):
        import psycopg

        conn = psycopg.connect(url, autocommit=True)
        self.own_pids.add(conn.info.backend_pid)
        return conn

    def _query(self, which: str, sql: str, params: list | None = None) -> list:
        """Rows of ``sql`` on the meter's connection ``which``; opened again once if it broke
        (a fault scenario cuts the database off: the server drops idle connections too)."""
        import psycopg

        try:
            return getattr(self, which).execute(sql, params).fetchall()
        except psycopg.OperationalError:
            url = admin_url(self.args.database_url) if which == "admin" else self.args.database_url
            setattr(self, which, self._connect(url))
            return getattr(self, which).execute(sql, params).fetchall()

    @property
    def statements(self) -> bool:
        return self.cluster is not None and self.cluster.statements

    def reset_statements(self) -> None:
        if self.statements:
            self.bench_db.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
            self._query("bench_db", "SELECT pg_stat_statements_reset()")

    def top_statements(self, picks: int, count: int = 15) -> list[dict] | None:
        """The statements (nested ones too: inside the stored functions) that took the most
        execution time since the reset, per pick."""
        if not self.statements or not picks:
            return None
        rows = self._query(
            "bench_db",
            "SELECT calls, total_exec_time, rows, shared_blks_hit + shared_blks_read, toplevel, query "
            "FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = %s "
            "ORDER BY total_exec_time DESC LIMIT %s",
            [self.dbname, count],
        )
        return [
            {
                "ms_per_pick": round(total / picks, 4),
                "calls_per_pick": round(calls / picks, 3),
                "mean_ms": round(total / calls, 4) if calls else None,
                "rows_per_call": round(found / calls, 1) if calls else None,
                "blocks_per_call": round(blocks / calls, 1) if calls else None,
                "toplevel": toplevel,
                "query": " ".join(query.split())[:300],
            }
            for calls, total, found, blocks, toplevel, query in rows
        ]

    def close(self) -> None:
        self.admin.close()
        self.bench_db.close()

    def _postgres_pids(self) -> tuple[set[int], set[int]]:
        """Backends of the bench database, and the server's own background processes."""
        rows = self._query("admin", "SELECT pid, datname, backend_type FROM pg_stat_activity")
        bench = {pid for pid, datname, _ in rows if datname == self.dbname and pid not in self.own_pids}
        background = {pid for pid, datname, kind in rows if datname is None and kind != "client backend"}
        return bench, background

    def sample(self) -> dict:
        table = proc_table()
        bench_pids, background_pids = self._postgres_pids()
        postmaster = {table[p]["ppid"] for p in background_pids if p in table}
        return {
            "at": time.monotonic(),
            "web": sum(tree_ticks(pid, table) for pid in self.servers.web_pids),
            "worker": tree_ticks(self.servers.worker.pid, table),
            "beat": tree_ticks(self.servers.beat.pid, table) if self.servers.beat is not self.servers.worker else 0,
            "postgres_backends": {p: table[p]["ticks"] for p in bench_pids if p in table},
            "postgres_background": sum(table[p]["ticks"] for p in background_pids | postmaster if p in table),
            "postgres_all": sum(i["ticks"] for i in table.values() if i["comm"] == "postgres"),
            "postgres_cluster": (
                tree_ticks(self.cluster.postmaster_pid, table)
                - sum(table[p]["ticks"] for p in self.own_pids if p in table)
                if self.cluster is not None
                else None
            ),
            "redis": table.get(self.redis_pid, {}).get("ticks", 0),
            "balancer": tree_ticks(balancer.pid, table) if (balancer := getattr(self.servers, "balancer", None)) else 0,
            "generator": table[os.getpid()]["ticks"],
            **self.sample_db(),
        }

    def sample_db(self) -> dict:
        """The database's counters. A backend reports them up to ~10 s after it goes idle
        (PostgreSQL 15), so the closing sample of these is taken that much later."""
        stats = self._query(
            "admin",
            "SELECT xact_commit, xact_rollback, tup_inserted, tup_updated, tup_deleted, tup_returned, "
            "tup_fetched, blks_hit, blks_read FROM pg_stat_database WHERE datname = %s",
            [self.dbname],
        )[0]  # the bench database exists
        functions = self._query("bench_db", "SELECT funcname, calls, total_time, self_time FROM pg_stat_user_functions")
        return {
            "db": dict(
                zip(
                    [
                        "xact_commit",
                        "xact_rollback",
                        "tup_inserted",
                        "tup_updated",
                        "tup_deleted",
                        "tup_returned",
                        "tup_fetched",
                        "blks_hit",
                        "blks_read",
                    ],
                    stats,
                )
            ),
            "functions": {
                name: {"calls": calls, "total_ms": total, "self_ms": own} for name, calls, total, own in functions
            },
        }

    @staticmethod
    def difference(before: dict, after: dict, picks: int) -> dict:
        def ms(ticks: int) -> float:
            return ticks * 1000 / CLOCK_TICKS

        backends = sum(t - before["postgres_backends"].get(p, 0) for p, t in after["postgres_backends"].items())
        cluster = after.get("postgres_cluster")
        cpu = {
            "web": ms(after["web"] - before["web"]),
            "worker": ms(after["worker"] - before["worker"]),
            "beat": ms(after["beat"] - before["beat"]),
            # The bench's own cluster: every process of it; a shared server: the bench database's
            # backends and the server's background processes.
            "postgres": ms(
                cluster - before["postgres_cluster"]
                if cluster is not None
                else backends + after["postgres_background"] - before["postgres_background"]
            ),
            "postgres_bench_backends": ms(backends),
            "redis": ms(after["redis"] - before["redis"]),
            "balancer": ms(after["balancer"] - before["balancer"]),
            "generator": ms(after["generator"] - before["generator"]),
            "postgres_all_processes": ms(after["postgres_all"] - before["postgres_all"]),
        }
        cpu["server_total"] = sum(cpu[k] for k in ("web", "worker", "beat", "postgres", "redis", "balancer"))
        db = {k: after["db"][k] - before["db"][k] for k in after["db"]}
        functions = {}
        for name, stats in after["functions"].items():
            old = before["functions"].get(name, {"calls": 0, "total_ms": 0.0, "self_ms": 0.0})
            calls = stats["calls"] - old["calls"]
            if calls:
                functions[name] = {
                    "calls": calls,
                    "mean_ms": round((stats["total_ms"] - old["total_ms"]) / calls, 3),
                    "calls_per_pick": round(calls / picks, 2) if picks else None,
                }

        def per(value):
            return round(value / picks, 3) if picks else None

        return {
            "seconds": round(after["at"] - before["at"], 2),
            "cpu_seconds": {k: round(v / 1000, 2) for k, v in cpu.items()},
            "cpu_ms_per_pick": {k: per(v) for k, v in cpu.items()},
            "db": {
                **db,
                "xact_per_pick": per(db["xact_commit"] + db["xact_rollback"]),
                "rows_written_per_pick": per(db["tup_inserted"] + db["tup_updated"] + db["tup_deleted"]),
                # Counts, not times: what grows with the tables, whatever else loads the machine.
                "rows_read_per_pick": per(db["tup_returned"] + db["tup_fetched"]),
                "blocks_per_pick": per(db["blks_hit"] + db["blks_read"]),
            },
            "functions": functions,
        }

    def memory(self) -> dict:
        table = proc_table()
        web = memory_kb([p for pid in self.servers.web_pids for p in descendants(pid, table)])
        worker_pids = set(descendants(self.servers.worker.pid, table)) | set(descendants(self.servers.beat.pid, table))
        worker = memory_kb(sorted(worker_pids))
        beat_alone = self.servers.beat is not self.servers.worker
        return {
            "web": web,
            "worker_and_beat": worker,
            # apart too: the target counts web and worker processes, the total counts beat as well
            "worker": memory_kb(descendants(self.servers.worker.pid, table)) if beat_alone else worker,
            "beat": memory_kb(descendants(self.servers.beat.pid, table)) if beat_alone else None,
            "total_rss_mb": round(web["rss_mb"] + worker["rss_mb"], 1),
            "total_pss_mb": round(web["pss_mb"] + worker["pss_mb"], 1),
        }


# --- what the players measure -----------------------------------------------------------


def percentiles(values: list[float]) -> dict:
    ordered = sorted(values)

    def pct(p: float) -> float | None:
        return round(ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000, 1) if ordered else None

    return {
        "p50": pct(0.50),
        "p95": pct(0.95),
        "p99": pct(0.99),
        "max": pct(1.0),
        "mean": round(statistics.mean(ordered) * 1000, 1) if ordered else None,
        "count": len(ordered),
    }


class Connection:
    """One opened seat socket: what it heard (``changed`` per pod version, ``queue`` pushes)."""

    def __init__(self, seat: dict) -> None:
        self.seat = seat["id"]
        self.pod = seat["pod"]
        self.connect_version: int | None = None
        self.changed: Counter = Counter()
        self.max_version = -1
        self.log: list[tuple[int, float]] = []  # (version, when) of changed and queue pushes
        self.queue_pushes: Counter = Counter()
        self.closed_early = False
        self.last_heard = time.monotonic()

    def heard(self, version: int, at: float) -> None:
        self.last_heard = at
        self.log.append((version, at))
        if len(self.log) > 64:
            del self.log[:32]
        self.max_version = max(self.max_version, version)

    def told_at(self, version: int) -> float | None:
        for heard_version, at in self.log:
            if heard_version >= version:
                return at
        return None


async def watch_loop_lag(run: Run, every: float = 0.05) -> None:
    """How late the generator's loop wakes from a short sleep: every time it measures (an
    answer's arrival, a push) is stamped up to that late, so a large lag is the generator's and
    not the server's."""
    loop = asyncio.get_running_loop()
    while True:
        asked = loop.time()
        await asyncio.sleep(every)
        run.loop_lag.append(loop.time() - asked - every)


class Run:
    """Every counter of one run."""

    def __init__(self) -> None:
        self.ack: list[float] = []
        self.told: list[float] = []
        self.picks = 0
        self.acked: list[tuple[int, int]] = []  # (seat, draft card) of every acknowledged pick
        self.picks_by_pod: dict[int, list[int]] = defaultdict(list)  # acknowledged pod versions
        self.refusals: Counter = Counter()
        self.errors: Counter = Counter()
        self.error_samples: list[str] = []  # the first few exceptions counted as errors, with their text
        self.statuses: Counter = Counter()
        self.connections: list[Connection] = []
        self.current: dict[int, Connection] = {}
        self.pending_told: dict[int, list[tuple[int, float]]] = defaultdict(list)
        self.fallback_fetches = 0
        self.fallback_found_pack = 0
        self.sent_in_time_lost = 0  # refused picks sent before the pack's deadline
        self.heartbeats = 0
        self.advances: list[float] = []  # how long the organiser's POST /advance/ took
        self.pushed_packs: set[tuple[int, int]] = set()  # (the seat's pod, a pack pushed to it)
        self.unannounced: dict[int, tuple] = {}  # pack id -> (found, deadline, cards, version)
        self.late_pushes: list[float] = []
        self.stopping = False
        self.loop_lag: list[float] = []  # how late the generator's own loop woke (s): its stamps are that late too

    def note_error(self, text: str) -> None:
        if len(self.error_samples) < 5:
            self.error_samples.append(text)

    def on_heard(self, connection: Connection, version: int, at: float) -> None:
        connection.heard(version, at)
        waiting = self.pending_told.get(connection.seat)
        if waiting:
            keep = []
            for expected, started in waiting:
                if expected <= version:
                    self.told.append(at - started)
                else:
                    keep.append((expected, started))
            self.pending_told[connection.seat] = keep

    def expect_told(self, seat_id: int, version: int, started: float) -> None:
        # The neighbour often hears the change before the picker reads its answer: look back.
        connection = self.current.get(seat_id)
        at = connection.told_at(version) if connection else None
        if at is not None:
            self.told.append(at - started)
        else:
            self.pending_told[seat_id].append((version, started))

    def notifications(self) -> dict:
        """Every seat socket of a pod must hear every version its pod committed after it
        connected: a pick's version with no version >= heard is ``not_heard``; a version heard
        more than once is ``heard_twice``; a version passed over for a later one is ``skipped``."""
        not_heard_picks = not_heard = skipped = twice = 0
        for connection in self.connections:
            twice += sum(n - 1 for n in connection.changed.values() if n > 1)
        by_pod = defaultdict(list)
        for connection in self.connections:
            by_pod[connection.pod].append(connection)
        for pod, versions in self.picks_by_pod.items():
            for version in versions:
                missed = False
                for connection in by_pod.get(pod, ()):
                    if (
                        connection.closed_early
                        or connection.connect_version is None
                        or version <= connection.connect_version
                    ):
                        continue  # opened after this version (its connect message covered it) or lost
                    if connection.max_version < version:
                        not_heard += 1
                        missed = True
                    elif version not in connection.changed:
                        skipped += 1
                not_heard_picks += missed
        return {
            "sockets": len(self.connections),
            "sockets_closed_early": sum(c.closed_early for c in self.connections),
            "changed_messages": sum(sum(c.changed.values()) for c in self.connections),
            "queue_pushes": sum(sum(c.queue_pushes.values()) for c in self.connections),
            "queue_pushes_twice": sum(n - 1 for c in self.connections for n in c.queue_pushes.values() if n > 1),
            "not_heard": not_heard_picks,
            "not_heard_deliveries": not_heard,
            "heard_twice": twice,
            "skipped": skipped,
            "told_never": sum(len(v) for v in self.pending_told.values()),
        }


class PublishWatch:
    """Listens to the live updates the servers publish for this run's pods (diagnostic): a
    version published after a later one of its pod is dropped by the sockets' version check,
    which shows up as ``skipped``."""

    def __init__(self, redis_url: str, pods: list[int]) -> None:
        self.redis_url = redis_url
        self.pods = set(pods)
        self.last: dict[int, int] = {}
        self.published = self.out_of_order = self.twice = 0
        self.task: asyncio.Task | None = None

    async def start(self) -> None:
        ready = asyncio.Event()
        self.task = asyncio.ensure_future(self.listen(ready))
        await asyncio.wait_for(ready.wait(), 10)

    async def listen(self, ready: asyncio.Event) -> None:
        import redis.asyncio as aioredis

        try:
            from drafts.live import channel, decode
        except ImportError:  # an engine without drafts.live publishes nothing to watch
            ready.set()
            return
        client = aioredis.Redis.from_url(self.redis_url)
        try:
            async with client.pubsub() as pubsub:
                await pubsub.subscribe(channel())
                ready.set()
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    for topic, version, _ in decode(message["data"])[1]:
                        if topic.startswith("pod:"):
                            self.count(int(topic[4:]), version)
        finally:
            await client.aclose()

    def count(self, pod: int, version: int) -> None:
        if pod not in self.pods:
            return
        self.published += 1
        last = self.last.get(pod, -1)
        if version == last:
            self.twice += 1
        elif version < last:
            self.out_of_order += 1
        else:
            self.last[pod] = version

    async def stop(self) -> dict:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
        return {"published": self.published, "published_out_of_order": self.out_of_order, "published_twice": self.twice}


class Player(SocketPage):
    """One simulated API client (``--client api``): its seat socket in the versions dialect
    (picks and pushes) and its HTTP identity."""

    def __init__(self, seat: dict, run: Run, ctx: Context) -> None:
        super().__init__(seat["id"], run, ctx)
        self.seat = seat
        self.connection: Connection | None = None
        self.push: tuple[int, list] | None = None  # (version, queue) of the latest queue push
        self.pushed = asyncio.Event()
        self.headers = {"Authorization": f"Token {seat['token']}"}

    async def connect(self) -> None:
        import aiohttp

        ctx = self.ctx
        url = ctx.base.replace("http", "ws", 1) + f"/ws/seats/{self.seat['id']}/"
        try:
            self.ws = await ctx.socket_session.ws_connect(
                url,
                headers={"Origin": ctx.base, "Cookie": f"sessionid={self.seat['session']}"},
                heartbeat=None,
                autoping=True,
                compress=15,
            )  # offered, as browsers do
        except (TimeoutError, aiohttp.ClientError, OSError):
            self.run.errors["socket_connect_failed"] += 1
            self.ws = None
            return
        self.connection = Connection(self.seat)
        self.run.connections.append(self.connection)
        self.run.current[self.seat["id"]] = self.connection
        self.reader = asyncio.ensure_future(self.read(self.ws, self.connection))

    async def read(self, ws, connection: Connection) -> None:
        import aiohttp

        try:
            async for message in ws:
                if message.type != aiohttp.WSMsgType.TEXT:
                    break
                at = time.monotonic()
                text = message.data
                version = changed_version(text)
                if version is not None:  # most frames: read the version without a JSON parse
                    if connection.connect_version is None:
                        connection.connect_version = version
                    connection.changed[version] += 1
                    self.run.on_heard(connection, version, at)
                    continue
                data = loads(text)
                kind = data.get("type")
                if kind == "changed":
                    version = data.get("version") or 0
                    if connection.connect_version is None:
                        connection.connect_version = version
                    connection.changed[version] += 1
                    self.run.on_heard(connection, version, at)
                elif kind == "queue":
                    version = data.get("version") or 0
                    connection.queue_pushes[version] += 1
                    self.run.on_heard(connection, version, at)
                    queue = data.get("queue") or []
                    self.run.pushed_packs.update((self.seat["pod"], entry.get("pack_id")) for entry in queue)
                    if queue and queue[0].get("pack_id") in self.run.unannounced:
                        self.run.late_pushes.append(at - self.run.unannounced.pop(queue[0]["pack_id"])[0])
                    if self.push is None or version > self.push[0]:
                        self.push = (version, data.get("queue") or [])
                        self.pushed.set()
                elif kind in ("picked", "pick_refused"):
                    self.answered(data, at)
                elif kind == "error":
                    self.run.errors["socket_error_message"] += 1
        except Exception as error:  # a broken connection, or a frame this reader cannot read
            self.run.errors[f"socket_reader_{type(error).__name__}"] += 1
        if not self.run.stopping:
            connection.closed_early = True
            self.run.errors["socket_disconnected"] += 1
        self.release_waiters()
        self.pushed.set()

    def wake(self) -> None:
        self.pushed.set()

    async def fetch_view(self) -> dict | None:
        """The page's first read (and the fallback): GET the seat's queue."""
        try:
            async with self.ctx.session.get(
                f"{self.ctx.base}/api/seats/{self.seat['id']}/queue/", headers=self.headers
            ) as response:
                status = response.status
                body = await response.json(content_type=None) if status == 200 else None
        except Exception:
            status, body = 0, None
        if body is None:
            self.run.statuses[f"GET {status}"] += 1
            if status == 0 or status >= 500:
                self.run.errors["http_read_failed"] += 1
            return None
        return {"pod": body["pod"], "queue": body["queue"], "version": body["pod"].get("version") or 0}

    async def send_pick(self, pack: dict, card: int) -> tuple[float, dict | None, int]:
        """(when the answer came, its body or None, HTTP-like status)."""
        if self.ctx.transport == "http":
            try:
                async with self.ctx.session.post(
                    f"{self.ctx.base}/api/seats/{self.seat['id']}/picks/",
                    headers=self.headers,
                    json={"card": card, "pack": pack["pack_id"]},
                ) as response:
                    body = await response.json(content_type=None)
                    return time.monotonic(), body, response.status
            except TimeoutError:
                self.run.errors["answer_timeout"] += 1
                return time.monotonic(), None, 0
            except Exception:
                return time.monotonic(), None, 0
        at, data = await self.ask({"type": "pick", "card": card, "pack": pack["pack_id"]})
        if data is None:
            return at, None, 0
        if data["type"] == "picked":
            return at, data, 201
        return at, data, int(data.get("status") or 400)

    async def play(self, view: dict | None, driver: PodDriver) -> None:
        ctx, run = self.ctx, self.run
        while not ctx.over():
            if view is None:
                view = await self.fetch_view()
                if view is None:
                    await asyncio.sleep(1)
                    continue
            if self.push is not None and self.push[0] > view["version"] and self.push[1]:
                view = {"pod": {**view["pod"], "state": "drafting"}, "queue": self.push[1], "version": self.push[0]}
            state, queue = view["pod"]["state"], view["queue"]
            front = queue[0] if queue and not queue[0].get("waiting") and queue[0].get("cards") else None
            if front is not None and state not in FINISHED:
                if ctx.think:
                    thinking = self.think_seconds(front)
                    if thinking >= ctx.left():
                        await asyncio.sleep(max(0.0, ctx.left()))
                        return  # the window closes while this player is thinking
                    await asyncio.sleep(thinking)
                card = self.rng.choice(front["cards"])["id"]
                deadline = front.get("deadline")
                in_time = deadline is None or time.time() < dt.datetime.fromisoformat(deadline).timestamp()
                started = time.monotonic()
                answered, body, status = await self.send_pick(front, card)
                run.ack.append(answered - started)
                run.statuses[status] += 1
                if status == 201:
                    run.picks += 1
                    assert body is not None  # a 201 has a body
                    version = body["pick"]["pod_version"]
                    run.picks_by_pod[self.seat["pod"]].append(version)
                    if front.get("cards_left", 2) > 1:
                        run.expect_told(driver.neighbour(self.seat["position"], front["round"]), version, started)
                    view = {"pod": body["pod"], "queue": body["queue"], "version": version}
                    if body["pod"]["state"] in FINISHED:
                        driver.finish()
                        return
                    continue
                if status == 0 or status >= 500:
                    run.errors["pick_failed"] += 1
                    if ctx.transport == "socket" and (self.ws is None or self.ws.closed) and not ctx.over():
                        await self.connect()  # like the page: open the socket again
                code = ((body or {}).get("errors") or [{}])[0].get("code") if body else None
                if code:
                    run.refusals[code] += 1
                    if code not in BENIGN_REFUSALS:
                        run.errors[f"refused_{code}"] += 1
                    elif in_time:
                        run.sent_in_time_lost += 1
                view = None
                continue
            if state in FINISHED or driver.finished:
                return
            if state == "reviewing":
                await driver.advance(ctx, view["pod"]["round"])
            # Wait for the pack to reach us: the ``queue`` push (or the driver: pod finished).
            self.pushed.clear()
            if self.push is not None and self.push[0] > view["version"] and self.push[1]:
                continue
            try:
                await asyncio.wait_for(self.pushed.wait(), timeout=min(ctx.stall_seconds, max(0.05, ctx.left())))
            except TimeoutError:
                if ctx.left() < 0.05 or driver.finished:  # timers may fire a hair early
                    return
                heard = self.connection.last_heard if self.connection is not None else 0.0
                if time.monotonic() - heard < ctx.stall_seconds and not (self.ws is None or self.ws.closed):
                    continue  # the pod is moving (its socket hears changes): keep waiting
                run.fallback_fetches += 1
                view = await self.fetch_view()
                if view is not None and view["queue"] and not view["queue"][0].get("waiting"):
                    run.fallback_found_pack += 1  # a pack no push announced: how long it waited
                    front = view["queue"][0]
                    run.unannounced[front["pack_id"]] = (
                        time.monotonic(),
                        front.get("deadline"),
                        front.get("cards_left"),
                        view["version"],
                    )
                continue
            if driver.finished:
                return
            if self.ws is not None and self.ws.closed and not ctx.over():
                await self.connect()
                view = None


class PodDriver:
    """The pod's organiser client (ends reviews) and the pass direction."""

    def __init__(self, pod_id: int, seats: list[dict], players: list[Player]) -> None:
        self.pod_id = pod_id
        self.by_position = {s["position"]: s for s in seats}
        self.players = players
        self.advanced: set[int] = set()
        self.finished = False

    def neighbour(self, position: int, round_number: int) -> int:
        count = len(self.by_position)
        return self.by_position[(position + (1 if round_number % 2 else -1)) % count]["id"]

    def finish(self) -> None:
        self.finished = True
        for player in self.players:
            player.wake()

    async def advance(self, ctx: Context, round_number: int) -> None:
        if round_number in self.advanced:
            return
        self.advanced.add(round_number)
        started = time.monotonic()
        try:
            async with ctx.session.post(
                f"{ctx.base}/api/pods/{self.pod_id}/advance/", headers={"Authorization": f"Token {ctx.organiser_token}"}
            ) as response:
                await response.read()
                if response.status >= 500:
                    ctx.run.errors[f"advance_failed_{response.status}"] += 1
        except Exception as error:
            ctx.run.errors[f"advance_failed_{type(error).__name__}"] += 1
            ctx.run.note_error(f"advance of pod {self.pod_id}: {error!r}")
        ctx.run.advances.append(time.monotonic() - started)


class Context:
    def __init__(self, args, base: str, setup: dict, think, seconds: float, run: Run) -> None:
        self.base = base
        self.transport = args.transport
        self.think = think
        self.click_delay = args.click_delay
        self.deadline_margin = args.deadline_margin if think else -1
        self.answer_timeout = args.answer_timeout
        self.stall_seconds = args.stall_seconds or ((2 * think[1] + 5) if think else 5.0)
        self.heartbeat = args.heartbeat_seconds
        self.snapshot_timeout = args.snapshot_timeout
        self.organiser_token = setup["organiser_token"]
        self.seconds = seconds
        self.stop_at = float("inf")
        self.run = run
        self.session: Any = None  # aiohttp sessions, opened by the run
        self.socket_session: Any = None

    def over(self) -> bool:
        return time.monotonic() >= self.stop_at

    def left(self) -> float:
        return self.stop_at - time.monotonic()


async def drive(args, servers: Servers | External, meter: Meter, setup: dict, think, seconds: float) -> dict:
    import aiohttp

    run = Run()
    ctx = Context(args, servers.base, setup, think, seconds, run)
    by_pod: dict[int, list[dict]] = defaultdict(list)
    for seat in setup["seats"]:
        by_pod[seat["pod"]].append(seat)
    page = args.client == "page"
    stats = page_client.PageStats()  # the page client's own counters (unused by the API client)
    players: dict[int, Any] = {
        seat["id"]: page_client.PagePlayer(seat, run, ctx, stats) if page else Player(seat, run, ctx)
        for seat in setup["seats"]
    }
    observers = observer_pages(setup, by_pod, args.observers, run, ctx, stats) if page else []
    drivers = {pod: PodDriver(pod, seats, [players[s["id"]] for s in seats]) for pod, seats in by_pod.items()}
    timeout = aiohttp.ClientTimeout(total=args.answer_timeout)
    async with (
        # Idle connections are let go before uvicorn's keep-alive (5 s) closes them: reusing one
        # the server is closing is a reset connection, a client's error and not the server's.
        aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=200, keepalive_timeout=3), timeout=timeout
        ) as session,
        aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0), timeout=aiohttp.ClientTimeout(total=None, sock_connect=30)
        ) as socket_session,
    ):
        ctx.session, ctx.socket_session = session, socket_session
        # The pages open: every seat socket, then each page's first read of its queue (API
        # clients) or its snapshot and card sheet (pages: no snapshot stops the run).
        gate = asyncio.Semaphore(64)

        async def open_page(player):
            async with gate:
                if page:
                    await player.open()
                    return None
                await player.connect()
                return await player.fetch_view()

        watch = PublishWatch(args.redis_url, setup["pods"])
        await watch.start()
        views = await asyncio.gather(*(open_page(p) for p in players.values()))
        for observer in observers:
            if await observer.connect():
                try:
                    await observer.wait_for_snapshot(ctx.snapshot_timeout)
                except page_client.NoStateDialect as error:  # a dashboard may send summaries only
                    run.note_error(f"observer: {error}")
        for _ in range(100):  # every socket has had its connect message
            if all(c.connect_version is not None for c in run.connections):
                break
            await asyncio.sleep(0.05)
        idle = None
        if args.idle_seconds > 0:  # what the system costs with every page open and nobody picking
            await asyncio.sleep(3)  # the processes have just started: let them settle first
            idle_before = meter.sample()
            await asyncio.sleep(args.idle_seconds)
            idle = (idle_before, meter.sample())
        # The generator's own garbage collections (its 1,000 sockets, setup data and records)
        # paused its loop for up to 0.27 s and stamped answers late: none during the window
        # (reference counting still frees almost everything; the cycles wait for its end).
        gc.collect()
        gc.freeze()
        gc.disable()
        meter.reset_statements()
        before = meter.sample()
        balanced = servers.open_connections()  # every page open: where the balancer put them
        started = time.monotonic()
        ctx.stop_at = started + seconds
        # The organiser starts every pod now; each page hears its first pack pushed.
        stats.phase = "window"
        starting = asyncio.ensure_future(asyncio.to_thread(start_pods, setup, meter))
        pages = [*players.values(), *observers]
        heartbeats = [asyncio.ensure_future(p.heartbeat()) for p in pages] if ctx.heartbeat else []
        heartbeats.append(asyncio.ensure_future(watch_loop_lag(run)))
        await asyncio.gather(*(p.play(view, drivers[p.seat["pod"]]) for p, view in zip(players.values(), views)))
        start_cpu = await starting
        for task in heartbeats:
            task.cancel()
        elapsed = time.monotonic() - started
        window_end = time.time()
        stats.phase = "after"
        gc.enable()
        gc.unfreeze()
        await asyncio.sleep(2)  # the last pushes in flight
        after = meter.sample()
        run.stopping = True
        published = await watch.stop()
        notifications = {**(page_notifications(stats) if page else run.notifications()), **published}
        await asyncio.gather(*(p.close() for p in pages), return_exceptions=True)
    await asyncio.sleep(max(0.0, started + elapsed + 11 - time.monotonic()))
    after.update(meter.sample_db())
    usage = Meter.difference(before, after, run.picks)
    usage["statements"] = meter.top_statements(run.picks)
    # The pods were started in this process: that is the organiser's work, not the players'.
    usage["pod_start_cpu_seconds_in_generator"] = round(start_cpu, 2)
    generator = usage["cpu_seconds"]["generator"] - start_cpu
    usage["cpu_seconds"]["generator"] = round(generator, 2)
    usage["cpu_ms_per_pick"]["generator"] = round(generator * 1000 / run.picks, 3) if run.picks else None
    if idle is not None:
        # Net of idle: the window's CPU minus what the same seconds cost with nobody picking.
        rate = Meter.difference(idle[0], idle[1], 1)
        scale = usage["seconds"] / rate["seconds"]
        usage["idle_cpu_ms_per_second"] = {
            k: round(v * 1000 / rate["seconds"], 1) for k, v in rate["cpu_seconds"].items()
        }
        usage["cpu_ms_per_pick_net_of_idle"] = {
            k: round((usage["cpu_seconds"][k] - rate["cpu_seconds"][k] * scale) * 1000 / run.picks, 3)
            if run.picks
            else None
            for k in usage["cpu_seconds"]
        }
    return {
        "window": {
            "seconds": round(elapsed, 1),
            "started_wall": time.time() - (time.monotonic() - started),
            "ended_wall": window_end,
            "cap_seconds": seconds,
        },
        "picks": run.picks,
        "picks_per_second": round(run.picks / elapsed, 1) if elapsed else None,
        "pods_finished": sum(d.finished for d in drivers.values()),
        "balancer_open_connections": balanced,
        "ack_ms": percentiles(run.ack),
        "generator_loop_lag_ms": percentiles(run.loop_lag),
        # pick sent -> the next seat told (API: hears the version; page: its state shows the pack first)
        "told_ms": percentiles(stats.told_front if page else run.told),
        **({"page": stats.summary(run.picks, elapsed, percentiles)} if page else {}),
        "notifications": notifications,
        "statuses": {str(k): v for k, v in sorted(run.statuses.items(), key=str)},
        "refusals": dict(run.refusals),
        "errors": {"total": sum(run.errors.values()), **dict(run.errors)},
        "error_samples": run.error_samples,
        "picks_sent_in_time_but_refused": run.sent_in_time_lost,
        "fallback_queue_reads": run.fallback_fetches,
        "heartbeats_sent": run.heartbeats,
        "organiser_advance_ms": percentiles(run.advances),
        "fallback_reads_that_found_a_pack": run.fallback_found_pack,
        "unannounced_packs": {
            "pushed_later": len(run.late_pushes),
            "pushed_later_after_ms": percentiles(run.late_pushes),
            "never_pushed": len(run.unannounced),
            "examples": [
                {"pack": k, "deadline": v[1], "cards_left": v[2], "view_version": v[3]}
                for k, v in list(run.unannounced.items())[:5]
            ],
        },
        "usage": usage,
        "_pushed_packs": stats.pushed_packs if page else run.pushed_packs,
        "_acked": run.acked,
        "_max_heard": {
            pod: stats.max_version.get(pod, -1)
            if page
            else max((c.max_version for c in run.connections if c.pod == pod), default=-1)
            for pod in setup["pods"]
        },
    }


def observer_pages(setup: dict, by_pod: dict, count: int, run: Run, ctx: Context, stats) -> list:
    """Pages that only watch: the pod page of a seated player in the first ``count`` pods, and
    the organiser's dashboard of the event."""
    from drafts import live

    if count <= 0:
        return []
    found = [
        page_client.Observer("pod_member", run, ctx, stats, live.pod_socket(pod), seats[0]["session"])
        for pod, seats in sorted(by_pod.items())[:count]
    ]
    found.append(
        page_client.Observer(
            "event_staff",
            run,
            ctx,
            stats,
            live.event_socket(setup["event"]),
            setup["organiser_session"],
        )
    )
    return found


def page_notifications(stats) -> dict:
    """What the seat pages' state rule counted, in the shape of the API client's notifications."""
    rule: Counter[str] = Counter()
    for kind, state in stats.states:
        if kind == "seat":
            rule.update(state.counters())
    return {
        "sockets": stats.pages["seat"],
        "sockets_closed_early": sum(n for key, n in stats.closed_by_server.items() if key.startswith("seat ")),
        **dict(rule),
        "not_heard": rule["versions_missed"],
        "heard_twice": rule["applied_twice"],
        "told_never": len(stats.pending_front),
    }


# --- checks and profile ----------------------------------------------------------------


def conservation(event_id: int, window: dict, acked: list[tuple[int, int]] | None = None) -> dict:
    from django.db import OperationalError, connection, transaction

    # The pods still draft (clocks run out after the window): read them as one snapshot, or a
    # pick between two of the check's queries looks like a broken pile.
    for attempt in (1, 2):
        try:
            with transaction.atomic():
                with connection.cursor() as cursor:
                    cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                return _conservation(event_id, window, acked)
        except OperationalError:  # an outage dropped the pool's idle connections: open new ones
            if attempt == 2:
                raise
            connection.close()
            close_pool = getattr(connection, "close_pool", None)  # PostgreSQL's pool (Django 5.1+)
            if close_pool is not None:
                close_pool()
    raise AssertionError("unreachable")


def _conservation(event_id: int, window: dict, acked: list[tuple[int, int]] | None) -> dict:
    from django.db.models import Count

    from drafts.models import Pick, Pod
    from drafts.simulation import check_conservation

    problems = {}
    for pod in Pod.objects.filter(event_id=event_id):
        found = check_conservation(pod)
        if found:
            problems[pod.pk] = found
    picks = Pick.objects.filter(seat__pod__event_id=event_id)
    ended = dt.datetime.fromtimestamp(window["ended_wall"], tz=dt.UTC)
    duplicates = picks.values("draft_card_id").order_by().annotate(n=Count("pk")).filter(n__gt=1).count()
    return {
        "pods_checked": Pod.objects.filter(event_id=event_id).count(),
        "problems": {str(k): v for k, v in problems.items()},
        "picks_by_kind": dict(Counter(picks.values_list("kind", flat=True))),
        "timeout_picks_in_window": picks.filter(kind="timeout", made_at__lte=ended).count(),
        "duplicated_picks": duplicates,
        # every pick a page was told was made is in the database (a host lost mid-pick included)
        "acknowledged_picks_missing": len(set(acked or ()) - set(picks.values_list("seat_id", "draft_card_id"))),
        "seats_with_a_pick_number_twice": picks.values("seat_id", "round", "pick_number")
        .order_by()
        .annotate(n=Count("pk"))
        .filter(n__gt=1)
        .count(),
    }


def foreign_messages(pushed_packs: set, max_heard: dict) -> dict:
    """Messages that were not this run's: a pushed pack of another pod (or site), a version
    beyond what the pod ever reached. Live updates on a Redis server shared with other sites or
    databases must stay out of this run's sockets (hidden information)."""
    from drafts.models import Pack, Pod

    pods_of = dict(
        Pack.objects.filter(pk__in={pack for _, pack in pushed_packs if isinstance(pack, int)}).values_list(
            "pk", "pod_id"
        )
    )
    foreign_packs = sum(1 for pod, pack in pushed_packs if pods_of.get(pack) != pod)
    versions = dict(Pod.objects.filter(pk__in=list(max_heard)).values_list("pk", "version"))
    beyond = sum(1 for pod, heard in max_heard.items() if heard > versions.get(pod, -1))
    return {"pushed_packs_of_another_pod": foreign_packs, "pods_heard_beyond_their_version": beyond}


def _call(function, **kwargs):
    """Call a service with the arguments it takes (the engine's signature may grow)."""
    accepted = inspect.signature(function).parameters
    return function(**{k: v for k, v in kwargs.items() if k in accepted})


def profile_pick(args) -> dict:
    """One pod, in process: 40 picks through the service the socket calls (queries, CPU,
    cProfile), then 40 through the HTTP view with the full Django stack (queries, CPU)."""
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from drafts import services
    from drafts.models import DraftCard, Pack

    User = get_user_model()

    def head(seat_id: int):
        pack = Pack.objects.filter(holder_id=seat_id).order_by("queue_seq").first()
        card = DraftCard.objects.in_pack(pack).first() if pack else None
        return pack, card

    result: dict[str, Any] = {}
    profiler = cProfile.Profile()
    for path in ("service", "http"):
        setup = create_event(args, f"profile {path}", players=8)
        seats = setup["seats"]
        users = {u.pk: u for u in User.objects.filter(pk__in=[s["user"] for s in seats])}
        client = Client()
        queries, cpu = [], []
        for _ in range(5):
            for seat in seats:
                pack, card = head(seat["id"])
                if pack is None:
                    continue
                user = users[seat["user"]]
                with CaptureQueriesContext(connection) as captured:
                    started = time.process_time()
                    if path == "service":
                        profiler.enable()
                        picked = _call(
                            services.make_pick,
                            seat_id=seat["id"],
                            draft_card_id=card.pk,
                            pack_id=pack.pk,
                            actor=user,
                            owner=user,
                        )
                        if hasattr(picked, "answer"):  # the body the socket sends
                            picked.answer()
                        profiler.disable()
                    else:
                        response = client.post(
                            f"/api/seats/{seat['id']}/picks/",
                            {"card": card.pk, "pack": pack.pk},
                            content_type="application/json",
                            HTTP_AUTHORIZATION=f"Token {seat['token']}",
                        )
                        assert response.status_code == 201, response.content
                    cpu.append(time.process_time() - started)
                queries.append(len(captured))
                if len(queries) == 1:
                    result[f"{path}_first_pick_sql"] = [q["sql"][:300] for q in captured.captured_queries]
        result[path] = {
            "picks": len(queries),
            "queries_per_pick": statistics.median(queries) if queries else None,
            "queries_max": max(queries) if queries else None,
            "cpu_ms_per_pick": round(statistics.median(cpu) * 1000, 2) if cpu else None,
        }
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(30)
    result["service_profile"] = out.getvalue()
    return result


# --- results ------------------------------------------------------------------------------


def run_name(mode: str, players: int, web: int, transport: str, client: str = "api", balancer: bool = False) -> str:
    return (
        f"draft_load_{mode}_{players}p_{web}web"
        + ("_lb" if balancer else "")
        + ("_http" if transport == "http" else "")
        + ("_page" if client == "page" else "")
    )


TABLE_HEADER = (
    "| run | transport | web processes | players | picks/s | ack p50 / p99 | next seat told p50 / p99 "
    "| not heard / twice | errors | timeout picks | CPU ms/pick web / PostgreSQL / all | RSS web+worker |\n"
    "|---|---|---|---|---|---|---|---|---|---|---|---|"
)
PAGE_TABLE_HEADER = (
    "| run | client | web processes | players | picks/s | ack p50 / p99 "
    "| next seat's page holds the pack: in its queue p50 / p99; at its front p50 / p99 "
    "| HTTP requests per pick | seat page frames / KB per pick | versions missed / applied twice | errors "
    "| closed by server | timeout picks | CPU ms/pick web / PostgreSQL / all | RSS web+worker |\n"
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
)


def fmt_ms(value) -> str:
    if value is None:
        return "–"
    return f"{value / 1000:.2f} s" if value >= 1000 else f"{value:.1f} ms"


def stack_name(args) -> str:
    """The web processes' ASGI server and websocket implementation."""
    if getattr(args, "base_url", None):
        return "as the site runs"
    if getattr(args, "web_server", "uvicorn") == "granian":
        return "granian"
    return f"uvicorn, ws {args.ws}" if getattr(args, "ws", None) else "uvicorn, ws auto"


def run_label(result: dict) -> str:
    window = result["window"]
    if result["mode"] == "event":
        label = f"event ({result['think'][0]:g}-{result['think'][1]:g} s thinking)"
    else:
        label = {"saturation": "saturation", "scaling": "saturation (scaling)"}[result["mode"]]
    # What the figure stands for, always said (issue 48): the site's history, the page's click
    # delay, the web processes and the balancer, PostgreSQL's autovacuum.
    history_events = result.get("history_events")
    delay = result.get("click_delay_s")
    postgres = result.get("postgres") or {}
    return (
        label
        + f", {window['seconds']:.0f} s"
        + (", all pods drafted" if result["pods_finished"] == result["pods"] else "")
        + (
            ""
            if history_events is None
            else f"; history {history_events}"
            + (" (finished 1,000-player events)" if history_events else " (empty site)")
        )
        + (
            ""
            if delay is None
            else f"; click delay {delay * 1000:.0f} ms"
            if delay
            else "; click delay 0 (picks at once)"
        )
        + f"; {result['web_workers']} web processes"
        + (f" ({result['server']['stack']})" if result.get("server", {}).get("stack") else "")
        + (" behind HAProxy" if result.get("server", {}).get("balancer") else ", no balancer")
        + (f"; autovacuum {postgres['autovacuum']}" if postgres.get("autovacuum") else "")
        + (" (bench's own PostgreSQL)" if postgres.get("own_cluster") else "")
    )


def header_for(result: dict) -> str:
    return PAGE_TABLE_HEADER if result.get("client") == "page" else TABLE_HEADER


def table_row(result: dict) -> str:
    if result.get("client") == "page":
        return page_table_row(result)
    notes = result["notifications"]
    cpu = result["usage"]["cpu_ms_per_pick"]
    return (
        f"| {run_label(result)} | {result['transport']} | {result['web_workers']} | {result['players']:,} "
        f"| {result['picks_per_second']} | {fmt_ms(result['ack_ms']['p50'])} / {fmt_ms(result['ack_ms']['p99'])} "
        f"| {fmt_ms(result['told_ms']['p50'])} / {fmt_ms(result['told_ms']['p99'])} "
        f"| {notes['not_heard']} / {notes['heard_twice']} | {result['errors']['total']} "
        f"| {result['conservation']['timeout_picks_in_window']} "
        f"| {cpu['web']} / {cpu['postgres']} / {cpu['server_total']} "
        f"| {result['memory']['total_rss_mb']:.0f} MB |"
    )


def page_table_row(result: dict) -> str:
    page, notes = result["page"], result["notifications"]
    cpu = result["usage"]["cpu_ms_per_pick"]
    seat = page["by_kind_of_page"].get("seat", {})
    kb = seat.get("bytes_per_pick")
    closed = sum(page["closed_by_server"].values())
    return (
        f"| {run_label(result)} | page | {result['web_workers']} | {result['players']:,} "
        f"| {result['picks_per_second']} | {fmt_ms(result['ack_ms']['p50'])} / {fmt_ms(result['ack_ms']['p99'])} "
        f"| {fmt_ms(page['told_queue_ms']['p50'])} / {fmt_ms(page['told_queue_ms']['p99'])}; "
        f"{fmt_ms(result['told_ms']['p50'])} / {fmt_ms(result['told_ms']['p99'])} "
        f"| {page['http_requests_per_pick']} "
        f"| {seat.get('frames_per_pick')} / {round(kb / 1024, 2) if kb is not None else None} "
        f"| {notes['versions_missed']} / {notes['applied_twice']} | {result['errors']['total']} | {closed} "
        f"| {result['conservation']['timeout_picks_in_window']} "
        f"| {cpu['web']} / {cpu['postgres']} / {cpu['server_total']} "
        f"| {result['memory']['total_rss_mb']:.0f} MB |"
    )


def text_report(result: dict) -> list[str]:
    page = result.get("client") == "page"
    lines = [
        f"draft_load {result['mode']}: {result['players']} players ({result['pods']} pods), "
        f"{result['web_workers']} web process(es), "
        + ("page clients (state dialect)" if page else f"API clients, picks over {result['transport']}")
        + f", {result['machine']['cores']} cores",
        f"  as: {run_label(result)}",
        f"  server: {' '.join(result['server']['web'][2:])}",
        f"  {result['picks']} picks in {result['window']['seconds']} s = {result['picks_per_second']} picks/s; "
        f"{result['pods_finished']} of {result['pods']} pods finished",
        f"  acknowledgement p50 {result['ack_ms']['p50']} ms, p95 {result['ack_ms']['p95']} ms, "
        f"p99 {result['ack_ms']['p99']} ms (max {result['ack_ms']['max']} ms); the generator's own loop woke late "
        f"p50 {result['generator_loop_lag_ms']['p50']} ms, p99 {result['generator_loop_lag_ms']['p99']} ms "
        f"(max {result['generator_loop_lag_ms']['max']} ms)",
    ]
    lines += page_lines(result) if page else api_lines(result)
    statements = result.get("usage", {}).get("statements")
    if statements:
        lines.append("  statements by execution time (pg_stat_statements, nested too), per pick:")
        lines += [
            f"    {st['ms_per_pick']:.4f} ms, {st['calls_per_pick']} calls, {st['rows_per_call']} rows and "
            f"{st['blocks_per_call']} blocks a call: {st['query'][:160]}"
            for st in statements
        ]
    return lines + common_lines(result)


def api_lines(result: dict) -> list[str]:
    notes = result["notifications"]
    return [
        f"  pick -> next seat told p50 {result['told_ms']['p50']} ms, p95 {result['told_ms']['p95']} ms, "
        f"p99 {result['told_ms']['p99']} ms ({result['told_ms']['count']} measured, {notes['told_never']} never told)",
        f"  notifications: {notes['sockets']} sockets ({notes['sockets_closed_early']} closed early), "
        f"{notes['changed_messages']} changed + {notes['queue_pushes']} queue pushes; not heard {notes['not_heard']} "
        f"picks ({notes['not_heard_deliveries']} socket deliveries), heard twice {notes['heard_twice']}, "
        f"skipped {notes['skipped']}, queue pushes twice {notes['queue_pushes_twice']}; published "
        f"{notes.get('published')} pod versions, {notes.get('published_out_of_order')} out of order, "
        f"{notes.get('published_twice')} twice",
        f"  errors {result['errors']['total']} {json.dumps({k: v for k, v in result['errors'].items() if k != 'total'})}; "
        f"refusals {json.dumps(result['refusals'])}; picks sent in time but refused "
        f"{result['picks_sent_in_time_but_refused']}; fallback queue reads {result['fallback_queue_reads']} "
        f"({result['fallback_reads_that_found_a_pack']} found a pack: {result['unannounced_packs']['pushed_later']} "
        f"pushed later, {result['unannounced_packs']['never_pushed']} never); organiser's advance p50 "
        f"{result['organiser_advance_ms']['p50']} ms, max {result['organiser_advance_ms']['max']} ms "
        f"({result['organiser_advance_ms']['count']})",
    ]


def page_lines(result: dict) -> list[str]:
    page, notes, told, queue = (
        result["page"],
        result["notifications"],
        result["told_ms"],
        result["page"]["told_queue_ms"],
    )
    lines = [
        f"  pick -> next seat's page holds the pack at the front p50 {told['p50']} ms, p95 {told['p95']} ms, "
        f"p99 {told['p99']} ms ({told['count']} measured, {page['told_never']} never); the pack anywhere in its "
        f"queue p50 {queue['p50']} ms, p99 {queue['p99']} ms",
        f"  HTTP requests of the pages {sum(page['http_requests'].values())} {json.dumps(page['http_requests'])} "
        f"= {page['http_requests_per_pick']} per pick ({page['http_requests_per_pick_in_window']} per pick in the "
        f"window; {page['http_bytes']} bytes); card ids missing from the sheet {page['missing_card_ids']}, "
        f"printings {page['missing_printing_ids']}; "
        f"sheets unreadable {page['card_sheet_unreadable']}",
        f"  seat pages' state rule: {json.dumps(page['state_rule'].get('seat', {}))}; syncs sent on a gap "
        f"{page['gap_syncs']}, after the state stood still {page['stall_syncs']}; published "
        f"{notes.get('published')} pod versions, {notes.get('published_out_of_order')} out of order, "
        f"{notes.get('published_twice')} twice",
    ]
    for kind, entry in page["by_kind_of_page"].items():
        window = entry.get("window", {"frames": {}, "bytes": {}})
        lines.append(
            f"  {kind} pages ({entry['pages']}): {entry.get('frames_per_pick')} frames and "
            f"{entry.get('bytes_per_pick')} bytes per pick, {entry.get('frames_per_second')} frames and "
            f"{entry.get('bytes_per_second')} bytes per second ({entry.get('frames_per_page_per_second')} frames and "
            f"{entry.get('bytes_per_page_per_second')} bytes per page per second); in the window by type: frames "
            f"{json.dumps(window['frames'])}, bytes {json.dumps(window['bytes'])}; on opening: "
            f"{json.dumps(entry.get('setup', {}).get('bytes', {}))} bytes"
        )
        if kind != "seat" and kind in page["state_rule"]:
            lines.append(f"    {kind} state rule: {json.dumps(page['state_rule'][kind])}")
    lines.append(
        f"  errors {result['errors']['total']} {json.dumps({k: v for k, v in result['errors'].items() if k != 'total'})}; "
        f"refusals {json.dumps(result['refusals'])}; picks sent in time but refused "
        f"{result['picks_sent_in_time_but_refused']}; sockets closed by the server {json.dumps(page['closed_by_server'])}, "
        f"reopened {page['reconnects']}; readies {page['readies']} (answer p50 {page['ready_ack_ms']['p50']} ms, "
        f"p99 {page['ready_ack_ms']['p99']} ms)"
    )
    return lines


def common_lines(result: dict) -> list[str]:
    usage, cons = result["usage"], result["conservation"]
    cpu = usage["cpu_ms_per_pick"]
    lines = [
        *(f"  error: {sample}" for sample in result.get("error_samples") or ()),
        *(
            [f"  HAProxy's open connections per web server as the window began: {json.dumps(balanced)}"]
            if (balanced := result.get("balancer_open_connections"))
            else []
        ),
        f"  foreign live messages (another site or test on the same Redis): {json.dumps(result.get('foreign_messages'))}",
        f"  timeout picks made in the window {cons['timeout_picks_in_window']}; picks by kind {json.dumps(cons['picks_by_kind'])}; "
        f"conservation problems in {len(cons['problems'])} of {cons['pods_checked']} pods; "
        f"{cons['duplicated_picks']} duplicated picks",
        "  CPU ms per pick: "
        + ", ".join(f"{k} {v}" for k, v in cpu.items())
        + f" (over {usage['seconds']} s; postgres = this database's backends + server background processes)",
        "  CPU ms per pick net of idle: "
        + ", ".join(f"{k} {v}" for k, v in usage.get("cpu_ms_per_pick_net_of_idle", {}).items())
        + f" (idle CPU ms per second: {json.dumps(usage.get('idle_cpu_ms_per_second'))})",
        f"  database per pick: {usage['db']['xact_per_pick']} transactions, {usage['db']['rows_written_per_pick']} rows "
        f"written, {usage['db'].get('rows_read_per_pick')} rows read and {usage['db'].get('blocks_per_pick')} blocks "
        f"(all include starting the pods and the beat's sweeps); functions {json.dumps(usage['functions'])}",
        f"  memory at the end: web {result['memory']['web']}, worker+beat {result['memory']['worker_and_beat']} "
        f"(worker {result['memory'].get('worker')}, beat {result['memory'].get('beat')}), "
        f"total RSS {result['memory']['total_rss_mb']} MB (PSS {result['memory']['total_pss_mb']} MB)",
    ]
    profile = result.get("profile")
    if profile:
        lines.append(
            f"  in-process profile: service path {profile['service']['queries_per_pick']} queries and "
            f"{profile['service']['cpu_ms_per_pick']} ms CPU per pick; HTTP view "
            f"{profile['http']['queries_per_pick']} queries and {profile['http']['cpu_ms_per_pick']} ms CPU per pick"
        )
    return lines


def summary_of(result):
    """A result without its per-pick records (keys starting with ``_``), at every depth."""
    if isinstance(result, dict):
        return {k: summary_of(v) for k, v in result.items() if not str(k).startswith("_")}
    if isinstance(result, list):
        return [summary_of(v) for v in result]
    return result


def write_result(args, result: dict) -> None:
    directory = Path(args.results_dir)
    directory.mkdir(parents=True, exist_ok=True)
    name = run_name(
        result["mode"],
        result["players"],
        result["web_workers"],
        result["transport"],
        result.get("client", "api"),
        bool(result["server"].get("balancer")),
    )
    # The summary (kept in git: a few KB) beside the raw result with every pick's record
    # (raw/, ignored by git: a 1,000-player saturation run's is over a megabyte).
    raw = directory / "raw"
    raw.mkdir(exist_ok=True)
    (raw / f"{name}.json").write_text(json.dumps(result, default=str) + "\n")
    (directory / f"{name}.json").write_text(json.dumps(summary_of(result), separators=(",", ":"), default=str) + "\n")
    lines = text_report(result) + ["", header_for(result), table_row(result)]
    if result.get("profile"):
        lines += [
            "",
            "SQL of one service pick (the socket's path):",
            *result["profile"].get("service_first_pick_sql", []),
            "",
            "SQL of one HTTP pick:",
            *result["profile"].get("http_first_pick_sql", []),
            "",
            result["profile"]["service_profile"],
        ]
    if result.get("web_accounting"):
        lines += ["", result["web_accounting"]]
    (directory / f"{name}.txt").write_text("\n".join(lines) + "\n")
    print(f"  -> {directory / name}.json / .txt", flush=True)


def start_pods(setup: dict, meter: Meter) -> float:
    """Start every pod of the run (the organiser), on a thread of this process; returns the
    thread's CPU seconds. Its database session is left out of PostgreSQL's share."""
    from django.contrib.auth import get_user_model
    from django.db import close_old_connections, connection

    from drafts import services

    begun = time.thread_time()
    try:
        organiser = get_user_model().objects.get(pk=setup["organiser"])
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            meter.own_pids.add(cursor.fetchone()[0])
        for pod_id in setup["pods"]:
            services.start_pod(pod_id=pod_id, actor=organiser)
    finally:
        close_old_connections()
    return time.thread_time() - begun


def pause_unfinished(setup: dict) -> None:
    """Pause the run's pods still drafting once it is measured: left running, their clocks would
    run out during the next run (scaling runs follow each other) and its worker would spend
    its CPU on their timeout picks."""
    from django.contrib.auth import get_user_model
    from django.db import close_old_connections

    from drafts import services
    from draftsite.errors import DomainError

    organiser = get_user_model().objects.get(pk=setup["organiser"])
    try:
        for pod_id in setup["pods"]:
            try:
                services.pause_pod(pod_id=pod_id, actor=organiser)
            except DomainError:  # finished (or never started): no clock runs
                pass
    finally:
        close_old_connections()


def one_run(args, mode: str, web_workers: int, seconds: float, think, *, more_follow: bool = False) -> dict:
    setup = create_event(args, f"{mode} {web_workers}web", start=False)
    pods = len(setup["pods"])
    print(
        f"{mode}: {len(setup['seats'])} players in {pods} pods, {web_workers} web process(es), "
        + ("page clients" if args.client == "page" else f"API clients picking over {args.transport}")
        + "; starting servers ...",
        flush=True,
    )
    servers = External(args) if args.base_url else Servers(args, web_workers)
    meter = None
    try:
        meter = Meter(args, servers)
        if importlib.util.find_spec("uvloop"):
            import uvloop

            with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
                if args.profile_generator:
                    generator = cProfile.Profile()
                    summary = generator.runcall(runner.run, drive(args, servers, meter, setup, think, seconds))
                    out = io.StringIO()
                    pstats.Stats(generator, stream=out).sort_stats("tottime").print_stats(25)
                    print(out.getvalue(), flush=True)
                else:
                    summary = runner.run(drive(args, servers, meter, setup, think, seconds))
        else:
            summary = asyncio.run(drive(args, servers, meter, setup, think, seconds))
        summary["memory"] = meter.memory()
    finally:
        if meter is not None:
            meter.close()
        servers.stop()
    result = {
        "mode": mode,
        "client": args.client,
        "transport": args.transport,
        "players": len(setup["seats"]),
        "pods": pods,
        "web_workers": web_workers,
        "think": list(think) if think else None,
        # What the figures stand for: a browser's click delay, a site's history.
        "click_delay_s": args.click_delay if args.client == "page" else None,
        "history_events": args.history if not args.base_url else None,
        "postgres": getattr(args, "postgres_settings", None),
        "machine": {"cores": os.cpu_count(), "load_average_at_end": os.getloadavg()},
        "server": {
            "web": servers.web_command[1:],
            "stack": stack_name(args),
            "worker_pool": args.worker_pool,
            "beat": args.beat,
            "balancer": "haproxy deploy/haproxy.cfg" if getattr(servers, "balancer", None) else None,
        },
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        **summary,
    }
    result["conservation"] = conservation(setup["event"], summary["window"], summary.pop("_acked"))
    # Our servers have stopped: only the next run's worker would see these clocks. A site that
    # keeps running (``--base-url``) would time their seats out meanwhile.
    if more_follow or args.base_url:
        pause_unfinished(setup)
    result["foreign_messages"] = foreign = foreign_messages(result.pop("_pushed_packs"), result.pop("_max_heard"))
    if foreign["pushed_packs_of_another_pod"]:  # another seat's cards on this seat's socket
        result["errors"]["foreign_packs_pushed"] = foreign["pushed_packs_of_another_pod"]
        result["errors"]["total"] += foreign["pushed_packs_of_another_pod"]
    if getattr(args, "account_web", None):
        result["web_accounting"] = accounted_asgi.table(args.account_web)
    for line in text_report(result):
        print(line, flush=True)
    if result.get("web_accounting"):
        print(result["web_accounting"], flush=True)
    return result


def main(argv=None) -> None:
    args = parse_args(argv)
    args.cluster = None
    if args.database_url is None:  # PostgreSQL as deploy/ runs it, this run's alone
        if args.base_url:
            raise SystemExit("--base-url drives a site that runs already: give its --database-url")
        args.cluster = pgcluster.Cluster(f"bench-{ROOT.name}", statements=args.pg_statements)
        print(f"Starting the bench's PostgreSQL in {args.cluster.data} ...", flush=True)
        args.cluster.start()
        args.database_url = args.cluster.url("draftsite_bench")
    try:
        run_all(args)
    finally:
        if args.cluster is not None:
            args.cluster.stop()


def cached_database(args) -> str:
    """The name of the bench cluster's finished database for this run's shape and code."""
    key = pgcluster.schema_digest(*cache_shape(args))
    return f"draftsite_bench_cached_h{args.history}_{key}"


def cache_shape(args) -> tuple[str, ...]:
    # Not the number of players: prepare() adds the bench players a copy lacks, so one build
    # serves every size ("1000" keeps the names of the builds made before this was so).
    return (args.set_code, "1000", str(args.history), "prepare-1")


def run_all(args) -> None:
    print(f"Preparing {args.database_url} ...", flush=True)
    build_cache = None
    seeded = False
    if not args.base_url:  # a site that runs already keeps its database, queue and layer
        if not (args.keep_database and database_exists(args.database_url)):
            admin, name = admin_url(args.database_url), args.database_url.rsplit("/", 1)[1]
            cached = cached_database(args) if args.cluster is not None else None
            older = None
            if cached and not pgcluster.database_exists(admin, cached):
                # Code with more migrations: an older build of the same rows, migrated forward
                # (writing 20 events again takes minutes).
                older = pgcluster.forward_base(admin, pgcluster.rows_digest(*cache_shape(args)))
            if cached and (older or pgcluster.database_exists(admin, cached)):
                took = pgcluster.copy_database(admin, older or cached, name)
                print(
                    f"Copied {older or cached} (schema, cards, players, {args.history} events) in {took:.1f} s"
                    + (": migrating it forward" if older else ""),
                    flush=True,
                )
                seeded = True
                build_cache = cached if older else None
            else:
                recreate_database(args.database_url)
                build_cache = cached
        import redis

        redis.Redis.from_url(args.redis_url).flushdb()  # no tasks left from an earlier run
    setup_django(args)
    prepare(args)
    if args.history and not args.base_url and not seeded:
        print(f"Writing {args.history} finished events (bench/history.py) ...", flush=True)
        print(history.seed(args.database_url, args.history, set_code=args.set_code), flush=True)
    if build_cache:
        from django.db import connections

        connections.close_all()  # a template has nobody connected: nor the pool's idle connections
        for connection in connections.all():
            if hasattr(connection, "close_pool"):
                connection.close_pool()
        took = pgcluster.copy_database(admin_url(args.database_url), args.database_url.rsplit("/", 1)[1], build_cache)
        pgcluster.label_rows(admin_url(args.database_url), build_cache, pgcluster.rows_digest(*cache_shape(args)))
        print(f"Kept a copy as {build_cache} for the next run ({took:.1f} s)", flush=True)
    args.postgres_settings = postgres_settings(args)
    plan: list[tuple] = []
    if args.mode in ("saturation", "both"):
        plan.append(("saturation", args.web_workers, args.saturation_seconds, None))
    if args.mode in ("event", "both"):
        plan.append(("event", args.web_workers, args.event_seconds, tuple(args.think)))
    if args.mode == "scaling":
        plan += [("scaling", int(n), args.scaling_seconds, None) for n in args.scaling_workers.split(",")]
    try:
        results = [one_run(args, *step, more_follow=index < len(plan) - 1) for index, step in enumerate(plan)]
    except page_client.NoStateDialect as error:  # nothing worth measuring: say why, loudly
        raise SystemExit(f"bench/draft_load --client page: {error}") from None
    profile = None if args.no_profile else profile_pick(args)
    if profile:
        print(f"profile: service path {profile['service']}, HTTP view {profile['http']}", flush=True)
    for result in results:
        result["profile"] = profile
        write_result(args, result)
    if args.results:
        Path(args.results).write_text(json.dumps(results, indent=2, default=str) + "\n")
    for header in dict.fromkeys(header_for(result) for result in results):
        print("\n" + header)
        for result in results:
            if header_for(result) == header:
                print(table_row(result))


if __name__ == "__main__":
    main()
