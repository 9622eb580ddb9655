"""Removing what a test session left in the machine's shared Redis.

Every key a session writes carries its unique suffix (its queues `runs-test-<suffix>[...]`, their
kombu bindings, the live-progress lists `mcscope:mcscope_test_<suffix>:...`), except the
messages a killed worker left unacked: those sit in kombu's `unacked` hash, shared by every
queue of the database, and are only redelivered (to a queue nobody reads) hours later.
"""

import json

import redis
from kombu.transport.redis import Channel


def purge_session_keys(redis_url: str, suffix: str) -> int:
    """Delete the keys and unacked messages of the test session `suffix`; how many."""
    client = redis.Redis.from_url(redis_url)
    try:
        keys = list(client.scan_iter(match=f"*{suffix}*", count=1000))
        removed = int(client.delete(*keys)) if keys else 0
        ours = []
        for tag, value in client.hscan_iter(Channel.unacked_key):
            _message, _exchange, routing_key = json.loads(value)
            if suffix in routing_key:
                ours.append(tag)
        if ours:
            client.hdel(Channel.unacked_key, *ours)
            client.zrem(Channel.unacked_index_key, *ours)
        return removed + len(ours)
    finally:
        client.close()


def purge_queues(redis_url: str, queue: str) -> int:
    """Drop the messages waiting in `queue` and its sibling queues (`.maintenance`, `.azure`,
    kombu's priority lists); their bindings stay, so publishing keeps routing to them."""
    client = redis.Redis.from_url(redis_url)
    try:
        keys = list(client.scan_iter(match=f"{queue}*", count=1000))
        return int(client.delete(*keys)) if keys else 0
    finally:
        client.close()
