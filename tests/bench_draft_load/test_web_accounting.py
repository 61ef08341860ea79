"""bench/accounted_asgi counts a web process's CPU by stage without changing what the stages do:
a timed coroutine returns, raises and is cancelled as the coroutine it wraps, and its time is
counted step by step (resume to suspension), so a wait is not counted."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import time
from pathlib import Path

import pytest

PATH = Path(__file__).resolve().parents[2] / "bench" / "accounted_asgi.py"


@pytest.fixture
def accounting(monkeypatch):
    monkeypatch.delenv("ACCOUNT_WEB_DIR", raising=False)  # the module, not the web process
    spec = importlib.util.spec_from_file_location("bench_accounted_asgi", PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def burn(seconds: float) -> None:
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def test_a_timed_coroutine_counts_its_steps_and_not_its_waits(accounting):
    async def stage(value):
        burn(0.02)
        await asyncio.sleep(0.05)  # waiting: what runs meanwhile is not this stage's
        burn(0.02)
        return value * 2

    async def other():
        await asyncio.sleep(0.01)
        burn(0.1)  # another task, while the stage waits

    async def main():
        return (await asyncio.gather(accounting._timed_coroutine("stage", stage)(21), other()))[0]

    assert asyncio.run(main()) == 42
    assert accounting._steps["stage"] == 2 and accounting._calls["stage"] == 1
    assert 0.04 <= accounting._cpu["stage"] < 0.09


def test_a_timed_coroutine_raises_and_is_cancelled_as_the_one_it_wraps(accounting):
    async def fails():
        await asyncio.sleep(0)
        raise LookupError("inner")

    seen = []

    async def waits():
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            seen.append("cancelled inside")
            raise

    async def main():
        with pytest.raises(LookupError, match="inner"):
            await accounting._timed_coroutine("fails", fails)()
        task = asyncio.create_task(accounting._timed_coroutine("waits", waits)())
        await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    assert seen == ["cancelled inside"]
    assert accounting._calls == {"fails": 1, "waits": 1}


def test_the_table_is_per_pick_over_every_process(accounting, tmp_path):
    for pid, picks, cpu in ((1, 30, 0.3), (2, 10, 0.1)):
        (tmp_path / f"accounting-{pid}.json").write_text(
            json.dumps(
                {
                    "thread_cpu_s": cpu * 3,
                    "cpu_s": {"SeatSocket.pick": cpu, "Hub.dispatch": cpu / 2},
                    "steps": {"SeatSocket.pick": picks * 2, "Hub.dispatch": picks},
                    "calls": {"SeatSocket.pick": picks, "Hub.dispatch": picks},
                }
            )
        )
    lines = accounting.table(str(tmp_path)).splitlines()
    assert "40 picks = 30.000 ms a pick" in lines[0]
    pick = next(line for line in lines if line.startswith("SeatSocket.pick"))
    assert pick.split()[1:3] == ["10.000", "33.3%"]  # 0.4 s over 40 picks, of 1.2 s in all
    assert accounting.table(str(tmp_path / "none")).startswith("no picks accounted")
