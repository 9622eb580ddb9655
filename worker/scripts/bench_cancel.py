"""Benchmark: how soon the next experiment starts after a Cancel of a 20,000-run grid whose
messages are all queued (issue 41 item 5).

In a throw-away database, queue and sshd: Start a grid of 20,000 runs, send every message (the
background sender, in this process), Cancel, then Start a one-run experiment and start a real
Celery worker. Prints the Cancel's duration, the runs queue's length before and after it, and
the time from the worker being ready to the next run's start (the worker's first message is
that run's when Cancel withdrew the rest). --keep-messages cancels the runs without
withdrawing their messages, as before, for comparison (the worker then drops them one by one).

Run: make bench-cancel   (or: .venv/bin/python -m worker.scripts.bench_cancel --runs 20000)
"""

import argparse
import tempfile
import time
from pathlib import Path

from worker.scripts.local_bench import in_process_api, isolate, local_testbed

DB = isolate("cancel")
in_process_api()
SHORT = {"run_time_s": 5, "warmup_s": 1, "cooldown_s": 1}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=20_000, help="runs of the cancelled grid")
    ap.add_argument("--keep-messages", action="store_true", help="cancel without withdrawing")
    args = ap.parse_args()
    with local_testbed(DB):
        _bench(args.runs, args.keep_messages)


def _queue_length() -> int:
    from backend.core import queue

    with queue.producer.connection_for_write() as conn:
        return int(conn.default_channel.client.llen(queue.RUNS_QUEUE))


def _bench(runs: int, keep_messages: bool) -> None:
    from fastapi.testclient import TestClient

    from backend.core.db import SessionLocal
    from backend.crud.run import cancel_runs
    from backend.main import app
    from backend.tests.utils.experiment import create_random_experiment
    from backend.tests.utils.processes import CeleryWorkerProcess
    from worker.tasks.experiments import dispatch_experiment
    from worker.tests.utils.experiments import LOCAL_FIXED, all_final, wait_for

    api = "/api/v1/experiments"
    repetitions = 100
    with TestClient(app) as client, SessionLocal() as db:
        configurations = list(range(1, runs // repetitions + 1))
        big = create_random_experiment(
            client,
            factors={"clients_per_thread": configurations},
            fixed=LOCAL_FIXED,
            repetitions=repetitions,
            **SHORT,
        )
        assert client.post(f"{api}/{big['id']}/start").status_code == 202
        dispatch_experiment(big["id"])
        before = _queue_length()
        t0 = time.monotonic()
        if keep_messages:
            cancel_runs(session=db, experiment_id=big["id"])
            db.commit()
        else:
            r = client.post(f"{api}/{big['id']}/cancel")
            assert r.status_code == 200, r.text
        cancel_s = time.monotonic() - t0
        after = _queue_length()

        nxt = create_random_experiment(
            client, factors={"clients_per_thread": [2]}, fixed=LOCAL_FIXED, repetitions=1, **SHORT
        )
        assert client.post(f"{api}/{nxt['id']}/start").status_code == 202
        worker = CeleryWorkerProcess(log_dir=Path(tempfile.mkdtemp(prefix="bench-cancel-")))
        worker.start()
        ready = time.time()
        try:
            wait_for(db, nxt["id"], lambda rs: rs[0].started_at is not None, timeout_s=3600)
            (run,) = wait_for(db, nxt["id"], all_final, timeout_s=600)
        finally:
            worker.stop()
    assert run.started_at is not None
    print(f"cancelled grid: {runs} runs, {before} messages queued before Cancel")
    print(f"Cancel: {cancel_s:.2f} s; messages queued after it: {after}")
    print(f"next run started {run.started_at.timestamp() - ready:.2f} s after the worker was ready")
    print(f"next run: {run.status.value}")


if __name__ == "__main__":
    main()
