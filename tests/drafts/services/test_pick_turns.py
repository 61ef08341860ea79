"""Socket picks of one pod take turns in the web process before they take a database connection
(``drafts.aio._turn``): a connection waiting on a pod's row lock is one no other pod can use."""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest

from drafts import aio

pytestmark = pytest.mark.asyncio

AT = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)


async def test_one_pods_picks_take_turns_in_arrival_order_while_other_pods_go_ahead(monkeypatch):
    inside: dict[int, int] = {}  # pod -> calls inside the database call now
    most: dict[int, int] = {}
    order: list[tuple[int, int]] = []
    release = asyncio.Event()

    async def pool():
        return None

    async def fetch_one(_pool, sql, params):
        seat = params[0]
        pod = seat // 100
        inside[pod] = inside.get(pod, 0) + 1
        most[pod] = max(most.get(pod, 0), inside[pod])
        order.append((pod, seat))
        if pod == 1:
            await release.wait()  # pod 1's first pick holds its turn until pod 2 has gone
        inside[pod] -= 1
        return ({"status": "ok", "seat": seat},)

    monkeypatch.setattr(aio, "_pool", pool)
    monkeypatch.setattr(aio, "_fetch_one", fetch_one)

    def pick(pod, seat):
        return asyncio.create_task(
            aio.acall(
                pod_id=pod,
                seat_id=seat,
                draft_card_id=1,
                pack_id=None,
                position=None,
                actor_id=None,
                owner_id=None,
                received_at=AT,
                now=AT,
                cutoff=AT,
            )
        )

    first = [pick(1, seat) for seat in (101, 102, 103)]
    other = pick(2, 201)
    assert (await asyncio.wait_for(other, 1))[0]["seat"] == 201  # not stuck behind pod 1
    assert order == [(1, 101), (2, 201)]
    release.set()
    answers = await asyncio.gather(*first)
    assert [a["seat"] for a, _ in answers] == [101, 102, 103]
    assert [seat for pod, seat in order if pod == 1] == [101, 102, 103]
    assert most == {1: 1, 2: 1}
    # Turns are not kept once nobody waits for them.
    assert len(aio._turns[asyncio.get_running_loop()]) == 0
