"""Process helper for integration tests: start/stop/alive for memcached and the middleware."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

MIDDLEWARE_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_BIN = MIDDLEWARE_ROOT / "build" / "release" / "mcscope-middleware"
HOST = "127.0.0.1"


def middleware_bin() -> Path:
    """The binary under test: MCSCOPE_MIDDLEWARE_BIN or the release build."""
    return Path(os.environ.get("MCSCOPE_MIDDLEWARE_BIN", str(DEFAULT_BIN)))


def free_port() -> int:
    """A currently free TCP port on 127.0.0.1 (the kernel picks it)."""
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


def wait_port(port: int, timeout: float = 10.0) -> None:
    """Block until something accepts on port, or raise TimeoutError."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((HOST, port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.02)
    raise TimeoutError(f"nothing listening on {HOST}:{port}")


class Proc:
    """One child process, stopped by its own PID only."""

    def __init__(self, argv: list[str], port: int) -> None:
        self.argv = argv
        self.port = port
        self.log = Path(tempfile.mkstemp(prefix="mcscope-proc-", suffix=".log")[1])
        self.popen: subprocess.Popen[bytes] | None = None
        self.saved_output = ""  # the log's text once stop() has removed the file

    def start(self) -> Proc:
        with self.log.open("ab") as out:
            self.popen = subprocess.Popen(self.argv, stdout=out, stderr=subprocess.STDOUT)
        try:
            wait_port(self.port)
        except TimeoutError:
            self.stop(signal.SIGKILL)  # never leave a half-started process behind
            raise TimeoutError(f"{self.argv[0]} did not listen:\n{self.output()[-2000:]}") from None
        return self

    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def send_signal(self, sig: int) -> None:
        if self.alive():
            assert self.popen is not None
            os.kill(self.popen.pid, sig)

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


def memcached_available() -> bool:
    return shutil.which("memcached") is not None


def memcached(port: int | None = None) -> Proc:
    """A memcached like the reports use: one thread, no UDP."""
    port = port or free_port()
    argv = ["memcached", "-l", HOST, "-p", str(port), "-U", "0", "-t", "1", "-m", "64"]
    if os.geteuid() == 0:
        argv += ["-u", "nobody"]  # memcached refuses to run as root without -u
    return Proc(argv, port).start()


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
    port = free_port()
    argv = [str(middleware_bin()), "-l", HOST, "-p", str(port), "-t", str(workers)]
    argv += ["-s", "true" if sharded else "false", "-m"]
    argv += [f"{HOST}:{p}" for p in servers]
    if replication is not None:
        argv += ["-r", str(replication)]
    if stats_dir is not None:
        argv += ["--stats-dir", str(stats_dir)]
    argv += extra or []
    return Proc(argv, port).start()
