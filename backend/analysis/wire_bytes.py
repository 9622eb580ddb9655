"""Bytes on the wire of the memcached text protocol's messages (TCP payload), as memtier and the
middleware send them: a set, its reply, and gets of one or many keys.

One key's sizes (MessageSizes) determine a multi-get's: `get k1 .. kK\\r\\n` is `get` + CRLF
once and ` k` per key, a reply is one `VALUE k 0 n\\r\\n<value>\\r\\n` block per key and
`END\\r\\n` once. A sharded multi-get is split into one such request per server asked, and each
server's reply ends with its own END (middleware-cpp/src/worker.cpp, plan and finish_sharded).
"""

from __future__ import annotations

from dataclasses import dataclass

from backend.analysis.errors import require, require_positive

SET_REPLY = b"STORED\r\n"
GET_END = b"END\r\n"
# A get line without its keys: `get` and the line end; each key adds a space and the key.
GET_LINE = b"get\r\n"


@dataclass(frozen=True)
class MessageSizes:
    """Bytes of each message for one key: a set request and reply, a get of one key and the
    reply that finds it."""

    set_request_b: int
    set_reply_b: int
    get_request_b: int
    get_reply_b: int

    @property
    def key_in_get_b(self) -> int:
        """What each key adds to a get line: a space and the key."""
        return self.get_request_b - len(GET_LINE)

    @property
    def value_block_b(self) -> int:
        """One key's VALUE block of a get reply (the reply without its END)."""
        return self.get_reply_b - len(GET_END)


def message_sizes(value_size: int, key_b: int, expiry_s: int) -> MessageSizes:
    """The text protocol's sizes for one key of `key_b` bytes and a value of `value_size`:
    `set k 0 exp n\\r\\n<value>\\r\\n`, `STORED\\r\\n`, `get k\\r\\n` and
    `VALUE k 0 n\\r\\n<value>\\r\\nEND\\r\\n`."""
    require_positive(value_size, "value_size")
    require_positive(key_b, "key_b")
    n = len(str(value_size))
    return MessageSizes(
        set_request_b=len(f"set  0 {expiry_s} \r\n") + key_b + n + value_size + 2,
        set_reply_b=len(SET_REPLY),
        get_request_b=len("get \r\n") + key_b,
        get_reply_b=len("VALUE  0 \r\n") + key_b + n + value_size + 2 + len(GET_END),
    )


def get_requests_b(sizes: MessageSizes, keys: int, lines: float = 1.0) -> float:
    """Bytes of `lines` get lines carrying `keys` keys between them (a multi-get of K keys is
    one line; sharded over L servers, L lines). Floats: `lines` may be an expected count."""
    require(keys >= 1, "multiget_size", "must be at least 1")
    require(lines >= 1, "lines", "must be at least 1")
    return lines * len(GET_LINE) + keys * sizes.key_in_get_b


def get_replies_b(sizes: MessageSizes, keys: int, ends: float = 1.0) -> float:
    """Bytes of the replies to get lines finding `keys` keys between them, `ends` of them
    (each reply ends with END: one to the client, one per server asked)."""
    require(keys >= 1, "multiget_size", "must be at least 1")
    require(ends >= 1, "ends", "must be at least 1")
    return keys * sizes.value_block_b + ends * len(GET_END)
