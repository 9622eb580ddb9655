"""Benchmark: memcached direct vs through mcscope-middleware vs through twemproxy, on 127.0.0.1."""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "integration"))

from mw_procs import HOST, Proc, free_port, memcached, middleware  # noqa: E402

WORKLOADS = {"get-heavy": 0.9, "set-heavy": 0.1}  # share of gets
SIZES = (128, 4096)


@dataclass
class Result:
    """Client-side figures of one run."""

    ops_per_s: float
    mean_us: float
    p99_us: float


def memcaslap_cfg(path: Path, size: int, get_share: float) -> None:
    path.write_text(
        f"key\n16 16 1\nvalue\n{size} {size} 1\ncmd\n0 {1 - get_share:.2f}\n1 {get_share:.2f}\n"
    )


def log2_p99(block: str) -> float:
    """Upper bound of the log2 bucket holding the 99th percentile (memcaslap's resolution)."""
    counts: list[tuple[int, int]] = []
    for row in re.finditer(r"^\s+(\d+):((?:\s+\d+)+)\s*$", block, re.M):
        base = int(row.group(1))
        for i, c in enumerate(row.group(2).split()):
            counts.append((base + i, int(c)))
    total = sum(c for _, c in counts)
    seen = 0
    for exp, c in counts:
        seen += c
        if total and seen >= 0.99 * total:
            return float(2 ** (exp + 1))
    return float("nan")


def run_memcaslap(port: int, size: int, get_share: float, seconds: int) -> Result:
    with tempfile.TemporaryDirectory() as tmp:
        cfg = Path(tmp) / "bench.cfg"
        memcaslap_cfg(cfg, size, get_share)
        out = subprocess.run(
            [
                "memcaslap",
                "-s",
                f"{HOST}:{port}",
                "-F",
                str(cfg),
                "-t",
                f"{seconds}s",
                "-T",
                "2",
                "-c",
                "16",
                "-S",
                f"{seconds}s",  # one statistics dump: latency summary and log2 histogram
            ],
            capture_output=True,
            text=True,
            timeout=seconds + 60,
            check=True,
        ).stdout
    total = out[out.rindex("Total Statistics") :]
    tps = float(re.findall(r"TPS: (\d+)", out)[-1])
    mean = float(re.search(r"Avg:\s+(\d+)", total).group(1))  # type: ignore[union-attr]
    return Result(tps, mean, log2_p99(total.split("cmd_get")[0]))


def run_memtier(port: int, size: int, get_share: float, seconds: int) -> Result:
    gets = round(get_share * 10)
    out = subprocess.run(
        [
            "memtier_benchmark",
            "--protocol=memcache_text",
            f"--server={HOST}",
            f"--port={port}",
            "--clients=8",
            "--threads=2",
            f"--test-time={seconds}",
            f"--ratio={10 - gets}:{gets}",
            f"--data-size={size}",
            "--key-maximum=10000",
            "--hide-histogram",
        ],
        capture_output=True,
        text=True,
        timeout=seconds + 60,
        check=True,
    ).stdout
    row = re.search(
        r"^Totals\s+([\d.]+)\s+[\d.-]+\s+[\d.-]+\s+([\d.]+)\s+[\d.]+\s+([\d.]+)", out, re.M
    )
    assert row is not None, out[-2000:]
    return Result(float(row.group(1)), float(row.group(2)) * 1000, float(row.group(3)) * 1000)


def twemproxy(server_port: int, workdir: Path) -> Proc:
    port = free_port()
    conf = workdir / "nutcracker.yml"
    conf.write_text(
        f"mcscope:\n  listen: {HOST}:{port}\n  hash: fnv1a_64\n  distribution: ketama\n"
        f"  timeout: 2000\n  auto_eject_hosts: false\n  servers:\n   - {HOST}:{server_port}:1\n"
    )
    argv = [
        "nutcracker",
        "-c",
        str(conf),
        "-s",
        str(free_port()),
        "-a",
        HOST,
        "-o",
        str(workdir / "nutcracker.log"),
    ]
    return Proc(argv, port).start()


def ratio_cells(r: dict[str, Result], label: str) -> str:
    """mw/direct, mw/twemproxy and added mean latency over direct (us) for one middleware."""
    mw, direct, tw = r[label], r["direct"], r["tw"]
    return (
        f"{mw.ops_per_s / direct.ops_per_s:6.2f} {mw.ops_per_s / tw.ops_per_s:7.2f} "
        f"{mw.mean_us - direct.mean_us:8.0f}"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=int, default=5, help="length of each run")
    ap.add_argument(
        "--workers",
        default="2,8",
        help="middleware worker counts to measure, comma-separated (one column each)",
    )
    args = ap.parse_args()
    try:
        counts = [int(w) for w in args.workers.split(",") if w.strip()]
    except ValueError:
        ap.error(f"--workers: comma-separated integers expected, got {args.workers!r}")
    if not counts or min(counts) < 1:
        ap.error("--workers: at least one count, each >= 1")
    tools = ["memcaslap"] + (["memtier"] if shutil.which("memtier_benchmark") else [])
    runners = {"memcaslap": run_memcaslap, "memtier": run_memtier}
    labels = [f"mw-t{w}" for w in counts]
    print(
        f"tools: {', '.join(tools)}; each run {args.seconds}s; 1 memcached -t 1; "
        f"middleware -t {', '.join(map(str, counts))}; twemproxy; all on {HOST}"
    )
    header = (
        f"{'tool':9} {'workload':9} {'size':>5} | {'direct':>20} | "
        + " | ".join(f"{label:>20}" for label in labels)
        + f" | {'twemproxy':>20} | {'+mean tw':>8} | "
        + " | ".join(f"{label + ': /dir /twem +mean':>24}" for label in labels)
    )
    print(header + "\n" + "-" * len(header))
    with tempfile.TemporaryDirectory() as tmp:
        mc = memcached()
        targets: dict[str, Proc] = {"direct": mc}
        for w, label in zip(counts, labels, strict=True):
            targets[label] = middleware([mc.port], workers=w)
        targets["tw"] = twemproxy(mc.port, Path(tmp))
        try:
            for tool in tools:
                for name, share in WORKLOADS.items():
                    for size in SIZES:
                        r = {
                            label: runners[tool](p.port, size, share, args.seconds)
                            for label, p in targets.items()
                        }
                        cell = {
                            k: f"{v.ops_per_s:8.0f}/s {v.mean_us:5.0f}/{v.p99_us:5.0f}us"
                            for k, v in r.items()
                        }
                        print(
                            f"{tool:9} {name:9} {size:5} | {cell['direct']:>20} | "
                            + " | ".join(f"{cell[label]:>20}" for label in labels)
                            + f" | {cell['tw']:>20} | "
                            + f"{r['tw'].mean_us - r['direct'].mean_us:8.0f} | "
                            + " | ".join(f"{ratio_cells(r, label):>24}" for label in labels),
                            flush=True,
                        )
        finally:
            for p in reversed(list(targets.values())):
                p.stop()
    print(
        "cells: ops/s mean/p99 latency (memcaslap p99 is the upper bound of its log2 bucket); "
        "/dir and /twem are throughput ratios; +mean = added mean latency over direct, us. "
        "Single runs vary by +-15 % here: scripts/bench_ab.py alternates repeated runs."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
