"""memcached servers: one worker thread (`-t 1`), memory sized for the key space."""

from backend.domain.resources import MEMCACHED_MAX_CONNECTIONS, memory_mb
from worker.drivers.host import RemoteProcess
from worker.drivers.tool import ToolDriver

__all__ = ["MemcachedDriver", "memory_mb"]


class MemcachedDriver(ToolDriver):
    tool = "memcached"
    candidates = ("memcached",)
    version_args = ("-V",)

    def argv(self, *, listen: str, port: int, memory: int, as_root: bool) -> list[str]:
        argv = [self.binary, "-l", listen, "-p", str(port), "-t", "1", "-m", str(memory)]
        argv += ["-U", "0", "-c", str(MEMCACHED_MAX_CONNECTIONS)]
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
