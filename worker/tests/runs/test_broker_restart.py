"""Redis stopped during Start, then started, then restarted with runs queued (its queue is not
persisted, so their messages are lost): every run still finishes, exactly once. Uses a Redis
server of its own on a free port, never the machine's."""

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from celery import Celery
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from backend.core import queue
from backend.models import RunStatus, RunSummary
from backend.tests.utils.experiment import create_random_experiment
from backend.tests.utils.processes import CeleryWorkerProcess
from worker.tests.utils.experiments import (
    LOCAL_FIXED,
    SHORTEST_RUN,
    all_final,
    runs_of,
    wait_for,
)

# What happens to runs, not what their load measures (every run finishes once across Redis
# restarts): run last in the load lane, beside the browser tests (backend/tests/utils/load_lane.py).
pytestmark = [pytest.mark.integration, pytest.mark.load_not_measured]

API = "/api/v1/experiments"


class RedisServer:
    """redis-server on its own port, started and stopped by PID, no persistence."""

    def __init__(self, log_dir: Path) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])
        self.log = log_dir / "redis.log"
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server")
        assert binary, "redis-server not installed (Debian package: redis-server)"
        self.proc = subprocess.Popen(
            [
                binary,
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--save",
                "",
                "--appendonly",
                "no",
                "--logfile",
                str(self.log),
            ],
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.05)
        raise AssertionError(f"redis-server did not listen on {self.port}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(20)
        self.proc = None


@pytest.fixture()
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.mark.timeout(600)  # above wait_for's own limit, so a timeout shows the run states
def test_redis_down_at_start_and_restarted_every_run_finishes_once(
    client: TestClient,
    db: Session,
    local_sshd: None,
    own_redis: RedisServer,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    producer = Celery("test-producer", broker=own_redis.url)
    producer.conf.broker_transport_options = queue.producer.conf.broker_transport_options
    producer.conf.broker_connection_timeout = queue.BROKER_TIMEOUT_S
    monkeypatch.setattr(queue, "producer", producer)
    env = {
        "MCSCOPE_REDIS_URL": own_redis.url,
        "MCSCOPE_RECOVERY_EVERY_S": "1",
        "MCSCOPE_RESEND_AFTER_S": "2",
    }
    worker = CeleryWorkerProcess(log_dir=tmp_path, env=env)
    beat = CeleryWorkerProcess(log_dir=tmp_path, beat=True, env=env)
    exp = create_random_experiment(
        client,
        factors={"clients_per_thread": [1]},
        fixed=LOCAL_FIXED,
        # Recovery of lost messages, not the load: two runs, the shortest.
        repetitions=2,
        **SHORTEST_RUN,
    )
    worker.start()
    beat.start()
    try:
        own_redis.stop()
        r = client.post(f"{API}/{exp['id']}/start")
        assert r.status_code == 503 and "not reachable" in r.json()["detail"], r.text
        assert runs_of(db, exp["id"]) == []  # nothing committed queued without a message

        own_redis.start()
        r = client.post(f"{API}/{exp['id']}/start")
        assert r.status_code == 202 and r.json()["queued"] == 2, r.text
        # Restart Redis with the runs queued: the queue is gone with it.
        own_redis.stop()
        own_redis.start()
        try:
            runs = wait_for(db, exp["id"], all_final, timeout_s=480)
        except AssertionError as exc:  # say what the worker and beat were doing
            logs = (worker.log_path, beat.log_path)
            tails = [f"{p.name}:\n{p.read_text()[-4000:]}" for p in logs]
            raise AssertionError("\n".join([str(exc), *tails])) from None
    finally:
        beat.stop()
        worker.stop()
    assert [r.status for r in runs] == [RunStatus.SUCCEEDED] * 2, [r.error for r in runs]
    counts = db.execute(
        select(RunSummary.run_id, RunSummary.source, RunSummary.request_type, func.count())
        .where(RunSummary.run_id.in_([r.id for r in runs]))
        .group_by(RunSummary.run_id, RunSummary.source, RunSummary.request_type)
    ).all()
    assert {rid for rid, *_ in counts} == {r.id for r in runs}
    assert all(n == 1 for *_, n in counts)
    # The lost messages were re-sent by the beat task, not by a second Start.
    assert "recovery.resend" in beat.log_path.read_text()
