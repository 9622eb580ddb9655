"""A real API server (uvicorn through backend.serve) on a free loopback port, on this test
session's database."""

import os
import subprocess
import sys
from pathlib import Path

import httpx

from backend.core.config import REPO_ROOT
from backend.tests.utils.ports import (
    ExitedBeforeListening,
    PortTaken,
    free_port,
    start_on_free_port,
    wait_listening,
)


class ApiServer:
    def __init__(self, log_dir: Path, log_level: str = "warning", **env: str) -> None:
        self.env = {**os.environ, **env}
        self.log_dir = log_dir
        self.log_level = log_level
        self.proc: subprocess.Popen[bytes] | None = None
        self._use_port(free_port())

    def _use_port(self, port: int) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = self.log_dir / f"uvicorn-{self.port}.log"

    def start(self, timeout_s: float = 60) -> "ApiServer":
        """Start on this server's port, or on another one if another process took it first
        (backend/tests/utils/ports.py); return once it answers its health check."""
        try:
            self._start_on(self.port, timeout_s)
        except PortTaken:
            start_on_free_port(lambda port: self._start_on(port, timeout_s), attempts=2)
        return self

    def _start_on(self, port: int, timeout_s: float) -> None:
        self._use_port(port)
        # The way `make up` and docker-compose start it (backend/serve.py).
        cmd = [sys.executable, "-m", "backend.serve", "--host", "127.0.0.1"]
        cmd += ["--port", str(self.port), "--log-level", self.log_level]
        with self.log_path.open("wb") as log:
            self.proc = subprocess.Popen(
                cmd, cwd=REPO_ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
            )
        # One client for every poll: httpx.get builds a new client (and TLS context) per call,
        # 22 ms of CPU per poll against 0.2 ms: a tenth of a core while the server starts.
        with httpx.Client(timeout=2) as http:

            def answers() -> bool:
                try:
                    http.get(f"{self.url}/api/v1/health")
                    return True
                except httpx.HTTPError:
                    return False

            try:  # PortTaken goes up: the process is gone, start() picks another port
                wait_listening(self.proc, self.port, timeout_s, ready=answers, poll_s=0.2)
            except (ExitedBeforeListening, TimeoutError) as exc:
                self.stop()
                raise RuntimeError(f"uvicorn: {exc}: {self.log()}") from exc

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-4000:]
