#!/usr/bin/env python
"""What the live layer's Redis calls cost the event loop: draftsite.redislink against redis-py.

A web process calls Redis from its event loop on every pick (a ``PUBLISH`` of the change), on
every change another process made (a pub/sub message received) and on every page's heartbeat
(presence: three commands in one round trip). Each is timed here both ways on one uvloop
loop, as the loop thread's CPU per call (``time.thread_time``), against the Redis of
``--redis-url``; received messages come from a separate publishing process, so only the
receiving side is counted. The messages are the size of a pod's document (about 4 KB).

    bench/redis_link --calls 5000
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import redis
import redis.asyncio as aioredis
import uvloop

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from draftsite import redislink  # noqa: E402

PAYLOAD = b"[" + b",".join(b'[%d,"card",3,"rare",false,false]' % i for i in range(130)) + b"]"
CHANNEL = "bench-redis-link"

PUBLISHER = """
import sys, time, redis
client = redis.Redis.from_url(sys.argv[1])
time.sleep(0.3)
for number in range(int(sys.argv[2])):
    client.publish(sys.argv[3], sys.argv[4].encode())
    if number % 50 == 0:
        time.sleep(0.001)  # a live site's pace: messages arrive a few at a time
"""


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=5000)
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/9")
    parser.add_argument("--results-dir", default=str(ROOT / "bench" / "results"))
    return parser.parse_args(argv)


async def per_call(calls: int, call) -> float:
    """Microseconds of the loop thread's CPU per awaited call."""
    await call()  # connected
    started = time.thread_time()
    for _ in range(calls):
        await call()
    return (time.thread_time() - started) / calls * 1e6


def presence_commands(number: int) -> list[tuple]:
    return [
        ("HSET", "bench:presence", "page", repr(number)),
        ("EXPIRE", "bench:presence", 60),
        ("SET", "bench:seen", repr(number), "EX", 86400),
    ]


async def sends(url: str, calls: int) -> dict:
    client = aioredis.Redis.from_url(url, socket_timeout=5, decode_responses=True)
    link = redislink.link(url)

    async def redis_py_presence():
        async with client.pipeline(transaction=False) as pipe:
            for command in presence_commands(1):
                pipe.execute_command(*command)
            await pipe.execute()

    figures = {
        "publish_redis_py_us": await per_call(calls, lambda: client.publish(CHANNEL, PAYLOAD)),
        "publish_link_us": await per_call(calls, lambda: link.execute(("PUBLISH", CHANNEL, PAYLOAD))),
        "presence_redis_py_us": await per_call(calls, redis_py_presence),
        "presence_link_us": await per_call(calls, lambda: link.execute(*presence_commands(1))),
    }
    await client.aclose()
    return figures


async def receive(url: str, calls: int, how: str) -> float:
    """Microseconds of the loop's CPU per message received (``how``: redis-py or link)."""
    publisher = [sys.executable, "-c", PUBLISHER, url, str(calls), CHANNEL, PAYLOAD.decode()]
    if how == "link":
        async with redislink.Subscription(url, CHANNEL) as subscription:
            process = subprocess.Popen(publisher)
            messages = subscription.messages()
            await messages.__anext__()
            started = time.thread_time()
            for _ in range(calls - 1):
                await messages.__anext__()
            spent = time.thread_time() - started
    else:
        client = aioredis.Redis.from_url(url)
        async with client.pubsub() as pubsub:
            await pubsub.subscribe(CHANNEL)
            process = subprocess.Popen(publisher)
            got, started = 0, None
            async for message in pubsub.listen():
                if message.get("type") != "message":
                    continue
                got += 1
                if started is None:
                    started = time.thread_time()
                if got == calls:
                    break
            spent = time.thread_time() - (started or 0)
        await client.aclose()
    process.wait(timeout=60)
    return spent / (calls - 1) * 1e6


async def measure(args) -> dict:
    figures = await sends(args.redis_url, args.calls)
    figures["receive_redis_py_us"] = await receive(args.redis_url, args.calls, "redis-py")
    figures["receive_link_us"] = await receive(args.redis_url, args.calls, "link")
    return {key: round(value, 1) for key, value in figures.items()}


def main(argv=None) -> None:
    args = parse_args(argv)
    figures = uvloop.run(measure(args))
    redis.Redis.from_url(args.redis_url).delete("bench:presence", "bench:seen")
    result = {"date": time.strftime("%Y-%m-%d"), "calls": args.calls, "payload_bytes": len(PAYLOAD), **figures}
    lines = [f"Event loop CPU per call, {args.calls} calls, {len(PAYLOAD)}-byte messages (µs): redis-py -> redislink"]
    for kind in ("publish", "presence", "receive"):
        lines.append(f"  {kind:<9} {figures[kind + '_redis_py_us']:7.1f} -> {figures[kind + '_link_us']:6.1f}")
    print("\n".join(lines))
    out = Path(args.results_dir)
    out.mkdir(parents=True, exist_ok=True)
    (out / "redis_link.json").write_text(json.dumps(result, indent=2) + "\n")
    (out / "redis_link.txt").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
