"""Benchmark: what a latency-SLO search saves against a grid that answers the same question.

On the local testbed, in this process (a throw-away database, a private sshd), for one
configuration (one memcached, one middleware with 2 workers, memtier with 2 connections,
reads of 128 B values) and one objective (p99 <= --target-ms), it runs:

1. the search (bracketing, bisection to --resolution %, unsure points repeated, the answer
   confirmed), each probe a real run of --run-time s, the next one decided after each;
2. a 30-point grid of offered rates from max/30 to max (one run each), judged by the same
   rule (backend.analysis.slo: merged histograms, order-statistic interval, load carried),
   whose answer is the search's: the highest rate meeting the objective (bracket).

It prints each probe, then for both: runs, wall time, VM-time (wall time x the VMs the
configuration occupies on a cloud testbed: one per client machine, middleware and server),
and their answers. Ratios, no thresholds: the numbers depend on the machine.

Run: make bench-slo   (or: .venv/bin/python -m worker.scripts.bench_slo --run-time 5)
"""

import argparse
import time
from dataclasses import replace
from typing import Any

from worker.scripts.local_bench import isolate, local_testbed, run_once

DB = isolate("slo")

GRID_POINTS = 30
FIXED: dict[str, Any] = {
    "servers": 1,
    "middlewares": 1,
    "workers": 2,
    "client_machines": 1,
    "clients_per_thread": 2,
    "ratio": "0:1",
    "value_size": 128,
    "key_maximum": 1000,
    "load_generator": "memtier",
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--run-time", type=int, default=5, help="seconds per run")
    ap.add_argument("--target-ms", type=float, default=2.0, help="objective: p99 <= this, ms")
    ap.add_argument("--max-rate", type=int, default=3000, help="highest rate per connection")
    ap.add_argument("--resolution", type=float, default=5.0, help="search resolution, %%")
    args = ap.parse_args()

    with local_testbed(DB):
        _bench(args.run_time, args.target_ms * 1000.0, args.max_rate, args.resolution)


def _vms() -> int:
    return int(FIXED["client_machines"]) + int(FIXED["middlewares"]) + int(FIXED["servers"])


def _bench(run_time_s: int, target_us: float, max_rate: int, resolution: float) -> None:
    from backend.analysis.slo import Point, Verdict, bracket
    from backend.core.db import SessionLocal
    from backend.crud.run import queue_runs
    from backend.domain.slo_design import RATE
    from backend.models import Configuration, Experiment
    from backend.results.slo import search_state, spec_of
    from backend.schemas.slo import SloSearchSpec
    from worker.runs.slo_search import advance_search
    from worker.tests.utils.experiments import create_experiment

    spec = SloSearchSpec(
        target_us=target_us,
        percentile=99,
        start_rate=max(1, max_rate // 8),
        max_rate=max_rate,
        resolution_pct=resolution,
    )
    design: dict[str, Any] = {"run_time_s": run_time_s, "warmup_s": 1, "cooldown_s": 1}

    # 1. The search, a probe at a time, as the search task drives it.
    with SessionLocal() as db:
        search = create_experiment(db, factors={}, fixed=FIXED, name_prefix="slo", **design)
        search.slo_search = spec.model_dump()
        # A search starts with no configuration: its probes add them.
        db.query(Configuration).filter_by(experiment_id=search.id).delete()
        db.commit()
        search_id = search.id
    print(
        f"objective: {spec.objective().label} at {spec.confidence:.0%} confidence, "
        f"runs of {run_time_s} s, {_vms()} VMs per run"
    )
    t0 = time.monotonic()
    while (run_id := advance_search(search_id, enqueue=lambda _messages: None)) is not None:
        run_once(run_id)
    search_wall = time.monotonic() - t0
    with SessionLocal() as db:
        exp = db.get(Experiment, search_id)
        assert exp is not None
        found = search_state(db, exp).public
    print(
        f"{'probe':>5} {'rate/conn':>9} {'offered/s':>10} {'carried/s':>10} {'p99 ms':>8} "
        f"{'95% CI ms':>16} {'runs':>4} verdict"
    )
    for i, p in enumerate(found.probes):
        c = p.client
        ci = (
            ""
            if c is None
            else f"[{c.low_us / 1000:.2f}, {(c.high_us or float('inf')) / 1000:.2f}]"
        )
        print(
            f"{i:>5} {p.rate_per_connection:>9} {p.offered_per_s:>10.0f} "
            f"{(p.delivered_per_s or 0):>10.0f} {(c.value_us / 1000 if c else 0):>8.2f} "
            f"{ci:>16} {p.runs_done:>4} {p.verdict}"
        )

    # 2. The grid that answers the same question, judged by the same rule.
    rates = sorted({max(1, round(max_rate * (i + 1) / GRID_POINTS)) for i in range(GRID_POINTS)})
    with SessionLocal() as db:
        grid = create_experiment(
            db, factors={RATE: rates}, fixed=FIXED, name_prefix="grid", **design
        )
        grid.slo_search = spec.model_dump()
        run_ids, _ = queue_runs(session=db, experiment=grid)
        db.commit()
        grid_id = grid.id
    t0 = time.monotonic()
    for r in run_ids:
        run_once(r)
    grid_wall = time.monotonic() - t0
    with SessionLocal() as db:
        exp = db.get(Experiment, grid_id)
        assert exp is not None
        state = search_state(db, exp).public
        points = [
            Point(p.rate_per_connection, Verdict(p.verdict), p.runs_done)
            for p in state.probes
            if p.verdict is not None
        ]
        # One run per point: a point whose interval straddles the target is not shown to meet.
        grid_answer, _ = bracket(points, replace(spec_of(exp).limits(), max_repeats=1))
        meets = [p.rate for p in points if p.verdict is Verdict.MEETS]
        ordered = sorted(points, key=lambda p: p.rate)
        marks = {Verdict.MEETS: "+", Verdict.MISSES: "-", Verdict.UNSURE: "?"}
        print(
            f"grid verdicts (+ meets, - misses, ? unsure) from {rates[0]} to {rates[-1]}/s "
            f"per connection: {''.join(marks[p.verdict] for p in ordered)}"
        )
        n_configs = len(db.query(Configuration).filter_by(experiment_id=grid_id).all())

    conn = found.connections
    vms = _vms()

    def line(name: str, runs: int, wall: float, answer: int | None) -> None:
        offered = "none" if answer is None else f"{answer}/s per connection = {answer * conn}/s"
        print(
            f"{name:<6} {runs:>3} runs  wall {wall:7.1f} s  VM-time {wall * vms / 3600:6.3f} "
            f"VM-h  answer: {offered}"
        )

    print()
    line("search", found.runs, search_wall, found.answer_rate_per_connection)
    line("grid", n_configs, grid_wall, grid_answer)
    print(
        f"       (grid: highest rate meeting below its first miss; highest meeting anywhere: "
        f"{max(meets) if meets else 'none'}/s per connection)"
    )
    print(
        f"the search took {found.runs / n_configs:.2f} x the runs and "
        f"{search_wall / grid_wall:.2f} x the VM-time of the {GRID_POINTS}-point grid "
        f"(grid step {rates[1] - rates[0]}/s per connection; search resolution {resolution} %)"
    )


if __name__ == "__main__":
    main()
