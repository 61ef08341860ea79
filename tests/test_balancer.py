"""deploy/haproxy.cfg as it runs: HAProxy in front of two stand-in web servers.

A pod's sockets name their pod (``?pod=<id>``, ``drafts.live``) and all reach one server; an
event's pods spread over both; everything else is balanced by load; a server that is down
gets none of a pod's new sockets. Runs where HAProxy is installed (CI installs it, as for the
rehearsal); skips with the reason elsewhere. About 3 s.
"""

from __future__ import annotations

import http.client
import shutil
import socket
import subprocess
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from drafts import live

ROOT = Path(__file__).resolve().parent.parent

HAPROXY = shutil.which("haproxy")
pytestmark = pytest.mark.skipif(HAPROXY is None, reason="HAProxy is not installed")


class StandIn(ThreadingHTTPServer):
    """A web server that answers every request, /healthz included, unless it is told to fail."""

    failing = False


class StandInHandler(BaseHTTPRequestHandler):
    server: StandIn

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        status = 503 if self.server.failing else 200
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args) -> None:
        pass


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def balancer(tmp_path):
    servers = {}
    for name in ("web1", "web2"):
        server = StandIn(("127.0.0.1", 0), StandInHandler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers[name] = server
    port = _free_port()
    env = {
        "LB_BIND": f"127.0.0.1:{port}",
        **{name.upper(): f"127.0.0.1:{server.server_port}" for name, server in servers.items()},
        "RUN_DIR": str(tmp_path),
    }
    process = subprocess.Popen(
        [str(HAPROXY), "-db", "-f", str(ROOT / "deploy" / "haproxy.cfg")],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        _wait(lambda: _served_by(port, "/healthz") is not None, f"HAProxy on {port}")
        yield port, servers
    finally:
        process.terminate()
        process.wait(timeout=10)
        for server in servers.values():
            server.shutdown()
            server.server_close()


def _wait(condition, what: str, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"waited {seconds} s for {what}")


def _served_by(port: int, path: str) -> str | None:
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        connection.close()
    except OSError:
        return None
    return response.getheader("X-Served-By") if response.status == 200 else None


def test_a_pods_sockets_reach_one_server_and_an_events_pods_spread_over_both(balancer):
    port, _servers = balancer
    pods = range(101, 141)
    by_pod = {}
    for pod in pods:
        paths = [live.seat_socket(seat, pod) for seat in range(pod * 8, pod * 8 + 8)]
        paths += [live.pod_socket(pod), live.spectator_socket("token", pod)]
        hosts = {_served_by(port, path) for path in paths}
        assert len(hosts) == 1 and None not in hosts, (pod, hosts)
        by_pod[pod] = hosts.pop()
    shares = Counter(by_pod.values())
    assert set(shares) == {"web1", "web2"} and min(shares.values()) >= len(pods) * 0.4, shares
    # No pod in the path: balanced by load (one request at a time: both servers take turns).
    assert set(Counter(_served_by(port, live.event_socket(7)) for _ in range(10))) == {"web1", "web2"}


def test_a_pod_whose_server_is_down_goes_to_the_other(balancer):
    port, servers = balancer
    pod = next(p for p in range(1, 100) if _served_by(port, live.pod_socket(p)) == "web2")
    servers["web2"].failing = True  # /healthz answers 503: two failed checks take it out
    _wait(lambda: _served_by(port, live.seat_socket(1, pod)) == "web1", "the pod to move to web1")
    servers["web2"].failing = False
    _wait(lambda: _served_by(port, live.seat_socket(1, pod)) == "web2", "the pod to come back to web2", 20)
