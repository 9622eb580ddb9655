"""The memcached text protocol's messages as memtier, memcached and the middleware write them,
built as bytes so tests count real messages instead of trusting a formula: memtier's
write_command_set / write_command_multi_get, memcached's VALUE blocks, the middleware's
per-server lines of a sharded multi-get (worker.cpp: `get` + ` key` per key + CRLF) and its
merged reply (reply_merge.cpp: the blocks in request order, one END)."""

from worker.drivers.memtier import EXPIRY_S, KEY_PREFIX

VALUE_BYTE = b"x"
FNV_OFFSET = 14695981039346656037
FNV_PRIME = 1099511628211


def memtier_key(index: int) -> str:
    return f"{KEY_PREFIX}{index}"


def value(size: int) -> bytes:
    return VALUE_BYTE * size


def set_request(key: str, data: bytes, expiry_s: int = EXPIRY_S) -> bytes:
    return f"set {key} 0 {expiry_s} {len(data)}\r\n".encode() + data + b"\r\n"


def get_line(keys: list[str]) -> bytes:
    return b"get" + b"".join(b" " + k.encode() for k in keys) + b"\r\n"


def value_block(key: str, data: bytes) -> bytes:
    return f"VALUE {key} 0 {len(data)}\r\n".encode() + data + b"\r\n"


def get_reply(keys: list[str], data: bytes) -> bytes:
    """memcached's reply finding every key (or the middleware's merged one)."""
    return b"".join(value_block(k, data) for k in keys) + b"END\r\n"


def fnv1a(key: str) -> int:
    """The middleware's key hash (server_pool.cpp), 64-bit FNV-1a."""
    h = FNV_OFFSET
    for c in key.encode():
        h = ((h ^ c) * FNV_PRIME) % (1 << 64)
    return h


def shards(keys: list[str], servers: int) -> dict[int, list[str]]:
    """A sharded multi-get's keys per server asked (by the primary's hash), in request order."""
    out: dict[int, list[str]] = {}
    for k in keys:
        out.setdefault(fnv1a(k) % servers, []).append(k)
    return out
