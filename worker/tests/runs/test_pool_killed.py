"""Issue 30: a testbed is never shared by two attempts. The pool process executing a run is
SIGKILLed mid-load: its database connection, and with it the testbed lock, go at once while its
memcached, middleware and memtier run on. The next run must start only once they are gone, and
no run may be stored as a success while another attempt's process ran on the testbed.

A watcher thread polls /proc every 20 ms for every process the runs record (by PID and kernel
start time) and notes when it last saw each alive; per attempt, [first start, last seen alive]
must not overlap another attempt's. A process seen alive was alive, so this cannot report an
overlap that did not happen."""

import os
import signal
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from backend.core.db import SessionLocal
from backend.core.queue import enqueue_runs
from backend.crud.dispatch import mark_sent
from backend.models import Run, RunAttempt, RunStatus
from backend.tests.utils.processes import CeleryWorkerProcess, pid_alive
from worker.tasks.recovery import recover_once
from worker.tests.utils.experiments import (
    all_final,
    create_queued_experiment,
    in_load_phase,
    wait_for,
)

# What happens to runs, not what their load measures (two attempts never share a testbed): run last
# in the load lane, beside the browser tests (backend/tests/utils/load_lane.py).
pytestmark = [pytest.mark.integration, pytest.mark.load_not_measured]

FIXED = {
    "servers": 1,
    "middlewares": 1,
    "workers": 8,
    "ratio": "1:9",
    "value_size": 128,
    "key_maximum": 1000,
    "load_generator": "memtier",
}


@dataclass
class Seen:
    """One recorded process of one attempt, and when the watcher last saw it alive."""

    run_id: int
    attempt: int | None  # None: recorded without one (code before issue 30)
    role: str
    pid: int
    ticks: int | None
    started_unix: float
    last_alive: float | None = None


def _alive(pid: int, ticks: int | None) -> bool:
    """`pid` runs (not a zombie) and, when its start time was recorded, is that process."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    fields = stat.rpartition(") ")[2].split()
    if fields[0] in ("Z", "X", "x"):
        return False
    return ticks is None or int(fields[19]) == ticks


class Watcher(threading.Thread):
    """Every process recorded on the experiment's runs, and when it was last seen alive."""

    def __init__(self, experiment_id: int) -> None:
        super().__init__(name="process-watcher", daemon=True)
        self.experiment_id = experiment_id
        self.seen: dict[tuple[int, int, float], Seen] = {}
        self.done = threading.Event()

    def _refresh(self, session: Session) -> None:
        runs = session.execute(
            select(Run.id, Run.commands).where(Run.experiment_id == self.experiment_id)
        ).all()
        session.commit()
        for run_id, commands in runs:
            for c in commands or []:
                if c.get("kept"):  # a server taken over from the run before: the testbed's
                    continue
                key = (run_id, int(c["pid"]), float(c["started_unix"]))
                if key not in self.seen:
                    self.seen[key] = Seen(
                        run_id,
                        c.get("attempt"),
                        c["role"],
                        int(c["pid"]),
                        c.get("start_ticks"),
                        float(c["started_unix"]),
                    )

    def run(self) -> None:
        refreshed = 0.0
        with SessionLocal() as session:
            while not self.done.is_set():
                if time.monotonic() - refreshed > 0.1:
                    self._refresh(session)
                    refreshed = time.monotonic()
                for s in list(self.seen.values()):
                    now = time.time()
                    if _alive(s.pid, s.ticks):
                        s.last_alive = now
                time.sleep(0.02)

    def intervals(self) -> dict[tuple[int, int | None], tuple[float, float]]:
        """Per attempt: (first process start, last time any of its processes was seen alive)."""
        spans: dict[tuple[int, int | None], tuple[float, float]] = {}
        for s in self.seen.values():
            key = (s.run_id, s.attempt)
            end = s.last_alive if s.last_alive is not None else s.started_unix
            lo, hi = spans.get(key, (s.started_unix, end))
            spans[key] = (min(lo, s.started_unix), max(hi, end))
        return spans


