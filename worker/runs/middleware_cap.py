"""The --max-buffered-bytes every middleware of a run is started with: one rule, from the memory
of the host it runs on (MemTotal, read there at preflight) and the design's value size,
multi-get size and connections. Recorded with the run (Run.hosts "middleware", and the command
line in Run.commands); a run whose middleware reached it carries the memory_cap flag."""

MIB = 1 << 20
# The middleware's own flag minimum (middleware-cpp/src/config.cpp).
FLAG_MIN = 1 * MIB
# Below this the cap would bind on small designs for no gain (the middleware's default floor,
# kMinDefaultCap in middleware-cpp/src/memory_budget.hpp).
FLOOR = 64 * MIB
# At most this share of the host's memory: a middleware may share its machine with memcached,
# load generators and other users, and its process needs, besides the cap, one reply per client
# and each worker's reply buffers (the bound in memory_budget.hpp).
HOST_SHARE = 8
# memcached's text protocol around one value: "VALUE <key> <flags> <bytes>\r\n" and "\r\n"
# (keys up to 250 B, flags and length up to 10 digits), with room to spare.
VALUE_OVERHEAD = 300
# The middleware's read buffer per client (kClientReadChunk in connection.cpp).
READ_BUFFER = 16 * 1024
# A closed-loop client has one request out; twice its bytes so a run at the design's sizes
# never reaches the cap (reaching it is flagged: the bound, not the system, was measured).
HEADROOM = 2


def middleware_buffer_cap(
    *, host_memory_bytes: int, value_size: int, multiget_size: int, connections: int
) -> int:
    """Bytes a middleware may buffer for its `connections` clients on a host of
    `host_memory_bytes`: what they need at the design's sizes (a request of one value and a
    reply of `multiget_size` values each, plus a read buffer), at least FLOOR, at most
    1/HOST_SHARE of the host (which wins: the host stays safe, the run is flagged)."""
    per_value = value_size + VALUE_OVERHEAD
    per_connection = (multiget_size * per_value + per_value + READ_BUFFER) * HEADROOM
    need = max(connections * per_connection, FLOOR)
    return max(min(need, host_memory_bytes // HOST_SHARE), FLAG_MIN)
