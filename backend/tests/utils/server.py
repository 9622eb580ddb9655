"""A real API server (uvicorn through backend.serve) on a free loopback port, on this test
session's database."""

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx

from backend.core.config import REPO_ROOT
from backend.tests.utils.ports import Listener, free_port, listener


class ApiServer:
    def __init__(self, log_dir: Path, log_level: str = "warning", **env: str) -> None:
        self.env = {**os.environ, **env}
        self.log_dir = log_dir
        self.log_level = log_level
        self.proc: subprocess.Popen[bytes] | None = None
        self._pick_port()

    def _pick_port(self) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = self.log_dir / f"uvicorn-{self.port}.log"

    def start(self, timeout_s: float = 60, port_attempts: int = 3) -> "ApiServer":
        # The way `make up` and docker-compose start it (backend/serve.py).
        cmd = [sys.executable, "-m", "backend.serve", "--host", "127.0.0.1"]
        cmd += ["--port", str(self.port), "--log-level", self.log_level]
        with self.log_path.open("wb") as log:
            self.proc = subprocess.Popen(
                cmd, cwd=REPO_ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + timeout_s
        # One client for every poll: httpx.get builds a new client (and TLS context) per call,
        # 22 ms of CPU per poll against 0.2 ms: a tenth of a core while the server starts.
        with httpx.Client(timeout=2) as http:
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    taken = listener(self.proc.pid, self.port) is Listener.OTHER
                    if taken and port_attempts > 1:  # another server took it before ours bound
                        self._pick_port()
                        return self.start(timeout_s, port_attempts - 1)
                    raise RuntimeError(f"uvicorn exited: {self.log()}")
                # Answering is not enough: another worker's server may hold a port ours
                # failed to bind (backend/tests/utils/ports.py).
                if listener(self.proc.pid, self.port) is Listener.OURS:
                    try:
                        http.get(f"{self.url}/api/v1/health")
                        return self
                    except httpx.HTTPError:
                        pass
                time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"uvicorn did not answer after {timeout_s} s: {self.log()}")

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
