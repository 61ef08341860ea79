"""Event-day faults against real processes: a Celery worker killed mid-draft, a web process
killed under its clients, Redis restarting. After each: conservation and no pick twice.

Each test runs its own redis-server (so it can stop it) and its own servers on the test
database; all are bounded in time.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import signal
import time

import aiohttp
import pytest
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.db.models import Count
from django.utils import timezone

from drafts import services
from drafts.models import DraftCard, Pack, Pick, PickKind, Pod, PodLogEntry, Seat
from drafts.simulation import check_conservation
from events.access import SYSTEM
from tests import cluster
from tests.drafts.conftest import make_pod
from tests.factories import TokenFactory

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


@pytest.fixture
def layer_on(private_redis, settings):
    """This process's live messages go through the private Redis, like a web process's."""
    from channels.layers import channel_layers

    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [{"address": private_redis["url"], "socket_timeout": 30}]},
        }
    }
    settings.LIVE_UPDATES_URL = private_redis["url"]  # drafts.live publishes there too
    channel_layers.backends.clear()
    yield private_redis
    channel_layers.backends.clear()


@pytest.fixture
def tasks_to(private_redis, settings):
    """This process sends Celery tasks to the private Redis instead of running them inline."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    with cluster.broker(private_redis["url"]):
        yield private_redis["url"]


def assert_whole(pod: Pod) -> None:
    assert check_conservation(pod) == []
    twice = Pick.objects.filter(seat__pod=pod).values("draft_card").annotate(n=Count("pk")).filter(n__gt=1).count()
    assert twice == 0


def test_killed_worker_catches_up_after_restart_and_the_draft_finishes(tasks_to, organiser, players, cube_names):
    worker = cluster.start_worker(tasks_to, beat=True)
    try:
        # Started 36 s ago: the 40 s pick timers run out in about 4 s.
        pod = make_pod(organiser, players, cube_names, now=timezone.now() - dt.timedelta(seconds=36))
        time.sleep(1.5)
        cluster.stop(worker, signal.SIGKILL)  # mid-draft, before the deadline
        time.sleep(4)
        # Nobody enforced the deadline: no worker, and no one read the pod.
        assert Pick.objects.filter(seat__pod=pod).count() == 0
        worker = cluster.start_worker(tasks_to, beat=True)
        assert cluster.wait_for(lambda: Pick.objects.filter(seat__pod=pod).count() >= 8, seconds=40), (
            "the restarted worker did not catch up"
        )
        picks = Pick.objects.filter(seat__pod=pod)
        assert picks.count() == 8 and set(picks.values_list("kind", flat=True)) == {PickKind.TIMEOUT}
        assert_whole(pod)
        # The rest of the draft, as reads enforce it, while the worker still runs: no pick twice.
        services.enforce_deadlines(pod_id=pod.pk, now=timezone.now() + dt.timedelta(hours=3))
        pod.refresh_from_db()
        assert pod.state == "done"
        assert Pick.objects.filter(seat__pod=pod).count() == 360
        assert_whole(pod)
        assert (
            PodLogEntry.objects.filter(pod=pod, action="automatic_pick").count()
            == Pick.objects.filter(seat__pod=pod, kind=PickKind.TIMEOUT).count()
        )
    finally:
        cluster.stop(worker)


def _session_cookie(user) -> str:
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return f"sessionid={store.session_key}"


async def _first_changed(base: str, seat_id: int, cookie: str, timeout: float = 10) -> dict:
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(
            f"{base.replace('http', 'ws')}/ws/seats/{seat_id}/", headers={"Origin": base, "Cookie": cookie}
        ) as socket:
            while True:
                message = await socket.receive(timeout=timeout)
                data = json.loads(message.data)
                if data["type"] == "changed":
                    return data


