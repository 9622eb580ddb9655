"""Process helper for integration tests: start/stop/alive for memcached and the middleware."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

from backend.tests.utils import ports
from backend.tests.utils.ports import HOST, ExitedBeforeListening, PortTaken, wait_listening
from backend.tests.utils.stopping import stop_process

MIDDLEWARE_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_BIN = MIDDLEWARE_ROOT / "build" / "release" / "mcscope-middleware"


def middleware_bin() -> Path:
    """The binary under test: MCSCOPE_MIDDLEWARE_BIN or the release build."""
    return Path(os.environ.get("MCSCOPE_MIDDLEWARE_BIN", str(DEFAULT_BIN)))


class Proc:
    """One child process, stopped by its own PID only."""

    def __init__(self, argv: list[str], port: int) -> None:
        self.argv = argv
        self.port = port
        self.log = Path(tempfile.mkstemp(prefix="mcscope-proc-", suffix=".log")[1])
        self.popen: subprocess.Popen[bytes] | None = None
        self.saved_output = ""  # the log's text once stop() has removed the file

    def start(self) -> Proc:
        """Start and wait until this process itself listens on the port: the three suites run
        side by side, and another suite's server may answer on a port ours failed to bind
        (backend/tests/utils/ports.py). PortTaken (restart elsewhere) when that happened."""
        with self.log.open("ab") as out:
            self.popen = subprocess.Popen(self.argv, stdout=out, stderr=subprocess.STDOUT)
        try:
            wait_listening(self.popen, self.port, timeout_s=10.0)
        except (PortTaken, ExitedBeforeListening, TimeoutError) as exc:
            self.stop(signal.SIGKILL)  # never leave a half-started process behind
            raise type(exc)(f"{self.argv[0]}: {exc}:\n{self.output()[-2000:]}") from exc
        return self

    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def send_signal(self, sig: int) -> None:
        """Signal the running process; one that has exited is an error, not a no-op (a test
        that stops a server which is gone would measure another one)."""
        if not self.alive():
            raise RuntimeError(f"{self.argv[0]} on port {self.port} is not running")
        assert self.popen is not None
        os.kill(self.popen.pid, sig)

    def pause(self) -> None:
        """SIGSTOP, returning once every thread has stopped (a hung server, for sure)."""
        if not self.alive():
            raise RuntimeError(f"{self.argv[0]} on port {self.port} is not running")
        assert self.popen is not None
        stop_process(self.popen.pid)

    def resume(self) -> None:
        self.send_signal(signal.SIGCONT)

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 20.0) -> int | None:
        """Signal the process and wait; SIGKILL if it does not exit in time. The log file is
        read into saved_output and removed."""
        if self.popen is None:
            return None
        if self.popen.poll() is None:
            os.kill(self.popen.pid, sig)
            try:
                self.popen.wait(timeout)
            except subprocess.TimeoutExpired:
                os.kill(self.popen.pid, signal.SIGKILL)
                self.popen.wait()
        if self.log.exists():
            self.saved_output = self.log.read_text(errors="replace")
            self.log.unlink()
        return self.popen.returncode

    def output(self) -> str:
        if self.log.exists():
            return self.log.read_text(errors="replace")
        return self.saved_output


def start_on_free_port(argv: Callable[[int], list[str]]) -> Proc:
    """Start argv(port) on a free port, on another one if the port was taken meanwhile."""
    return ports.start_on_free_port(lambda port: Proc(argv(port), port).start())


def memcached_available() -> bool:
    return shutil.which("memcached") is not None


def memcached(port: int | None = None) -> Proc:
    """A memcached like the reports use: one thread, no UDP."""

    def argv(port: int) -> list[str]:
        args = ["memcached", "-l", HOST, "-p", str(port), "-U", "0", "-t", "1", "-m", "64"]
        if os.geteuid() == 0:
            args += ["-u", "nobody"]  # memcached refuses to run as root without -u
        return args

    if port is not None:  # a restart on a known port: no other port will do
        return Proc(argv(port), port).start()
    return start_on_free_port(argv)


def middleware(
    servers: list[int],
    *,
    sharded: bool = False,
    replication: int | None = None,
    workers: int = 4,
    stats_dir: Path | None = None,
    extra: list[str] | None = None,
) -> Proc:
    """The middleware under test in front of the given memcached ports."""

    def argv(port: int) -> list[str]:
        args = [str(middleware_bin()), "-l", HOST, "-p", str(port), "-t", str(workers)]
        args += ["-s", "true" if sharded else "false", "-m"]
        args += [f"{HOST}:{p}" for p in servers]
        if replication is not None:
            args += ["-r", str(replication)]
        if stats_dir is not None:
            args += ["--stats-dir", str(stats_dir)]
        return args + (extra or [])

    return start_on_free_port(argv)
