"""One testbed machine reached over SSH (Fabric): run, start in background, stop by PID, fetch.

The local testbed goes through the same code (SSH to 127.0.0.1), so the cloud path is tested
whenever the local one is. Every call has a connect timeout and a command timeout.
"""

import base64
import errno
import logging
import secrets
import shlex
import socket
import tarfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import paramiko
from fabric import Connection

from backend.core.addresses import AddressRefused, check_literal
from backend.core.config import settings
from backend.core.host_keys import known_hosts_name
from worker.drivers.archive import ArchiveError, extract_outputs
from worker.drivers.errors import (
    AddressRefusedError,
    CommandError,
    HostUnreachableError,
    ProcessDiedError,
)
from worker.drivers.host_keys import HostKeyMismatchError, mismatch_message, pin_host_keys
from worker.drivers.shell import ShellGone, ShellSession, ShellTimeout

logger = logging.getLogger(__name__)

CONNECT_TIMEOUT_S = 10
COMMAND_TIMEOUT_S = 30
STOP_GRACE_S = 10.0
_SSH_ERRORS = (paramiko.SSHException, socket.error, EOFError)
# Errors of writing on the worker's own disk (socket.error is OSError, so tell them apart).
LOCAL_DISK_FULL = (errno.ENOSPC, errno.EDQUOT)


@dataclass(frozen=True)
class HostSpec:
    """Where a role runs: address and SSH login (only the key's path, never the key)."""

    name: str
    address: str
    user: str
    port: int
    key_path: str
    # The host's pinned public key ("ssh-ed25519 AAAA..."); None: not pinned, not connected to.
    host_key: str | None = None


@dataclass
class RemoteProcess:
    """A tool started in the background; its files live in `workdir` named after `name`."""

    host: "Host"
    name: str
    workdir: str
    pid: int
    start_unix: float
    argv: list[str] = field(default_factory=list)
    # Kernel start time (clock ticks since boot, /proc/<pid>/stat field 22): with the PID, it
    # names this process only, so a PID reused later is never taken for it (worker.drivers.sweep).
    start_ticks: int | None = None

    def path(self, suffix: str) -> str:
        return f"{self.workdir}/{self.name}.{suffix}"


def ended_unix(local_dir: Path, name: str) -> float | None:
    """When a process `start` launched exited (its fetched `<name>.end`), None if unknown."""
    try:
        return float((local_dir / f"{name}.end").read_text().strip())
    except (OSError, ValueError):
        return None


def program_name(argv: list[str]) -> str:
    """The tool an argv runs, looking through a `stdbuf -oL` or `nice -n N` prefix."""
    rest = argv[2:] if argv[:2] == ["stdbuf", "-oL"] else argv
    rest = rest[3:] if rest[:2] == ["nice", "-n"] else rest
    return rest[0].rsplit("/", 1)[-1] if rest else ""


def parse_ss(text: str) -> set[int]:
    """Listening TCP ports from `ss -Htln` output."""
    ports: set[int] = set()
    for line in text.splitlines():
        fields = line.split()
        if len(fields) >= 4 and fields[3].rsplit(":", 1)[-1].isdigit():
            ports.add(int(fields[3].rsplit(":", 1)[-1]))
    return ports


