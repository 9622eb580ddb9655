"""Seed the machine monitor of an experiment's stored runs (worker/seeding/monitor.py): one
host, its interface and two processes per run, shaped by the utilization law on the clients'
stored throughput. Prints, as JSON, each run's seeded sources.

Run: .venv/bin/python -m worker.scripts.seed_monitor_runs --experiment 3
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict

from backend.core.db import SessionLocal
from worker.seeding.monitor import seed_monitor


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--experiment", type=int, required=True)
    args = ap.parse_args()
    with SessionLocal() as session:
        seeded = seed_monitor(session, args.experiment)
    print(json.dumps([asdict(s) for s in seeded]))


if __name__ == "__main__":
    main()
