"""Seed an experiment's runs through the worker's real path: a real tool output, the load
generator's registered parser, the worker's summaries and its store.

The browser tests seed with this (instead of synthetic rows), so a UI test fails when the
worker -> database -> API path changes. Every configuration x repetition of the experiment
gets one succeeded run whose `--instances` client instances each report the given
memtier_benchmark JSON output (each instance on its own clock, from the file's start time).

Run: .venv/bin/python -m worker.scripts.seed_fixture_runs --experiment 3 \
         --output worker/tests/fixtures/memtier_ratio1-1_c2_t1_d128_5s.json --instances 2
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

from sqlalchemy import func, select

from backend.core.db import SessionLocal
from backend.models import Configuration, Experiment, Run, RunStatus
from worker.drivers.registry import driver_for
from worker.runs.store import store_results
from worker.runs.summarize import ResultRows, StableWindow, client_rows


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
        window = StableWindow(start, exp.warmup_s, exp.run_time_s - exp.cooldown_s)
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--experiment", type=int, required=True)
    ap.add_argument("--output", type=Path, required=True, help="a memtier_benchmark JSON output")
    ap.add_argument("--instances", type=int, default=1, help="client instances per run")
    args = ap.parse_args()
    if not args.output.is_file():
        sys.exit(f"no such file: {args.output}")
    print(seed(args.experiment, args.output, args.instances))


if __name__ == "__main__":
    main()