async def _hear_next_change(base: str, seat_id: int, cookie: str, trigger) -> dict:
    """Open the seat's socket, run ``trigger`` (in a thread), return the change it hears."""
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(
            f"{base.replace('http', 'ws')}/ws/seats/{seat_id}/", headers={"Origin": base, "Cookie": cookie}
        ) as socket:
            seen = None
            while seen is None:  # hello, then the current version
                data = json.loads((await socket.receive(timeout=10)).data)
                if data["type"] == "changed":
                    seen = data["version"]
            await asyncio.get_running_loop().run_in_executor(None, trigger)
            while True:
                data = json.loads((await socket.receive(timeout=10)).data)
                if data["type"] == "changed" and data["version"] > seen:
                    return data


def _pick_for(seat: Seat) -> None:
    from django.db import connection

    pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
    services.make_pick(seat_id=seat.pk, draft_card_id=DraftCard.objects.in_pack(pack).first().pk, actor=SYSTEM)
    connection.close()


def _pick_anyone(pod: Pod) -> None:
    """Some seat with a pack picks (any change of the pod is heard by all its sockets)."""
    from django.db import connection

    seat = Seat.objects.filter(pod=pod, held_packs__isnull=False).order_by("position").first()
    connection.close()
    _pick_for(seat)


def test_a_killed_web_process_loses_nothing_its_clients_reconnect_elsewhere(
    layer_on, private_redis, organiser, players, cube_names
):
    pod = make_pod(organiser, players, cube_names, pick_timer=False, now=timezone.now())
    seat = Seat.objects.select_related("registration__user").get(pod=pod, position=1)
    cookie = _session_cookie(seat.registration.user)
    token = TokenFactory(user=seat.registration.user).key
    ports = [cluster.free_port(), cluster.free_port()]
    webs = [cluster.start_web(private_redis["url"], port) for port in ports]
    base_a, base_b = (f"http://127.0.0.1:{port}" for port in ports)
    try:
        left = Seat.objects.get(pod=pod, position=0)
        heard = asyncio.run(_hear_next_change(base_a, seat.pk, cookie, lambda: _pick_for(left)))
        assert heard["version"] == Pod.objects.get(pk=pod.pk).version
        cluster.stop(webs[0], signal.SIGKILL)
        # The client reconnects to the other process and sees the exact current state.
        again = asyncio.run(_first_changed(base_b, seat.pk, cookie))
        assert again["version"] == Pod.objects.get(pk=pod.pk).version

        async def queue():
            async with aiohttp.ClientSession() as session:
                async with session.get(
                    f"{base_b}/api/seats/{seat.pk}/queue/", headers={"Authorization": f"Token {token}"}
                ) as response:
                    return response.status, await response.json()

        status, body = asyncio.run(queue())
        assert status == 200
        expected = [p.pk for p in Pack.objects.filter(holder=seat).order_by("queue_seq")]
        assert [p["pack_id"] for p in body["queue"]] == expected == [p for p in expected]
        assert len(expected) == 2  # its own pack and the one passed to it
        assert_whole(pod)
    finally:
        for web in webs:
            cluster.stop(web)


def test_redis_restart_live_updates_resume_and_nothing_is_lost(layer_on, private_redis, organiser, players, cube_names):
    pod = make_pod(organiser, players, cube_names, pick_timer=False, now=timezone.now())
    seats = list(Seat.objects.select_related("registration__user").filter(pod=pod).order_by("position"))
    cookie = _session_cookie(seats[1].registration.user)
    port = cluster.free_port()
    web = cluster.start_web(private_redis["url"], port)
    base = f"http://127.0.0.1:{port}"
    try:
        heard = asyncio.run(_hear_next_change(base, seats[1].pk, cookie, lambda: _pick_for(seats[0])))
        assert heard["version"] >= 1
        # Redis goes away: picks go on (the database is the source of truth).
        private_redis["process"].kill()
        private_redis["process"].wait(timeout=10)
        for seat in seats[2:5]:
            _pick_for(seat)
        assert Pick.objects.filter(seat__pod=pod).count() == 4  # nothing refused, nothing lost
        # Redis comes back (empty): sockets (re)opened now hear changes again by themselves.
        private_redis["process"] = cluster.start_redis(private_redis["port"])

        def resumed() -> bool:
            try:
                data = asyncio.run(
                    _hear_next_change(
                        base, seats[6].pk, _session_cookie(seats[6].registration.user), lambda: _pick_anyone(pod)
                    )
                )
                return data["version"] == Pod.objects.get(pk=pod.pk).version
            except Exception:
                return False

        assert cluster.wait_for(resumed, seconds=30, every=1.0), "live updates did not resume"
        assert_whole(pod)
    finally:
        cluster.stop(web)


