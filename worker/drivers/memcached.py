"""memcached servers: one worker thread (`-t 1`), memory sized for the key space."""

import math

from worker.drivers.host import RemoteProcess
from worker.drivers.tool import ToolDriver

# Per-item overhead of memcached's slab allocator and item header, generously rounded.
ITEM_OVERHEAD_B = 128
MIN_MEMORY_MB = 64


def memory_mb(key_maximum: int, value_size: int) -> int:
    """Enough memory that the whole key space fits without evictions (+25% for slab waste)."""
    need = key_maximum * (value_size + ITEM_OVERHEAD_B) * 1.25 / (1024 * 1024)
    return max(MIN_MEMORY_MB, math.ceil(need))


class MemcachedDriver(ToolDriver):
    tool = "memcached"
    candidates = ("memcached",)
    version_args = ("-V",)

    def argv(self, *, listen: str, port: int, memory: int, as_root: bool) -> list[str]:
        argv = [self.binary, "-l", listen, "-p", str(port), "-t", "1", "-m", str(memory)]
        argv += ["-U", "0", "-c", "4096"]
        # memcached refuses to run as root unless told which user to stay.
        return argv + (["-u", "root"] if as_root else [])

    def start(
        self, *, workdir: str, name: str, listen: str, port: int, memory: int, as_root: bool
    ) -> RemoteProcess:
        proc = self.launch(
            self.argv(listen=listen, port=port, memory=memory, as_root=as_root), workdir, name
        )
        self.host.wait_listening(proc, port)
        return proc
