"""What a configuration asks of the machines: memcached memory and connection counts.

One home for these numbers: the worker sizes memcached (`-m`, `-c`) from here, and the design
check rejects a configuration the machines cannot hold, naming the fields that multiply up.
"""

import math
import os

# Per-item overhead of memcached's slab allocator and item header, generously rounded.
ITEM_OVERHEAD_B = 128
MIN_MEMORY_MB = 64
# memcached's largest item (`-I`, which the worker leaves at its default of 1 MiB) holds the
# item header, the key and the value: 48 B header + 8 B CAS + the key's NUL + the value's "\r\n"
# (memcached 1.6 on 64-bit, measured: a value one byte larger is "object too large for cache").
MEMCACHED_ITEM_MAX_B = 1_048_576
MEMCACHED_ITEM_HEADER_B = 59
# The key_maximum parameter's upper bound: the largest key index a design may use.
KEY_MAXIMUM_MAX = 100_000_000
# The longest key a load generator sends: memtier's "memtier-" and the largest key index;
# memaslap's keys are 16 B (worker/drivers: a test holds both to this).
MEMTIER_KEY_PREFIX_B = len("memtier-")
LONGEST_KEY_B = max(MEMTIER_KEY_PREFIX_B + len(str(KEY_MAXIMUM_MAX)), 16)
# The largest value every key of every design can store: the value_size parameter's maximum.
MAX_VALUE_B = MEMCACHED_ITEM_MAX_B - MEMCACHED_ITEM_HEADER_B - LONGEST_KEY_B
# memcached's connection limit (`-c`), as the worker starts it.
MEMCACHED_MAX_CONNECTIONS = 4096
# The middleware's cap on open client connections (middleware-cpp/src/config.hpp
# max_connections); clients beyond it wait in the listen backlog and the run measures nothing.
MIDDLEWARE_MAX_CONNECTIONS = 16_384


def memory_mb(key_maximum: int, value_size: int) -> int:
    """Enough memory that the whole key space fits without evictions (+25% for slab waste)."""
    need = key_maximum * (value_size + ITEM_OVERHEAD_B) * 1.25 / (1024 * 1024)
    return max(MIN_MEMORY_MB, math.ceil(need))


def host_memory_mb() -> int:
    """Half the physical memory of this machine (the local testbed's host): the default of
    MCSCOPE_MEMCACHED_MAX_MEMORY_MB, the most memcached memory one server may be given."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        return 16_384
    return max(MIN_MEMORY_MB, total // 2 // (1024 * 1024))