class _Drafter:
    """A player's page over a real websocket: picks the first card of the pack in front of
    them the moment one is there (the pick answer names the next pack, a ``queue`` push an
    arriving one), and remembers every pick the server acknowledged."""

    def __init__(self, base: str, seat_id: int, cookie: str, acknowledged: list, on_ack=None) -> None:
        self.base, self.seat_id, self.cookie = base, seat_id, cookie
        self.acknowledged, self.on_ack = acknowledged, on_ack
        self.front: dict | None = None
        self.seen_version = -1  # the version of the newest queue state this page knows
        self.sent = self.answered = 0  # refs of the picks sent and answered
        self.missed_pushes = 0  # packs the page only found by asking
        self.ending = "the pod stopped drafting"

    async def queue_by_request(self, session) -> tuple[str, list]:
        async with session.get(
            f"{self.base}/api/seats/{self.seat_id}/queue/", headers={"Cookie": self.cookie}
        ) as response:
            assert response.status == 200, await response.text()
            body = await response.json()
            return body["pod"]["state"], body["queue"]

    def take(self, queue: list, version: int) -> None:
        if version >= self.seen_version:  # an older state (a late push) never wins
            self.seen_version = version
            self.front = queue[0] if queue else None

    async def run(self) -> None:
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(
                f"{self.base.replace('http', 'ws')}/ws/seats/{self.seat_id}/",
                headers={"Origin": self.base, "Cookie": self.cookie},
            ) as socket:
                while json.loads((await socket.receive(timeout=10)).data)["type"] != "changed":
                    pass
                state, queue = await self.queue_by_request(session)
                self.take(queue, 0)
                polled = None
                while state == "drafting":
                    if self.front is not None and self.sent == self.answered:
                        self.sent += 1
                        await socket.send_json(
                            {
                                "type": "pick",
                                "card": self.front["cards"][0]["id"],
                                "pack": self.front["pack_id"],
                                "ref": self.sent,
                            }
                        )
                        self.front = None
                    try:
                        message = await socket.receive(timeout=1 if polled else 2)
                    except TimeoutError:
                        if polled:  # asked, and still nothing pushed: the push was lost
                            self.missed_pushes += 1
                            self.take(polled, self.seen_version)
                            polled = None
                            continue
                        # Nothing for a while: is the round over, or was a pack not pushed?
                        state, queue = await self.queue_by_request(session)
                        if queue and self.front is None and self.sent == self.answered:
                            polled = queue
                        continue
                    if message.type != aiohttp.WSMsgType.TEXT:
                        self.ending = f"socket {message.type.name} {message.data!r}"
                        return  # the server went away
                    data = json.loads(message.data)
                    if data["type"] == "picked":
                        self.answered = data["ref"]
                        pick = data["pick"]
                        self.acknowledged.append((self.seat_id, pick["id"], pick["card"]))
                        state = data["pod"]["state"]
                        self.take(data["queue"], pick["pod_version"])
                        if self.on_ack is not None:
                            self.on_ack()
                    elif data["type"] == "queue":
                        polled = None
                        self.take(data["queue"], data["version"])
                    elif data["type"] == "pick_refused":
                        self.answered = data["ref"]
                        state, queue = await self.queue_by_request(session)
                        self.take(queue, self.seen_version)


