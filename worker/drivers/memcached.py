"""memcached servers: one worker thread (`-t 1`), memory sized for the key space; and a few
text-protocol commands (flush_all, stats) sent from a host on one short connection."""

import shlex

from backend.domain.memcached_sizing import MEMCACHED_MAX_CONNECTIONS, memory_mb
from worker.drivers.errors import DriverError
from worker.drivers.host import Host, RemoteProcess
from worker.drivers.tool import ToolDriver

__all__ = ["MemcachedDriver", "memory_mb", "server_stats", "flush_server"]

# Sends $2 on a connection to $0:$1 and prints every reply until memcached closes it (`quit`).
_ASK = 'exec 3<>"/dev/tcp/$0/$1" || exit 2; printf %s "$2" >&3; cat <&3'
ASK_TIMEOUT_S = 10


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


def ask(host: Host, address: str, port: int, commands: list[str]) -> list[str]:
    """Send text-protocol commands (and `quit`) from `host`; the reply lines, CR removed."""
    payload = "".join(f"{c}\r\n" for c in [*commands, "quit"])
    q = shlex.quote
    out = host.run(
        f"timeout {ASK_TIMEOUT_S} bash -c {q(_ASK)} {q(address)} {int(port)} {q(payload)}",
        timeout=ASK_TIMEOUT_S + 5,
    )
    return [line.rstrip("\r") for line in out.splitlines()]


def server_stats(host: Host, address: str, port: int) -> dict[str, int]:
    """memcached's `stats`, the numeric ones (curr_items, bytes, evictions, ...)."""
    stats: dict[str, int] = {}
    for line in ask(host, address, port, ["stats"]):
        parts = line.split()
        if len(parts) == 3 and parts[0] == "STAT" and parts[2].isdigit():
            stats[parts[1]] = int(parts[2])
    if "curr_items" not in stats:
        raise DriverError(f"{host.label}: no stats from memcached at {address}:{port}")
    return stats


def flush_server(host: Host, address: str, port: int) -> None:
    """`flush_all`: every item is invalid from now on (memory is reused, not given back)."""
    replies = ask(host, address, port, ["flush_all"])
    if replies[:1] != ["OK"]:
        raise DriverError(f"{host.label}: flush_all at {address}:{port} answered {replies[:1]}")
