"""Seed an experiment's runs through the worker's real path: tool outputs in the tools' own
formats, the worker's registered parsers, its summaries and its store.

The browser tests seed with this (instead of synthetic rows), so a UI test fails when the
worker -> database -> API path changes. Two modes:

- shaped (default): every configuration x repetition gets one succeeded run whose client
  instances and middlewares (placed by the worker's planner) report memtier JSON and
  middleware stats shaped like a closed system (worker/seeding/shape.py), with the latency
  spread of a real memtier run. Prints, as JSON, the run count and each configuration's
  seeded figures (per repetition), from which tests derive what the pages must show.
- --output FILE: every run's `--instances` client instances report that one memtier JSON
  output (each instance on its own clock, from the file's start time); prints the run count.

Run: .venv/bin/python -m worker.scripts.seed_fixture_runs --experiment 3 [--scale 8=1.5]
     .venv/bin/python -m worker.scripts.seed_fixture_runs --experiment 3 \
         --output worker/tests/fixtures/memtier_ratio1-1_c2_t1_d128_5s.json --instances 2
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

from backend.core.db import SessionLocal
from backend.domain.grid import effective_parameters
from backend.domain.window import window_of
from backend.models import Configuration, Experiment, Run, RunStatus
from worker.drivers.registry import driver_for
from worker.runs.store import store_results
from worker.runs.summarize import ResultRows, StableWindow, client_rows
from worker.seeding.copies import copy_runs
from worker.seeding.latency import value_at_percentile
from worker.seeding.runs import seed_run

PERCENTILES = (25.0, 50.0, 75.0, 90.0, 99.0)
RUN_GAP_S = 5  # between one seeded run's end and the next one's start


def _start_unix(output: Path) -> float:
    """The tool's own start time (memtier JSON: ALL STATS / Runtime / Start time, in ms)."""
    runtime = json.loads(output.read_text())["ALL STATS"]["Runtime"]
    return float(runtime["Start time"]) / 1000.0


def seed(experiment_id: int, output: Path, instances: int, tool: str = "memtier") -> int:
    """Stores one succeeded run per configuration x repetition; returns how many."""
    # parse() reads only the fetched files, by instance name: no host is involved.
    driver = driver_for(tool)(None)  # type: ignore[arg-type]
    with tempfile.TemporaryDirectory(prefix="mcscope-seed-") as tmp:
        shutil.copy(output, Path(tmp) / "client-1.json")
        result = driver.parse(Path(tmp), "client-1")
    start = _start_unix(output)
    with SessionLocal() as session:
        exp = session.get(Experiment, experiment_id)
        if exp is None:
            raise SystemExit(f"no experiment {experiment_id}")
        window = StableWindow.after(start, window_of(exp))
        configs = session.scalars(
            select(Configuration).where(Configuration.experiment_id == experiment_id)
        ).all()
        stored = 0
        for config in configs:
            for repetition in range(1, exp.repetitions + 1):
                run = Run(
                    experiment_id=experiment_id,
                    configuration_id=config.id,
                    repetition=repetition,
                    status=RunStatus.RUNNING,
                    attempt=1,
                    started_at=func.now(),
                    hosts={},
                    tool_versions={},
                    commands=[],
                )
                session.add(run)
                session.flush()
                rows = ResultRows()
                for i in range(instances):
                    one = client_rows(f"client:{i}", result, window, multiget=False)
                    rows.series += one.series
                    rows.summaries += one.summaries
                    rows.histograms += one.histograms
                if not store_results(session, run.id, 1, rows):
                    raise SystemExit(f"run {run.id} was not stored")
                stored += 1
    return stored


def seed_shaped(
    experiment_id: int, scales: dict[int, float], real: int | None = None
) -> dict[str, Any]:
    """Stores one shaped run per configuration x repetition (`scales`: throughput factor by
    worker count); with `real`, only the first `real` configurations go through the real
    path and the others copy their rows (worker/seeding/copies.py). Returns the run count and
    each configuration's seeded figures."""
    with SessionLocal() as session, tempfile.TemporaryDirectory(prefix="mcscope-seed-") as tmp:
        exp = session.get(Experiment, experiment_id)
        if exp is None:
            raise SystemExit(f"no experiment {experiment_id}")
        configs = session.scalars(
            select(Configuration)
            .where(Configuration.experiment_id == experiment_id)
            .order_by(Configuration.index)
        ).all()
        shaped = configs if real is None else configs[:real]
        # Runs one after the other, the last one ending now.
        step = exp.run_time_s + RUN_GAP_S
        first = time.time() - step * len(shaped) * exp.repetitions
        out: list[dict[str, Any]] = []
        for i, config in enumerate(shaped):
            workers = effective_parameters(config.values, exp.fixed)["workers"]
            runs = [
                seed_run(
                    session,
                    exp,
                    config,
                    rep,
                    first + step * (i * exp.repetitions + rep - 1),
                    Path(tmp),
                    scales.get(int(workers), 1.0),
                )
                for rep in range(1, exp.repetitions + 1)
            ]
            out.append(
                {
                    "configuration_id": config.id,
                    "values": config.values,
                    "clients": runs[0].shape.clients,
                    "percentiles_us": _percentiles([r.client_latencies for r in runs]),
                    "middleware_percentiles_us": _percentiles(
                        [r.middleware_latencies for r in runs]
                    ),
                    "runs": [
                        {
                            "run_id": r.run_id,
                            "repetition": r.repetition,
                            "throughput": r.shape.throughput,
                            "response_time_us": r.shape.response_time_us,
                        }
                        for r in runs
                    ],
                }
            )
        copies = [
            (config, rep, out[i % len(out)]["runs"][rep - 1]["run_id"])
            for i, config in enumerate(configs[len(shaped) :], start=len(shaped))
            for rep in range(1, exp.repetitions + 1)
        ]
        copied = copy_runs(session, copies) if copies else []
    return {"runs": sum(len(c["runs"]) for c in out) + len(copied), "configurations": out}


def _percentiles(per_run: list[Counter[int]]) -> dict[str, float] | None:
    """Percentiles of the configuration's recorded latencies, repetitions merged."""
    merged: Counter[int] = sum(per_run, Counter())
    if not merged:
        return None
    return {f"{q:g}": value_at_percentile(merged, q) for q in PERCENTILES}


def _scale(text: str) -> tuple[int, float]:
    workers, factor = text.split("=")
    return int(workers), float(factor)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--experiment", type=int, required=True)
    ap.add_argument("--output", type=Path, help="a memtier_benchmark JSON output for every run")
    ap.add_argument("--instances", type=int, default=1, help="with --output: client instances")
    ap.add_argument(
        "--scale",
        type=_scale,
        action="append",
        default=[],
        metavar="WORKERS=FACTOR",
        help="shaped: multiply the throughput of configurations with this worker count",
    )
    ap.add_argument(
        "--real",
        type=int,
        metavar="K",
        help="shaped: only the first K configurations through the real path, the rest copies",
    )
    args = ap.parse_args()
    if args.output is None:
        print(json.dumps(seed_shaped(args.experiment, dict(args.scale), args.real)))
        return
    if not args.output.is_file():
        sys.exit(f"no such file: {args.output}")
    print(seed(args.experiment, args.output, args.instances))


if __name__ == "__main__":
    main()