def _pool_pid(worker: CeleryWorkerProcess, run: Run) -> int:
    """The pool process executing the run (Run.worker is host:pid), a child of the worker."""
    assert run.worker is not None and worker.proc is not None
    pid = int(run.worker.rpartition(":")[2])
    ppid = int(Path(f"/proc/{pid}/stat").read_text().rpartition(") ")[2].split()[1])
    assert ppid == worker.proc.pid, f"{pid} is not a pool process of the worker"
    return pid


@pytest.mark.timeout(600)
def test_killed_pool_process_never_shares_the_testbed(
    db: Session, local_sshd: None, tmp_path_factory: pytest.TempPathFactory
) -> None:
    exp, run_ids = create_queued_experiment(
        # 8 s: the killed attempt's processes must still run while the next run waits for them.
        db,
        factors={"clients_per_thread": [2, 4]},
        fixed=FIXED,
        run_time_s=8,
    )
    watcher = Watcher(exp.id)
    watcher.start()
    worker = CeleryWorkerProcess(log_dir=tmp_path_factory.mktemp("pool-killed"))
    worker.start()
    enqueue_runs(mark_sent(db, run_ids))  # numbered messages, as Start sends them
    try:
        runs = wait_for(db, exp.id, lambda rs: in_load_phase(rs) is not None, timeout_s=120)
        victim = in_load_phase(runs)
        assert victim is not None
        os.kill(_pool_pid(worker, victim), signal.SIGKILL)  # the pool process only
        left_behind = [c["pid"] for c in victim.commands]
        # The worker goes on with a new pool process: the other run ends.
        wait_for(
            db,
            exp.id,
            lambda rs: all(r.status == RunStatus.SUCCEEDED for r in rs if r.id != victim.id),
            timeout_s=180,
        )
        # Recovery (beat's task, here called once) re-queues the victim; it runs again.
        requeued, _ = recover_once()
        assert requeued == [victim.id]
        runs = wait_for(db, exp.id, all_final, timeout_s=180)
    except AssertionError as exc:
        raise AssertionError(f"{exc}\nworker log:\n{worker.log()}") from None
    finally:
        worker.stop()
        watcher.done.set()
        watcher.join(10)
    # Observed: no two attempts' processes were alive at the same time.
    spans = watcher.intervals()
    for a, (a_start, a_end) in spans.items():
        for b, (b_start, _) in spans.items():
            if a != b and a_start <= b_start:
                assert a_end < b_start, (
                    f"run {a[0]} attempt {a[1]} was still seen running {a_end - b_start:.2f} s "
                    f"after run {b[0]} attempt {b[1]} started its processes"
                )

    assert not any(pid_alive(p) for p in left_behind)
    assert [(r.status, r.attempt) for r in runs] == [
        (RunStatus.SUCCEEDED, 2 if r.id == victim.id else 1) for r in runs
    ], [r.error for r in runs]
    assert len(spans) == 3, spans  # the victim's two attempts and the other run's one

    # Recorded: each attempt began only once every earlier one was cleared, before its first
    # process started.
    rows = db.scalars(
        select(RunAttempt).where(RunAttempt.run_id.in_(run_ids)).order_by(RunAttempt.id)
    ).all()
    assert [(r.run_id, r.attempt) for r in rows] == [
        (victim.id, 1),
        *[(i, 1) for i in run_ids if i != victim.id],
        (victim.id, 2),
    ]
    assert all(r.cleared_at is not None and r.finished_at is not None for r in rows)
    for earlier, later in zip(rows, rows[1:], strict=False):
        assert earlier.cleared_at is not None and earlier.cleared_at <= later.started_at
        assert later.run_id is not None
        first = spans[(later.run_id, later.attempt)][0]
        assert earlier.cleared_at.timestamp() < first