async def _burst(drafters: list[_Drafter], seconds: float) -> list:
    """Run the pages together; what each ended with (None, or the connection error it met)."""
    results = await asyncio.wait_for(
        asyncio.gather(*(d.run() for d in drafters), return_exceptions=True), timeout=seconds
    )
    for result in results:  # a server killed under a client: a connection error, nothing else
        if isinstance(result, Exception) and not isinstance(
            result, (aiohttp.ClientError, ConnectionError, asyncio.TimeoutError)
        ):
            raise result
    return results


def test_a_web_process_killed_in_a_burst_of_socket_picks_loses_no_acknowledged_pick(
    layer_on, private_redis, organiser, players, cube_names
):
    """Eight players pick over their sockets as fast as packs reach them; the web process is
    killed (SIGKILL) in the middle of the burst. Every pick it acknowledged is in the database,
    none is half applied, and the draft goes on to the end of the round on another process."""
    pod = make_pod(organiser, players, cube_names, pick_timer=False, now=timezone.now())
    seats = list(Seat.objects.select_related("registration__user").filter(pod=pod).order_by("position"))
    cookies = {seat.pk: _session_cookie(seat.registration.user) for seat in seats}
    ports = [cluster.free_port(), cluster.free_port()]
    webs = [cluster.start_web(private_redis["url"], port) for port in ports]
    base_a, base_b = (f"http://127.0.0.1:{port}" for port in ports)
    try:
        acknowledged: list = []
        killed = []

        def kill_when_busy() -> None:
            if len(acknowledged) >= 24 and not killed:
                killed.append(len(acknowledged))
                cluster.stop(webs[0], signal.SIGKILL)

        drafters = [_Drafter(base_a, seat.pk, cookies[seat.pk], acknowledged, on_ack=kill_when_busy) for seat in seats]
        ended = asyncio.run(_burst(drafters, seconds=120))
        assert killed, (
            f"the burst ended before the kill ({len(acknowledged)} picks): {ended!r}, {[d.ending for d in drafters]}"
        )
        assert webs[0].poll() is not None
        unanswered = sum(d.sent - d.answered for d in drafters)  # sent, then the server died
        picks = Pick.objects.filter(seat__pod=pod)
        for seat_id, pick_id, card_id in acknowledged:
            assert picks.filter(pk=pick_id, seat_id=seat_id, draft_card_id=card_id, kind=PickKind.MANUAL).exists()
        assert len({pick_id for _s, pick_id, _c in acknowledged}) == len(acknowledged)
        # Besides the acknowledged ones, at most the picks that were in flight were committed.
        manual = picks.filter(kind=PickKind.MANUAL).count()
        assert len(acknowledged) <= manual <= len(acknowledged) + unanswered
        assert_whole(pod)
        # The draft continues on the other process: the same pages reconnect there and finish round 1.
        before = len(acknowledged)
        drafters = [_Drafter(base_b, seat.pk, cookies[seat.pk], acknowledged) for seat in seats]
        ended = asyncio.run(_burst(drafters, seconds=180))
        assert ended == [None] * len(seats), ended
        pod.refresh_from_db()
        assert pod.state == "reviewing" and pod.round == 1, pod.state
        assert picks.filter(round=1).count() == 8 * 15
        assert picks.filter(round=1, kind=PickKind.MANUAL).count() == 8 * 14
        assert len(acknowledged) - before == 8 * 14 - manual  # every remaining pick, once
        for seat_id, pick_id, card_id in acknowledged[before:]:
            assert picks.filter(pk=pick_id, seat_id=seat_id, draft_card_id=card_id).exists()
        # On the healthy process every pack reached its page by a pick's answer or a push.
        assert sum(d.missed_pushes for d in drafters) == 0
        assert_whole(pod)
    finally:
        for web in webs:
            cluster.stop(web)
