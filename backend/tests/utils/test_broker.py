"""A test session removes its own keys from the shared Redis, and nobody else's."""

import json
import uuid

import redis
from kombu.transport.redis import Channel

from backend.core.config import settings
from backend.tests.utils.broker import purge_session_keys


def _unacked(routing_key: str) -> str:
    return json.dumps([{"body": "e30="}, routing_key, routing_key])


def test_purge_removes_only_the_sessions_keys_and_unacked_messages() -> None:
    ours, theirs = f"1_{uuid.uuid4().hex[:6]}", f"2_{uuid.uuid4().hex[:6]}"
    client = redis.Redis.from_url(settings.REDIS_URL)
    keys = {
        s: [
            f"runs-test-{s}",
            f"_kombu.binding.runs-test-{s}",
            f"mcscope:mcscope_test_{s}:run:1:live",
        ]
        for s in (ours, theirs)
    }
    tags = {s: f"tag-{s}" for s in (ours, theirs)}
    try:
        for s in (ours, theirs):
            for key in keys[s]:
                client.rpush(key, "x")
            client.hset(Channel.unacked_key, tags[s], _unacked(f"runs-test-{s}"))
            client.zadd(Channel.unacked_index_key, {tags[s]: 1.0})

        assert purge_session_keys(settings.REDIS_URL, ours) == 4

        assert not any(client.exists(k) for k in keys[ours])
        assert all(client.exists(k) for k in keys[theirs])
        assert not client.hexists(Channel.unacked_key, tags[ours])
        assert client.zscore(Channel.unacked_index_key, tags[ours]) is None
        assert client.hexists(Channel.unacked_key, tags[theirs])
        assert client.zscore(Channel.unacked_index_key, tags[theirs]) == 1.0
    finally:
        client.delete(*keys[ours], *keys[theirs])
        client.hdel(Channel.unacked_key, *tags.values())
        client.zrem(Channel.unacked_index_key, *tags.values())
        client.close()
