"""The site on several hosts, rehearsed on this machine: network namespaces for a load balancer
(HAProxy, deploy/haproxy.cfg), two web hosts (uvicorn; the Celery worker with beat on the
first) and a data host (its own PostgreSQL cluster and redis-server), wired by one bridge.

    deploy/rehearsal start                  # namespaces, data host, web hosts, balancer; waits for /healthz
    deploy/rehearsal status                 # hosts, processes, the balancer's view of each web host
    deploy/rehearsal run [SCENARIO ...]     # draft | failover | redis | postgres | all (see --help)
    deploy/rehearsal stop                   # stops and removes only what start made

Addresses come from 198.18.0.0/15, the range set aside for benchmarking network devices
(RFC 2544): nothing on this machine or outside uses it, and the namespaces have no default
route, so no packet of the rehearsal can leave the machine. ``REHEARSAL_NET`` (default
198.18.32) picks the /24 and ``REHEARSAL_NAME`` (default dsr) prefixes every namespace and
interface, so a test can rehearse beside a manual run. Everything made is listed in the run
directory's state.json, and stop removes exactly that.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import ipaddress
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
NAME = os.environ.get("REHEARSAL_NAME", "dsr")
NET = os.environ.get("REHEARSAL_NET", "198.18.32")
RUN_DIR = Path(os.environ.get("REHEARSAL_RUN_DIR", ROOT / "deploy" / "run" / f"rehearsal-{NAME}"))
WEB_WORKERS = int(os.environ.get("WEB_WORKERS", "1"))  # uvicorn processes per web host
DATABASE = "draftsite_bench_rehearsal"  # bench/draft_load only drives databases named draftsite_bench*
HOSTS = {"lb": 10, "web1": 11, "web2": 12, "data": 20}
WEB_HOSTS = ("web1", "web2")
GENERATOR = 1  # this (the root) namespace's address on the bridge: the players' side
PG_BIN = Path(os.environ.get("PG_BIN", "/usr/lib/postgresql/15/bin"))


class RehearsalError(SystemExit):
    """A refusal with a message for the person at the shell (exit status 1)."""

    def __init__(self, message: str) -> None:
        super().__init__(f"deploy/rehearsal: {message}")


def address(host: str) -> str:
    return f"{NET}.{HOSTS[host]}"


def namespace(host: str) -> str:
    return f"{NAME}-{host}"


def bridge() -> str:
    return f"{NAME}-br"


def lb_url() -> str:
    return f"http://{address('lb')}"


def database_url(name: str = DATABASE) -> str:
    return f"postgres://postgres@{address('data')}:5432/{name}"


def redis_url() -> str:
    return f"redis://{address('data')}:6379/0"


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def check_network() -> None:
    net = ipaddress.IPv4Network(f"{NET}.0/24")
    if not net.subnet_of(ipaddress.IPv4Network("198.18.0.0/15")):
        raise RehearsalError(f"REHEARSAL_NET={NET} is outside 198.18.0.0/15 (the benchmarking range)")
    if len(NAME) > 6 or not NAME.isalnum():
        raise RehearsalError("REHEARSAL_NAME must be 1-6 letters or digits (interface names are short)")


# --- state: everything start made ----------------------------------------------------------


def state_path() -> Path:
    return RUN_DIR / "state.json"


def load_state() -> dict[str, Any]:
    try:
        return json.loads(state_path().read_text())
    except FileNotFoundError:
        return {"namespaces": [], "links": [], "processes": {}, "postgres": None}


def save_state(state: dict[str, Any]) -> None:
    RUN_DIR.mkdir(parents=True, exist_ok=True)
    state_path().write_text(json.dumps(state, indent=2) + "\n")


def ip(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(["ip", *args], check=check, capture_output=True, text=True)


def in_ns(host: str, *command: str) -> list[str]:
    return ["ip", "netns", "exec", namespace(host), *command]


def can_create_namespaces() -> str | None:
    """None when this process may create network namespaces, else why not."""
    if shutil.which("ip") is None:
        return "the ip command (Debian package iproute2) is missing"
    if os.geteuid() != 0:
        return "creating network namespaces needs root (run it as root, or in CI as root)"
    probe = f"{NAME}-probe{os.getpid() % 1000}"
    made = ip("netns", "add", probe, check=False)
    if made.returncode != 0:
        return f"cannot create a network namespace here ({made.stderr.strip() or 'ip netns add failed'})"
    ip("netns", "del", probe, check=False)
    return None


def missing_programs() -> list[str]:
    needed = {"haproxy": "haproxy", "redis-server": "redis-server", "nft": "nftables", "runuser": "util-linux"}
    found = [
        f"{program} (Debian package {package})" for program, package in needed.items() if not shutil.which(program)
    ]
    if not (PG_BIN / "initdb").exists():
        found.append(f"{PG_BIN}/initdb (Debian package postgresql-15; or set PG_BIN)")
    return found


# --- the network -------------------------------------------------------------------------------


def make_network(state: dict[str, Any]) -> None:
    for host in HOSTS:
        if ip("netns", "pids", namespace(host), check=False).returncode == 0:
            raise RehearsalError(f"namespace {namespace(host)} exists already: deploy/rehearsal stop first")
    ip("link", "add", bridge(), "type", "bridge")
    state["links"].append(bridge())
    save_state(state)
    ip("addr", "add", f"{NET}.{GENERATOR}/24", "dev", bridge())
    ip("link", "set", bridge(), "up")
    for host in HOSTS:
        ns, outside = namespace(host), f"{NAME}-{host}"
        ip("netns", "add", ns)
        state["namespaces"].append(ns)
        save_state(state)
        ip("link", "add", outside, "type", "veth", "peer", "name", "eth0", "netns", ns)
        state["links"].append(outside)
        save_state(state)
        ip("link", "set", outside, "master", bridge(), "up")
        ip("-n", ns, "link", "set", "lo", "up")
        ip("-n", ns, "addr", "add", f"{address(host)}/24", "dev", "eth0")
        ip("-n", ns, "link", "set", "eth0", "up")
        # No default route: a namespace reaches the bridge's /24 and nothing else.


def remove_network(state: dict[str, Any]) -> None:
    for ns in reversed(state["namespaces"]):
        ip("netns", "del", ns, check=False)
    for link in reversed(state["links"]):
        ip("link", "del", link, check=False)  # a veth goes with its namespace; the bridge here
    state["namespaces"], state["links"] = [], []


# --- processes ---------------------------------------------------------------------------------


def spawn(state: dict[str, Any], name: str, host: str, command: list[str], env: dict[str, str] | None = None) -> int:
    logfile = open(RUN_DIR / f"{name}.log", "ab")  # noqa: SIM115  (the child keeps it)
    process = subprocess.Popen(
        in_ns(host, *command),
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        stdin=subprocess.DEVNULL,
        stdout=logfile,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    logfile.close()
    state["processes"][name] = {"pid": process.pid, "host": host, "command": command}
    save_state(state)
    return process.pid


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (our own child, not yet reaped) is dead too
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def namespace_pids(host: str) -> list[int]:
    found = ip("netns", "pids", namespace(host), check=False)
    return [int(p) for p in found.stdout.split()] if found.returncode == 0 else []


def stop_process(state: dict[str, Any], name: str, sig: int = signal.SIGTERM, wait: float = 15.0) -> None:
    entry = state["processes"].pop(name, None)
    if entry is None:
        return
    pid = entry["pid"]
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, sig)
    deadline = time.monotonic() + wait
    while alive(pid) and time.monotonic() < deadline:
        reap()
        time.sleep(0.1)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)
    reap()
    save_state(state)


def reap() -> None:
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass


def kill_host(state: dict[str, Any], host: str) -> list[int]:
    """SIGKILL every process on a host (a host lost: nothing gets to close a socket itself)."""
    pids = namespace_pids(host)
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    for name in [n for n, e in state["processes"].items() if e["host"] == host]:
        state["processes"].pop(name)
    save_state(state)
    reap()
    return pids


# --- the data host -----------------------------------------------------------------------------


def pg_dir() -> Path:
    """The data host's cluster: under the system's temporary folder, which the postgres user can
    reach (a run directory inside root's home or a test's tmp_path it could not)."""
    default = Path(tempfile.gettempdir()) / f"draftsite-rehearsal-{NAME}-pgdata"
    return Path(os.environ.get("REHEARSAL_PG_DIR", default))


def as_postgres(*command: str) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *command]


def start_postgres(state: dict[str, Any]) -> None:
    data = pg_dir()
    if not (data / "PG_VERSION").exists():
        data.mkdir(parents=True, exist_ok=True)
        shutil.chown(data, "postgres", "postgres")
        data.chmod(0o700)
        subprocess.run(
            as_postgres(str(PG_BIN / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust", "--no-sync"),
            check=True,
            capture_output=True,
        )
        # The rehearsal's hosts only (the bridge's /24); trust, as the data host has no other
        # way in. A real site uses scram-sha-256 and a password in DATABASE_URL.
        with open(data / "pg_hba.conf", "a") as hba:
            hba.write(f"host all all {NET}.0/24 trust\n")
    # TCP keepalives: a web host cut off mid-pick (its pick pipeline sent, no Sync yet) leaves a
    # backend waiting for it inside the transaction, holding the pod's row lock; nothing else
    # ends that wait (idle_in_transaction_session_timeout does not: the backend is "active").
    # Measured without them: a 10 s cut froze one pod, and the Celery worker's deadline sweep
    # queued behind its lock, for good. With them the backend finds its peer gone in ~20 s,
    # rolls back and the lock goes.
    options = (
        f"-c listen_addresses={address('data')} -c port=5432 -c unix_socket_directories={data}"
        " -c max_connections=200 -c shared_buffers=256MB -c track_functions=pl"
        " -c tcp_keepalives_idle=10 -c tcp_keepalives_interval=5 -c tcp_keepalives_count=2"
        " -c client_connection_check_interval=5s"
    )
    state["postgres"] = str(data)
    save_state(state)
    subprocess.run(
        in_ns(
            "data",
            *as_postgres(
                str(PG_BIN / "pg_ctl"),
                "-D",
                str(data),
                "-l",
                str(data / "server.log"),
                "-o",
                options,
                "-w",
                "-t",
                "60",
                "start",
            ),
        ),
        check=True,
        capture_output=True,
    )


def stop_postgres(state: dict[str, Any]) -> None:
    data = state.get("postgres")
    if data and (Path(data) / "postmaster.pid").exists():
        subprocess.run(
            as_postgres(str(PG_BIN / "pg_ctl"), "-D", data, "-m", "fast", "-w", "-t", "30", "stop"), capture_output=True
        )
    if data and Path(data, "PG_VERSION").exists():  # the cluster start made (the next start makes a new one)
        shutil.rmtree(data, ignore_errors=True)
    state["postgres"] = None


def start_redis(state: dict[str, Any]) -> None:
    spawn(
        state,
        "redis",
        "data",
        [
            "redis-server",
            "--bind",
            address("data"),
            "--port",
            "6379",
            "--save",
            "",
            "--appendonly",
            "no",
            "--protected-mode",
            "no",
            "--dir",
            str(RUN_DIR),
        ],
    )
    wait_until(lambda: tcp_open(address("data"), 6379), 20, "Redis on the data host")


def create_database() -> None:
    import psycopg

    with psycopg.connect(database_url("postgres"), autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [DATABASE]).fetchone():
            conn.execute(f'CREATE DATABASE "{DATABASE}"')


def block_postgres(on: bool) -> None:
    """PostgreSQL unreachable from the web hosts: the data host resets every packet to its port
    (connections open and new ones alike), as a failed switch port or firewall would."""
    if on:
        rules = (
            f"table inet {NAME}_fault {{\n  chain input {{\n    type filter hook input priority 0;\n"
            "    tcp dport 5432 reject with tcp reset;\n  }\n}\n"
        )
        subprocess.run(in_ns("data", "nft", "-f", "-"), input=rules, text=True, check=True)
    else:
        subprocess.run(
            in_ns("data", "nft", "delete", "table", "inet", f"{NAME}_fault"), check=False, capture_output=True
        )


# --- the web hosts and the balancer --------------------------------------------------------


def site_env() -> dict[str, str]:
    key = RUN_DIR / "secret_key"
    if not key.exists():
        key.write_text(secrets.token_urlsafe(64))
        key.chmod(0o600)
    return {
        "DATABASE_URL": database_url(),
        "REDIS_URL": redis_url(),
        "DJANGO_SETTINGS_MODULE": "draftsite.settings",
        "SECRET_KEY": key.read_text().strip(),  # the same on every host: sessions and signed values
        "DEBUG": "0",
        "SECURE_HTTPS": "0",
        "ALLOWED_HOSTS": f"{address('lb')},localhost,127.0.0.1",
        "BEHIND_PROXY": "true",
        "STATIC_ROOT": str(RUN_DIR / "static"),
        "LOG_LEVEL": "WARNING",
        "DEADLINE_SWEEP_SECONDS": "1",
    }


def python() -> str:
    venv = ROOT / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


def uvicorn_command(host: str) -> list[str]:
    import importlib.util

    command = [python(), "-m", "uvicorn", "draftsite.asgi:application", "--host", address(host), "--port", "8000"]
    command += ["--workers", str(WEB_WORKERS), "--no-access-log", "--log-level", "warning"]
    command += ["--timeout-graceful-shutdown", "5", "--ws-per-message-deflate", "false"]
    if importlib.util.find_spec("uvloop"):
        command += ["--loop", "uvloop"]
    if importlib.util.find_spec("httptools"):
        command += ["--http", "httptools"]
    return command


def start_web(state: dict[str, Any], host: str) -> None:
    spawn(state, f"{host}-web", host, uvicorn_command(host), site_env())


def start_worker(state: dict[str, Any], host: str) -> None:
    command = [python(), "-m", "celery", "--quiet", "-A", "draftsite", "worker", "--beat"]
    command += ["--schedule", str(RUN_DIR / "beat-schedule"), "--pool", "solo", "--loglevel", "WARNING"]
    command += ["--without-gossip", "--without-mingle", "--without-heartbeat"]
    spawn(state, f"{host}-worker", host, command, site_env())


def haproxy_env() -> dict[str, str]:
    return {
        "LB_BIND": f"{address('lb')}:80",
        "WEB1": f"{address('web1')}:8000",
        "WEB2": f"{address('web2')}:8000",
        "RUN_DIR": str(RUN_DIR),
    }


def start_haproxy(state: dict[str, Any]) -> None:
    config = str(ROOT / "deploy" / "haproxy.cfg")
    checked = subprocess.run(
        ["haproxy", "-c", "-q", "-f", config], env={**os.environ, **haproxy_env()}, capture_output=True, text=True
    )
    if checked.returncode != 0:
        raise RehearsalError(f"deploy/haproxy.cfg does not load: {checked.stderr.strip()}")
    spawn(state, "haproxy", "lb", ["haproxy", "-W", "-db", "-f", config], haproxy_env())


def haproxy_servers(run_dir: Path | None = None) -> dict[str, dict[str, str]]:
    """The balancer's view of each web server (``show stat`` on the stats socket in ``run_dir``,
    by default the rehearsal's): its status (backend "web", whose checks "pods" tracks), and its
    current and total sessions counted over both backends (a pod's sockets go through "pods")."""
    with socket.socket(socket.AF_UNIX) as sock:
        sock.settimeout(2)
        sock.connect(str((run_dir or RUN_DIR) / "haproxy.sock"))
        sock.sendall(b"show stat\n")
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    text = b"".join(chunks).decode().lstrip("# ")
    rows = [row for row in csv.DictReader(io.StringIO(text)) if row["svname"] in WEB_HOSTS]
    servers = {row["svname"]: dict(row) for row in rows if row["pxname"] == "web"}
    for row in rows:
        if row["pxname"] == "pods" and row["svname"] in servers:
            merged = servers[row["svname"]]
            for counter in ("scur", "stot"):
                merged[counter] = str(int(merged[counter] or 0) + int(row[counter] or 0))
    return servers


def open_connections(run_dir: Path | None = None) -> dict[str, int]:
    """web host -> the connections the balancer holds open to it (both backends)."""
    return {name: int(row["scur"]) for name, row in haproxy_servers(run_dir).items()}


def server_states() -> dict[str, str]:
    """web host -> the balancer's word for it (UP, DOWN, "UP 1/2" while checks change it)."""
    try:
        return {name: row["status"] for name, row in haproxy_servers().items()}
    except OSError:
        return {}


def tcp_open(host: str, port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(1)
        return sock.connect_ex((host, port)) == 0


def healthz(base: str, host: str | None = None) -> tuple[int, str]:
    request = urllib.request.Request(f"{base}/healthz", headers={"Host": host} if host else {})
    try:
        with urllib.request.urlopen(request, timeout=3) as response:
            return response.status, response.headers.get("X-Served-By", "")
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("X-Served-By", "")
    except OSError:
        return 0, ""


def wait_until(condition, seconds: float, what: str, every: float = 0.2) -> float:
    """Poll ``condition`` (bounded by ``seconds``); the seconds it took."""
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        if condition():
            return time.monotonic() - started
        time.sleep(every)
    raise RehearsalError(f"{what} did not come up within {seconds:.0f} s (logs in {RUN_DIR})")


def manage(*args: str) -> None:
    subprocess.run(
        [python(), "manage.py", *args], cwd=ROOT, env={**os.environ, **site_env()}, check=True, capture_output=True
    )


def web_up(host: str) -> bool:
    # As the balancer's check asks (a host's own address is no name the site answers to).
    return healthz(f"http://{address(host)}:8000", "localhost")[0] == 200


# --- commands ----------------------------------------------------------------------------------


def start() -> None:
    check_network()
    why = can_create_namespaces()
    if why:
        raise RehearsalError(f"cannot rehearse here: {why}.")
    missing = missing_programs()
    if missing:
        raise RehearsalError("missing: " + ", ".join(missing))
    if state_path().exists() and (load_state()["namespaces"] or load_state()["processes"]):
        raise RehearsalError(f"a rehearsal is running ({state_path()}): deploy/rehearsal stop first")
    RUN_DIR.mkdir(parents=True, exist_ok=True)
    if pg_dir().exists():
        raise RehearsalError(f"{pg_dir()} exists: another rehearsal's cluster (stop it, or remove the folder)")
    state = load_state()
    save_state(state)
    try:
        log(
            f"Network: bridge {bridge()} {NET}.0/24; namespaces "
            + ", ".join(f"{namespace(h)} {address(h)}" for h in HOSTS)
        )
        make_network(state)
        log(f"Data host: PostgreSQL {address('data')}:5432 (cluster in {pg_dir()}), Redis {address('data')}:6379")
        start_postgres(state)
        start_redis(state)
        create_database()
        log("Migrating and collecting static files")
        manage("migrate", "--noinput")
        manage("collectstatic", "--noinput")
        for host in WEB_HOSTS:
            log(f"Web host {host}: uvicorn ({WEB_WORKERS} process(es)) on {address(host)}:8000")
            start_web(state, host)
        log("Celery worker with beat on web1")
        start_worker(state, "web1")
        for host in WEB_HOSTS:
            wait_until(lambda h=host: web_up(h), 90, f"the web server on {host}")
        log(f"Balancer: HAProxy on {address('lb')}:80 (deploy/haproxy.cfg)")
        start_haproxy(state)
        wait_until(lambda: server_states() == {h: "UP" for h in WEB_HOSTS}, 30, "HAProxy's web servers")
    except BaseException:
        log("Start failed: tearing down what was made")
        stop()
        raise
    log(f"Up: {lb_url()}/ (run directory {RUN_DIR})")
    status()


def stop() -> None:
    state = load_state()
    for name in list(state["processes"]):
        stop_process(state, name)
    for ns in state["namespaces"]:  # anything left on our hosts is ours (started inside them)
        host = ns.removeprefix(f"{NAME}-")
        if host in HOSTS:
            for pid in namespace_pids(host):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
    stop_postgres(state)
    remove_network(state)
    save_state(state)
    state_path().unlink(missing_ok=True)
    log("Stopped: processes, namespaces, links and the data host's cluster removed (logs kept in the run directory)")


def status() -> int:
    state = load_state()
    if not state["namespaces"]:
        print("not running")
        return 3
    for name, entry in sorted(state["processes"].items()):
        print(
            f"{name:12} {'running' if alive(entry['pid']) else 'DEAD':8} pid {entry['pid']:<8} host {namespace(entry['host'])}"
        )
    print(f"{'postgres':12} {'running' if tcp_open(address('data'), 5432) else 'DOWN':8} {address('data')}:5432")
    try:
        for name, row in haproxy_servers().items():
            print(f"balancer -> {name}: {row['status']}, {row['scur']} open, {row['stot']} total sessions")
    except OSError:
        print("balancer: no stats socket")
    code, server = healthz(lb_url())
    print(f"{lb_url()}/healthz: {code or 'down'} {server}")
    return 0 if code == 200 else 3


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="deploy/rehearsal", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("start")
    sub.add_parser("stop")
    sub.add_parser("status")
    runner = sub.add_parser("run", help="drive a draft through the balancer, with faults (deploy/rehearsal_run.py)")
    sys.path.insert(0, str(ROOT / "deploy"))
    import rehearsal_run

    rehearsal_run.add_arguments(runner)
    args = parser.parse_args(argv)
    check_network()
    if args.command == "start":
        start()
        return 0
    if args.command == "stop":
        stop()
        return 0
    if args.command == "status":
        return status()
    return rehearsal_run.run(args)


if __name__ == "__main__":
    sys.exit(main())
