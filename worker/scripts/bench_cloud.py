"""Benchmark: the reports' network-bound results on a cloud-shaped testbed (DOMAIN.md sections
3, 7 and 9). Two namespace hosts shaped with tc tbf as the reports' VMs measured (server Basic
A1 101 Mbit/s, client Basic A2 201 Mbit/s; backend/domain/vm_sizes.py), one read-only and one
write-only run of 4 KB values through the product (worker/tests/utils/cloud_shaped.py), in a
throw-away database with a private sshd (as bench-runs). Prints, per run: the measured
throughput, the network bound from the stored caps and their ratio, the reports' figure, the
busiest link's utilization and the machines table's verdict. Never fails on the figures.

Needs root (namespaces, tc). Run: make bench-cloud   (or: .venv/bin/python -m
worker.scripts.bench_cloud --run-time 12)
"""

import argparse
import tempfile
from pathlib import Path

from worker.scripts.local_bench import isolate, local_testbed

DB = isolate("cloud")
REPORTS = {"0:1": ("gets/s", 2_940.0), "1:0": ("sets/s", None)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--run-time", type=int, default=12, help="run time of each run, s")
    args = ap.parse_args()
    with local_testbed(DB):
        _bench(args.run_time)


def _bench(run_time_s: int) -> None:
    from backend.core.db import SessionLocal
    from worker.tests.utils.cloud_shaped import outcomes, register, run_experiments, shaped_testbed

    with tempfile.TemporaryDirectory(prefix="mcscope-bench-cloud-") as tmp:
        bed = shaped_testbed(Path(tmp))
        try:
            bed.up()
            with SessionLocal() as db:
                exps = run_experiments(db, register(db, bed), run_time_s)
                found = outcomes(db, exps)
        finally:
            bed.down()
    print(f"cloud-shaped testbed, {run_time_s} s runs, window 3..{run_time_s - 1} s")
    header = f"{'run':<10} {'measured':>10} {'bound':>8} {'/bound':>7} {'reports':>8} "
    print(header + f"{'link':>8} {'util.':>6}  verdict")
    for o in found:
        unit, reports = REPORTS[o.ratio]
        rep = f"{reports:8,.0f}" if reports else f"{'-':>8}"
        print(
            f"{unit:<10} {o.throughput_per_s:10,.0f} {o.bound_per_s:8,.0f} "
            f"{o.throughput_per_s / o.bound_per_s:7.3f} {rep} {o.link_host_role:>8} "
            f"{o.link_utilization:6.3f}  {o.summary}"
        )


if __name__ == "__main__":
    main()
