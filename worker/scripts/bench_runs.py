"""Benchmark: where the wall time of a run goes on the local testbed.

Runs a small experiment (4 runs of 5 s with a middleware and memtier_benchmark, or memaslap
where memtier is missing) in this process, in a throw-away database and with a private sshd,
and prints per run its wall time, overhead (wall time minus run time) and per-phase timings
(Run.phase_timings), then the mean overhead per run.

Run: make bench-runs   (or: .venv/bin/python -m worker.scripts.bench_runs --runs 4 --run-time 5)
"""

import argparse
import time

from worker.scripts.local_bench import isolate, local_testbed, run_once

DB = isolate("runs")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=4, help="runs (2 configurations x runs/2)")
    ap.add_argument("--run-time", type=int, default=5, help="run time of each run, s")
    ap.add_argument("--load-generator", default="auto")
    args = ap.parse_args()

    with local_testbed(DB):
        _bench(args.runs, args.run_time, args.load_generator)


def _bench(runs: int, run_time_s: int, load_generator: str) -> None:
    from backend.core.db import SessionLocal
    from backend.models import RunStatus
    from worker.tests.utils.experiments import create_queued_experiment, runs_of

    with SessionLocal() as db:
        exp, run_ids = create_queued_experiment(
            db,
            factors={"clients_per_thread": [1, 2]},
            fixed={
                "servers": 1,
                "middlewares": 1,
                "workers": 2,
                "ratio": "1:9",
                "value_size": 128,
                "key_maximum": 1000,
                "load_generator": load_generator,
            },
            repetitions=max(1, runs // 2),
            run_time_s=run_time_s,
        )
        start = time.monotonic()
        walls = {}
        for run_id in run_ids:
            walls[run_id] = run_once(run_id)
        total = time.monotonic() - start
        done = runs_of(db, exp.id)
    order: tuple[str, ...] = ()
    try:
        from worker.runs.pipeline import PHASES

        order = PHASES
    except ImportError:  # an older checkout, measured for comparison: no phase timings
        pass
    recorded = {name for r in done for name in getattr(r, "phase_timings", None) or {}}
    phases = [p for p in order if p in recorded]
    print(f"{len(done)} runs of {run_time_s} s, tool: {done[0].hosts.get('load_generator')}")
    print(
        f"{'run':>5} {'status':>9} {'servers':>8} {'wall s':>7} {'overhead s':>10}  "
        + " ".join(f"{p:>8}" for p in phases)
    )
    overheads = []
    for r in done:
        wall = walls[r.id]
        overheads.append(wall - run_time_s)
        timings = getattr(r, "phase_timings", None) or {}
        cells = " ".join(f"{timings.get(p, 0.0):8.2f}" for p in phases)
        state = (r.hosts or {}).get("server_state") or {}
        servers = "kept" if state and all(s["kept"] for s in state.values()) else "new"
        print(
            f"{r.id:>5} {r.status.value:>9} {servers:>8} {wall:7.2f} {wall - run_time_s:10.2f}  "
            f"{cells}"
        )
        if r.status != RunStatus.SUCCEEDED:
            print(f"      error: {r.error}")
    mean = sum(overheads) / len(overheads)
    print(
        f"total {total:.1f} s for {len(done)} x {run_time_s} s of run time; "
        f"mean overhead per run {mean:.2f} s ({mean / run_time_s:.2f} x the run time)"
    )


if __name__ == "__main__":
    main()
