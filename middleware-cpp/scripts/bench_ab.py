"""A/B benchmark: alternating memcaslap runs against several middleware builds (and twemproxy),
medians per cell. Example, from the repo root:
  .venv/bin/python middleware-cpp/scripts/bench_ab.py --reps 3 --seconds 4 \
      --cells get128,set4096 old=/tmp/mw_old:8 \
      new=middleware-cpp/build/release/mcscope-middleware:8 tw
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "integration"))
sys.path.insert(0, str(HERE))

from bench import run_memcaslap, twemproxy  # noqa: E402
from mw_procs import Proc, memcached, middleware  # noqa: E402


def start_targets(specs: list[str], mc: Proc, workdir: Path) -> dict[str, Proc]:
    """label=binary:workers starts a middleware; the bare word tw starts twemproxy."""
    procs: dict[str, Proc] = {"direct": mc}
    for spec in specs:
        if spec == "tw":
            procs["tw"] = twemproxy(mc.port, workdir)
            continue
        label, target = spec.split("=", 1)
        binary, workers = target.rsplit(":", 1)
        os.environ["MCSCOPE_MIDDLEWARE_BIN"] = binary  # read by mw_procs.middleware()
        procs[label] = middleware([mc.port], workers=int(workers))
    return procs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--seconds", type=int, default=4)
    ap.add_argument("--cells", default="get128,get4096,set128,set4096")
    ap.add_argument("targets", nargs="+", help="label=binary:workers, or tw")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        procs = start_targets(args.targets, memcached(), Path(tmp))
        try:
            for cell in args.cells.split(","):
                share = 0.9 if cell.startswith("get") else 0.1
                size = int(cell[3:])
                runs: dict[str, list[tuple[float, float]]] = {k: [] for k in procs}
                for _ in range(args.reps):  # alternate targets so load drifts hit all alike
                    for label, proc in procs.items():
                        r = run_memcaslap(proc.port, size, share, args.seconds)
                        runs[label].append((r.ops_per_s, r.mean_us))
                direct = statistics.median(x for x, _ in runs["direct"])
                cols = [cell]
                for label, vals in runs.items():
                    ops = statistics.median(x for x, _ in vals)
                    mean_us = statistics.median(y for _, y in vals)
                    each = " ".join(f"{x:.0f}" for x, _ in vals)
                    cols.append(f"{label}={ops:.0f} ({ops / direct:.2f}) {mean_us:.0f}us [{each}]")
                print(" | ".join(cols), flush=True)
        finally:
            for proc in procs.values():
                proc.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
