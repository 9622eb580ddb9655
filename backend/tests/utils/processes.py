"""Real processes for integration tests, started and stopped by PID."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from backend.core.config import REPO_ROOT
from worker.drivers.local_process import pid_running


class CeleryWorkerProcess:
    """A real `celery worker` on this test session's private queue and database."""

    def __init__(
        self,
        log_dir: Path,
        concurrency: int = 1,
        beat: bool = False,
        env: dict[str, str] | None = None,
        app: str = "worker.celery_app",
        queue_suffix: str | None = None,
    ) -> None:
        """beat: the maintenance worker with Celery beat embedded (periodic recovery).
        app: the Celery app module (the Azure tests' points Azure at the fake); queue_suffix:
        another queue than runs/maintenance (".azure")."""
        self.log_path = log_dir / f"{'beat' if beat else 'worker'}-{time.monotonic_ns()}.log"
        self.concurrency = concurrency
        self.beat = beat
        self.env = {**os.environ, **(env or {})}
        self.app = app
        self.queue_suffix = queue_suffix
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout_s: float = 60) -> None:
        celery = Path(sys.executable).with_name("celery")
        queue = self.env["MCSCOPE_RUNS_QUEUE"]
        beat = ["-B", "-s", str(self.log_path.with_suffix(".schedule"))] if self.beat else []
        cmd = [
            str(celery),
            "-A",
            self.app,
            "worker",
            *beat,
            "--loglevel=INFO",
            "-Q",
            f"{queue}{self.queue_suffix}"
            if self.queue_suffix
            else (f"{queue}.maintenance" if self.beat else queue),
            f"--concurrency={self.concurrency}",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "-n",
            f"test-{os.getpid()}-{time.monotonic_ns()}@%h",
        ]
        log = self.log_path.open("wb")
        self.proc = subprocess.Popen(
            cmd,
            cwd=REPO_ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=self.env,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"celery worker exited: {self.log()}")
            if b"ready." in self.log_path.read_bytes():
                return
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"celery worker not ready after {timeout_s} s: {self.log()}")

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL the whole process group: what a crashed machine looks like to Celery."""
        if self.proc is not None and self.alive():
            # The group's id is the worker's PID (own session), so pool children die too.
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self, timeout_s: float = 20) -> None:
        if self.proc is None or not self.alive():
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout_s)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-4000:]


def pid_alive(pid: int) -> bool:
    """A process of this machine (the local testbed) still runs (a zombie does not)."""
    return pid_running(pid)
