"""The mcscope middleware: flags from the typed configuration, stats written on SIGTERM."""

import shlex

from worker.drivers.errors import ToolMissingError
from worker.drivers.host import RemoteProcess
from worker.drivers.tool import ToolDriver

# Stats are flushed on SIGTERM; give it time before SIGKILL would lose them.
STATS_GRACE_S = 20.0


class MiddlewareDriver(ToolDriver):
    tool = "mcscope-middleware"
    candidates = ("mcscope-middleware",)

    def version_checked(self) -> str:
        q = shlex.quote(self.binary)
        out = self.host.run(f"test -x {q} && sha256sum {q} || echo missing").split()
        if not out or out[0] == "missing":
            raise ToolMissingError(f"{self.host.label}: {self.tool} not found at {self.binary}")
        return f"sha256:{out[0][:16]}"

    def version_shell(self) -> str:
        # The binary may not print a version; its content hash identifies the build.
        return 'echo "sha256:$(sha256sum "$b" | cut -c1-16)"'

    def version(self) -> str:
        # The binary may not print a version; its content hash identifies the build.
        out = self.host.run(f"sha256sum {shlex.quote(self.binary)}", check=False).split()
        return f"sha256:{out[0][:16]}" if out else "unknown"

    def argv(
        self,
        *,
        listen: str,
        port: int,
        workers: int,
        sharded: bool,
        servers: list[tuple[str, int]],
        replication: int,
        queue_capacity: int,
        max_buffered_bytes: int,
        stats_dir: str,
    ) -> list[str]:
        return [
            self.binary,
            "-l",
            listen,
            "-p",
            str(port),
            "-t",
            str(workers),
            "-s",
            "true" if sharded else "false",
            "-m",
            *(f"{address}:{int(p)}" for address, p in servers),
            "-r",
            str(replication),
            "--stats-dir",
            stats_dir,
            "--queue-capacity",
            str(queue_capacity),
            "--max-buffered-bytes",
            str(max_buffered_bytes),
        ]

    def start(self, *, workdir: str, name: str, argv: list[str], port: int) -> RemoteProcess:
        """Start with argv from `argv()` and wait until it accepts connections."""
        proc = self.launch(argv, workdir, name)
        self.host.wait_listening(proc, port)
        return proc

    def stop(self, proc: RemoteProcess, grace_s: float = STATS_GRACE_S) -> bool:
        return self.host.stop(proc.pid, grace_s)
