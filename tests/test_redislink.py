"""draftsite.redislink: the event loop's Redis connection and subscription, against a real
redis-server of the test's own (which the tests also stop and restart)."""

import asyncio

import pytest
import redis

from draftsite import redislink
from tests import cluster


def _run(scenario):
    return asyncio.run(asyncio.wait_for(scenario(), timeout=20))


def test_commands_sent_together_are_answered_in_order_on_the_urls_database(private_redis):
    url = private_redis["url"].rsplit("/", 1)[0] + "/3"

    async def scenario():
        link = redislink.link(url)
        first = await link.execute(("SET", "k", b"v"), ("INCR", "n"), ("INCR", "n"), ("GET", "k"))
        again = await asyncio.gather(link.execute(("INCR", "n")), link.execute(("LRANGE", "none", 0, -1)))
        return first, again, link is redislink.link(url)

    first, again, same = _run(scenario)
    assert first == [b"OK", 1, 2, b"v"]
    assert again == [[3], [[]]]
    assert same  # one connection per loop and URL
    # SELECT from the URL: the keys are in database 3, not 0.
    assert redis.Redis.from_url(url).get("k") == b"v"
    assert redis.Redis.from_url(private_redis["url"]).get("k") is None


def test_an_error_reply_raises_after_every_reply_of_the_batch_is_read(private_redis):
    url = private_redis["url"]

    async def scenario():
        link = redislink.link(url)
        await link.execute(("SET", "text", "abc"))
        with pytest.raises(redislink.ResponseError, match="not an integer"):
            await link.execute(("INCR", "text"), ("SET", "after", "1"))
        # The connection is still in step: the next reply is the next command's.
        return await link.execute(("GET", "after"), ("GET", "text"))

    assert _run(scenario) == [b"1", b"abc"]


def test_a_lost_connection_fails_what_waits_on_it_and_the_next_call_connects_again(private_redis):
    url = private_redis["url"]

    async def scenario():
        link = redislink.link(url)
        await link.execute(("SET", "before", "1"))
        (name,) = await link.execute(("CLIENT", "ID"))
        redis.Redis.from_url(url).execute_command("CLIENT", "KILL", "ID", name)
        with pytest.raises(ConnectionError):
            await link.execute(("BLPOP", "nothing", 2))  # cut by the kill, not answered
        return await link.execute(("GET", "before"), ("CLIENT", "ID"))

    value, new_id = _run(scenario)
    assert value == b"1" and new_id is not None


def test_a_server_that_does_not_answer_drops_the_connection_after_the_reply_timeout(private_redis, monkeypatch):
    monkeypatch.setattr(redislink, "REPLY_TIMEOUT", 0.3)
    url = private_redis["url"]

    async def scenario():
        link = redislink.link(url)
        await link.execute(("SET", "k", "1"))
        loop = asyncio.get_running_loop()
        started = loop.time()
        with pytest.raises(ConnectionError, match="did not answer"):
            await link.execute(("BLPOP", "nothing", 5))  # blocks far longer than the timeout
        waited = loop.time() - started
        return waited, await link.execute(("GET", "k"))

    waited, after = _run(scenario)
    assert 0.25 <= waited < 3  # dropped by the timeout, not by the 5 s pop
    assert after == [b"1"]


def test_a_subscription_hears_each_message_in_order_and_ends_when_the_server_goes(private_redis):
    url = private_redis["url"]
    publisher = redis.Redis.from_url(url)

    async def scenario():
        heard = []
        async with redislink.Subscription(url, "news") as subscription:
            publisher.publish("other", b"not ours")
            for number in range(3):
                publisher.publish("news", f"message {number}".encode())
            messages = subscription.messages()
            for _ in range(3):
                heard.append(await messages.__anext__())
            private_redis["process"].kill()
            private_redis["process"].wait(timeout=10)
            with pytest.raises(ConnectionError):
                await messages.__anext__()
        return heard

    assert _run(scenario) == [b"message 0", b"message 1", b"message 2"]
    private_redis["process"] = cluster.start_redis(private_redis["port"])  # for the fixture's teardown


def test_a_password_in_the_url_authenticates(private_redis):
    admin = redis.Redis.from_url(private_redis["url"])
    admin.config_set("requirepass", "s3cret")
    url = f"redis://:s3cret@127.0.0.1:{private_redis['port']}/0"

    async def scenario():
        return await redislink.link(url).execute(("PING",))

    assert _run(scenario) == [b"PONG"]

    async def refused():
        await redislink.link(private_redis["url"]).execute(("PING",))

    with pytest.raises(redislink.ResponseError, match="NOAUTH"):
        _run(refused)
