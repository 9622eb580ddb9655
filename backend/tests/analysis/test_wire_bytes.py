"""Byte counts of the memcached text protocol against the real messages, built as bytes
(backend/tests/utils/memcached_text.py) and counted: one key, multi-gets, sharded parts."""

import pytest

from backend.analysis.errors import AnalysisError
from backend.analysis.network_bound import design_sizes
from backend.analysis.wire_bytes import get_replies_b, get_requests_b
from backend.tests.utils.memcached_text import (
    get_line,
    get_reply,
    memtier_key,
    set_request,
    shards,
    value,
)

KEY_MAXIMUM = 10_000


def _keys(k: int) -> list[str]:
    """k distinct keys of the longest length of the 99,999-key range (memtier-1xxxx)."""
    return [memtier_key(10_000 + 7 * i) for i in range(k)]


@pytest.mark.parametrize("value_size", [128, 4096])
def test_one_key_sizes_are_the_messages(value_size: int) -> None:
    sizes = design_sizes(value_size, KEY_MAXIMUM)
    key = memtier_key(KEY_MAXIMUM)
    data = value(value_size)
    assert sizes.set_request_b == len(set_request(key, data))
    assert sizes.set_reply_b == len(b"STORED\r\n")
    assert sizes.get_request_b == len(get_line([key])) == get_requests_b(sizes, 1)
    assert sizes.get_reply_b == len(get_reply([key], data)) == get_replies_b(sizes, 1)


def test_one_key_sizes_are_the_reports() -> None:
    # DOMAIN.md section 7: 4,131 B set requests, 8 B set replies, 19 B get requests; the
    # report's 4,132 B get reply is one more than the protocol's.
    sizes = design_sizes(4096, KEY_MAXIMUM)
    assert (sizes.set_request_b, sizes.set_reply_b, sizes.get_request_b) == (4131, 8, 19)
    assert sizes.get_reply_b == 4131


@pytest.mark.parametrize("k", [2, 3, 6, 9, 64])
def test_multiget_line_and_reply(k: int) -> None:
    sizes = design_sizes(4096, 99_999)
    keys, data = _keys(k), value(4096)
    assert get_requests_b(sizes, k) == len(get_line(keys))
    assert get_replies_b(sizes, k) == len(get_reply(keys, data))


@pytest.mark.parametrize(("k", "servers"), [(3, 3), (6, 3), (9, 5), (9, 7), (2, 7)])
def test_sharded_parts(k: int, servers: int) -> None:
    # The middleware asks each server its keys hash to: one line each, each server replying
    # its blocks and its own END; the client gets one merged reply.
    sizes = design_sizes(4096, 99_999)
    keys, data = _keys(k), value(4096)
    parts = shards(keys, servers)
    lines = sum(len(get_line(p)) for p in parts.values())
    replies = sum(len(get_reply(p, data)) for p in parts.values())
    assert get_requests_b(sizes, k, lines=len(parts)) == lines
    assert get_replies_b(sizes, k, ends=len(parts)) == replies
    assert get_replies_b(sizes, k) == len(get_reply(keys, data))


def test_bad_counts_name_the_field() -> None:
    sizes = design_sizes(4096, KEY_MAXIMUM)
    with pytest.raises(AnalysisError) as err:
        get_requests_b(sizes, 0)
    assert err.value.field == "multiget_size"