class Host:
    """A Fabric connection to one machine, opened lazily and closed by `close`."""

    def __init__(self, spec: HostSpec) -> None:
        self.spec = spec
        self._conn: Connection | None = None
        # The long-lived shell every `run` goes through (see worker.drivers.shell).
        self._shell: ShellSession | None = None
        # Tool binaries found on this host (tool -> path), so each is looked up once.
        self.located: dict[str, str] = {}

    @property
    def label(self) -> str:
        return f"{self.spec.name} ({self.spec.user}@{self.spec.address}:{self.spec.port})"

    def _connection(self) -> Connection:
        if self._conn is None:
            try:
                # A host stored before the address policy (backend/core/addresses.py), or
                # with a supplied key, is held to it here too (no DNS: the scanner checks names).
                check_literal(self.spec.address)
            except AddressRefused as exc:
                raise AddressRefusedError(f"{self.label}: not connected to: {exc}") from exc
            conn = Connection(
                host=self.spec.address,
                user=self.spec.user,
                port=self.spec.port,
                connect_timeout=CONNECT_TIMEOUT_S,
                connect_kwargs={
                    "key_filename": [self.spec.key_path],
                    "look_for_keys": False,
                    "allow_agent": False,
                    "banner_timeout": CONNECT_TIMEOUT_S,
                    "auth_timeout": CONNECT_TIMEOUT_S,
                },
            )
            pin_host_keys(
                conn.client,
                known_hosts_name(self.spec.address, self.spec.port),
                self.label,
                self.spec.host_key,
            )
            self._conn = conn
        return self._conn

    def host_key_fingerprint(self) -> str | None:
        """The SSH host key this connection checked ("ssh-ed25519 SHA256:..."), recorded on
        the run so that the user sees which key was pinned or matched; None if not connected."""
        transport = self._conn.client.get_transport() if self._conn is not None else None
        if transport is None or not transport.is_active():
            return None
        key = transport.get_remote_server_key()
        return f"{key.get_name()} {key.fingerprint}"

    def connected(self) -> bool:
        """True when a connection is open and its transport alive."""
        return self._conn is not None and bool(self._conn.is_connected)

    def close(self) -> None:
        if self._shell is not None:
            self._shell.close()
            self._shell = None
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _session(self) -> ShellSession:
        """The host's shell, started on first use and after it ended."""
        if self._shell is None or not self._shell.alive:
            conn = self._connection()
            conn.open()
            transport = conn.client.get_transport()
            if transport is None:
                raise paramiko.SSHException("no transport after connecting")
            self._shell = ShellSession(transport, CONNECT_TIMEOUT_S)
        return self._shell

    def run(self, command: str, timeout: float = COMMAND_TIMEOUT_S, check: bool = True) -> str:
        """Run a shell command built only from quoted, typed values; return its stdout. It
        runs in the host's long-lived shell: one round trip, no new SSH channel."""
        try:
            result = self._session().run(command, timeout)
        except ShellTimeout as exc:
            self._shell = None
            raise CommandError(self.label, command, None, exc.stderr) from exc
        except paramiko.BadHostKeyException as exc:
            self.close()
            raise HostKeyMismatchError(mismatch_message(self.label, exc)) from exc
        except (ShellGone, *_SSH_ERRORS) as exc:
            self.close()
            raise HostUnreachableError(f"{self.label}: SSH failed: {exc}") from exc
        if check and result.exited != 0:
            raise CommandError(self.label, command, result.exited, result.stderr or result.stdout)
        return result.stdout

    def mkdir(self, path: str) -> None:
        self.run(f"mkdir -p {shlex.quote(path)}")

    def start(self, argv: list[str], workdir: str, name: str) -> RemoteProcess:
        """Start argv detached; the tool's PID, exit code, start and end time land in files."""
        q = shlex.quote
        base = f"{workdir}/{name}"
        # `cmd &` then `$!` is the tool's own PID (a simple command execs in the child), so
        # stopping by that PID reaches the tool, and `wait` records its real exit code.
        # The CPU time the shell waited for (cutime + cstime, /proc/<pid>/stat fields 16 and
        # 17) after the tool minus before it: the tool's exact total, the monitor's last value.
        waited = '{ read -r s < /proc/$$/stat; s=${s##*") "}; set -- $s; echo $((${14} + ${15})); }'
        script = (
            f"c0=$({waited}); date +%s.%N > {q(base + '.start')}; "
            f"{shlex.join(argv)} > {q(base + '.out')} 2> {q(base + '.err')} < /dev/null & "
            f"echo $! > {q(base + '.pid')}; wait $!; rc=$?; date +%s.%N > {q(base + '.end')}; "
            f"echo $(($({waited}) - c0)) > {q(base + '.cpu')} 2>/dev/null; "
            f"echo $rc > {q(base + '.rc')}"
        )
        # One round trip: `&` applies to nohup alone, whose output goes to /dev/null, so the
        # SSH channel is not held by the tool; then wait for the PID file and read it.
        out = self.run(
            f"cd {q(workdir)} || exit 1; rm -f {q(base + '.pid')} {q(base + '.rc')}; "
            f"nohup sh -c {q(script)} > /dev/null 2>&1 < /dev/null & "
            f"for i in $(seq 200); do [ -s {q(base + '.pid')} ] && break; sleep 0.02; done; "
            f"cat {q(base + '.pid')} {q(base + '.start')}; "
            # The start time of the PID (gone already if the tool failed at once).
            f"{{ read -r p < {q(base + '.pid')} && read -r s < /proc/$p/stat && "
            's=${s##*") "} && set -- $s && echo ${20}; } 2>/dev/null; true'
        ).split()
        if len(out) < 2:
            raise ProcessDiedError(f"{self.label}: {name} did not start: {shlex.join(argv)}")
        ticks = int(out[2]) if len(out) > 2 and out[2].isdigit() else None
        return RemoteProcess(self, name, workdir, int(out[0]), float(out[1]), argv, ticks)

    def alive(self, pid: int) -> bool:
        return self.run(f"kill -0 {int(pid)} 2>/dev/null && echo y || echo n").strip() == "y"

    def alive_pids(self, pids: list[int]) -> set[int]:
        """Which of these PIDs still run, in one round trip."""
        if not pids:
            return set()
        listed = " ".join(str(int(p)) for p in pids)
        out = self.run(f"for p in {listed}; do kill -0 $p 2>/dev/null && echo $p; done; true")
        return {int(x) for x in out.split()}

    def poll(
        self, pids: list[int], files: dict[str, tuple[str, int]]
    ) -> tuple[set[int], dict[str, bytes]]:
        """One round trip: which PIDs live, and new bytes of each file {key: (path, offset)}."""
        parts = [
            f"for p in {' '.join(str(int(p)) for p in pids) or '0'}; do "
            "kill -0 $p 2>/dev/null && echo $p; done"
        ]
        for key, (path, offset) in files.items():
            parts.append(
                f"echo {shlex.quote('@@' + key)}; "
                f"tail -c +{int(offset) + 1} {shlex.quote(path)} 2>/dev/null | base64 -w0; echo"
            )
        out = self.run("; ".join(parts) + "; true")
        lines = out.splitlines()
        markers = [i for i, line in enumerate(lines) if line.startswith("@@")]
        alive = {int(x) for x in lines[: markers[0] if markers else len(lines)] if x.strip()}
        chunks: dict[str, bytes] = {}
        for i in markers:
            data = lines[i + 1] if i + 1 < len(lines) else ""
            chunks[lines[i][2:]] = base64.b64decode(data) if data else b""
        return alive, chunks

    def exit_code(self, proc: RemoteProcess) -> int | None:
        """The recorded exit code, or None while the process runs."""
        text = self.run(f"cat {shlex.quote(proc.path('rc'))} 2>/dev/null || true").strip()
        return int(text) if text.lstrip("-").isdigit() else None

    def stop_in_order(
        self, pids: list[tuple[int, float]], wake: dict[int, tuple[str, int]] | None = None
    ) -> None:
        """Stop several processes one after the other (SIGTERM, up to its grace, SIGKILL), in
        one round trip. `wake` (pid -> address, port): after SIGTERM, open one connection to
        that port; memcached checks for a signal only when its event loop wakes (once a second
        when idle), so a connection makes it exit at once instead of up to 1 s later."""
        q = shlex.quote
        parts = []
        for pid, grace_s in pids:
            steps = max(1, int(grace_s / 0.05))
            poke = ""
            if wake and pid in wake:
                address, port = wake[pid]
                poke = (
                    "command -v bash >/dev/null && timeout 1 bash -c "
                    f"{q('exec 3<>/dev/tcp/$0/$1')} {q(address)} {int(port)} 2>/dev/null; "
                )
            parts.append(
                f"p={int(pid)}; if kill -TERM $p 2>/dev/null; then {poke}"
                f"for i in $(seq {steps}); do kill -0 $p 2>/dev/null || break; sleep 0.05; done; "
                f"kill -0 $p 2>/dev/null && kill -KILL $p 2>/dev/null && echo killed $p; fi"
            )
        if not parts:
            return
        total = sum(g for _, g in pids) + len(wake or {})  # each poke: up to 1 s
        out = self.run("; ".join(parts) + "; true", timeout=total + COMMAND_TIMEOUT_S)
        for line in out.splitlines():
            if line.startswith("killed "):
                logger.warning("process.killed", extra={"host": self.spec.name, "pid": line[7:]})

    def wait_exit(self, proc: RemoteProcess, within_s: float) -> int | None:
        """Wait up to within_s for the process to end, in one round trip; its exit code, or
        None while it still runs."""
        q = shlex.quote
        steps = max(1, int(within_s / 0.05))
        out = self.run(
            f"for i in $(seq {steps}); do kill -0 {int(proc.pid)} 2>/dev/null || break; "
            f"sleep 0.05; done; kill -0 {int(proc.pid)} 2>/dev/null && echo running || "
            f"{{ for i in $(seq 40); do [ -s {q(proc.path('rc'))} ] && break; sleep 0.05; done; "
            f"cat {q(proc.path('rc'))} 2>/dev/null || echo unknown; }}",
            timeout=within_s + COMMAND_TIMEOUT_S,
        ).strip()
        if out == "running":
            return None
        return int(out) if out.lstrip("-").isdigit() else -1

    def stop(self, pid: int, grace_s: float = STOP_GRACE_S) -> bool:
        """SIGTERM, wait up to grace_s, then SIGKILL. True when it ended within the grace."""
        steps = max(1, int(grace_s / 0.1))
        out = self.run(
            f"p={int(pid)}; kill -TERM $p 2>/dev/null || {{ echo gone; exit 0; }}; "
            f"for i in $(seq {steps}); do kill -0 $p 2>/dev/null || {{ echo term; exit 0; }}; "
            f"sleep 0.1; done; kill -KILL $p 2>/dev/null; echo kill",
            timeout=grace_s + COMMAND_TIMEOUT_S,
        ).strip()
        if out == "kill":
            logger.warning("process.killed", extra={"host": self.spec.name, "pid": pid})
        return out != "kill"

    def read_from(self, path: str, offset: int) -> bytes:
        """Bytes of a growing remote file from `offset` on (for live progress)."""
        out = self.run(f"tail -c +{int(offset) + 1} {shlex.quote(path)} 2>/dev/null || true")
        return out.encode()

    def tail(self, path: str, nbytes: int = 600) -> str:
        return self.run(f"tail -c {int(nbytes)} {shlex.quote(path)} 2>/dev/null || true").strip()

    def get(self, remote: str, local: Path) -> None:
        local.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._connection().get(remote, str(local))
        except OSError as exc:
            if exc.errno in LOCAL_DISK_FULL:  # our disk, not the host: not worth a retry
                raise
            self.close()
            raise HostUnreachableError(f"{self.label}: fetching {remote} failed: {exc}") from exc
        except _SSH_ERRORS as exc:
            self.close()
            raise HostUnreachableError(f"{self.label}: fetching {remote} failed: {exc}") from exc

    def fetch_tree(self, directory: str, local: Path) -> None:
        """Copy a whole remote directory in one archive (one transfer, not one per file)."""
        q = shlex.quote
        # Its own name: hosts sharing a filesystem (test namespaces) fetch at the same time.
        tarball = f"{directory}.fetch-{secrets.token_hex(4)}.tgz"
        # A stopped tool's wrapper writes its .rc just after the tool exits, so wait (up to 2 s)
        # until every process that ended has one: otherwise tar sees the directory change (one
        # still running, a server kept for the next run, is not waited for). tar's
        # exit 1 ("file changed as we read it", e.g. a log of a process still running) still
        # gives a whole archive, so only exit 2 (fatal) fails the fetch.
        d = q(directory)
        size = self.run(
            f'for i in $(seq 40); do left=0; for p in {d}/*.pid; do [ -e "$p" ] || continue; '
            f'[ -e "${{p%.pid}}.rc" ] || kill -0 "$(cat "$p")" 2>/dev/null || left=1; done; '
            f"[ $left = 0 ] && break; sleep 0.05; done; "
            f"tar -C {d} -czf {q(tarball)} . ; rc=$?; [ $rc -le 1 ] || exit $rc; "
            f"stat -c %s {q(tarball)}",
            timeout=300,
        )
        if int(size.strip() or 0) > settings.FETCH_MAX_ARCHIVE_BYTES:
            self.run(f"rm -f {q(tarball)}")
            raise ArchiveError(
                f"{self.label}: outputs archive of {size.strip()} bytes is over the "
                f"{settings.FETCH_MAX_ARCHIVE_BYTES}-byte cap; the files stay in {directory}"
            )
        local.mkdir(parents=True, exist_ok=True)
        target = local / ".fetch.tgz"
        self.get(tarball, target)
        self.run(f"rm -f {q(tarball)}")
        try:
            extract_outputs(
                target,
                local,
                max_members=settings.FETCH_MAX_MEMBERS,
                max_bytes=settings.FETCH_MAX_UNPACKED_BYTES,
            )
        except (ArchiveError, tarfile.TarError) as exc:
            raise ArchiveError(
                f"{self.label}: outputs archive of {directory} refused: {exc}"
            ) from exc
        finally:
            target.unlink(missing_ok=True)

    def list_files(self, directory: str) -> list[str]:
        out = self.run(f"find {shlex.quote(directory)} -type f 2>/dev/null || true")
        return [line for line in out.splitlines() if line]

    def listening_ports(self) -> set[int]:
        return parse_ss(self.run("ss -Htln"))

    def wait_listening(self, proc: RemoteProcess, port: int, timeout_s: float = 15) -> None:
        """Until something listens on port (polled on the host, one round trip); fails early
        if the process exits."""
        steps = max(1, int(timeout_s / 0.02))
        # ss prints the local address as ADDR:PORT; match the port at the end of field 4.
        out = self.run(
            f"for i in $(seq {steps}); do "
            f"ss -Htln | awk '{{print $4}}' | grep -q ':{int(port)}$' && {{ echo up; exit 0; }}; "
            f"kill -0 {int(proc.pid)} 2>/dev/null || {{ echo died; exit 0; }}; sleep 0.02; done; "
            "echo timeout",
            timeout=timeout_s + COMMAND_TIMEOUT_S,
        ).strip()
        if out == "up":
            return
        if out == "died":
            raise ProcessDiedError(
                f"{self.label}: {proc.name} exited before listening on port {port}: "
                f"{self.tail(proc.path('err'))}"
            )
        raise ProcessDiedError(
            f"{self.label}: {proc.name} not listening on port {port} after {timeout_s} s"
        )

    def clock_offset_s(self) -> tuple[float, float]:
        """Remote clock minus local clock and its uncertainty (half the round trip), from the
        quickest of three probes (a slow SSH round trip says nothing about the clocks)."""
        samples = []
        for _ in range(3):
            before = time.time()
            remote = float(self.run("date +%s.%N").strip())
            after = time.time()
            samples.append((after - before, remote - (before + after) / 2))
        rtt, offset = min(samples)
        return offset, rtt / 2
