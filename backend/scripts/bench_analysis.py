"""Benchmark of the analysis engine: prints timings, never fails on them.

Run: .venv/bin/python -m backend.scripts.bench_analysis
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from backend.analysis.factorial import factorial
from backend.analysis.mva.exact import solve_mva
from backend.analysis.mva.multiclass import ClassSpec, lattice_size, solve_multiclass
from backend.analysis.mva.network import Station, StationKind
from backend.results.aggregate import (
    RunValues,
    SourceSeries,
    Window,
    by_configuration,
    combine_run,
    run_windows,
    summarize,
)


def _best_of(fn: Callable[[], object], repeats: int = 3) -> float:
    """Best wall time of `repeats` calls, in seconds (the least disturbed by other load)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def bench_multiclass() -> str:
    rng = np.random.default_rng(1)
    stations = tuple(
        Station(f"s{i}", StationKind.DELAY if i < 2 else StationKind.QUEUE, 1.0) for i in range(20)
    )
    classes = tuple(
        ClassSpec(name, 500, think, tuple(rng.uniform(1e-4, 1e-3, 20)))
        for name, think in (("get", 0.001), ("set", 0.002))
    )
    t = _best_of(lambda: solve_multiclass(stations, classes))
    pooled = stations[:-1] + (Station("workers", StationKind.MULTI, 1.0, servers=64),)
    t_pool = _best_of(lambda: solve_multiclass(pooled, classes), repeats=1)
    return (
        f"multi-class exact MVA, 2 classes x 20 stations, N = (500, 500) "
        f"[{lattice_size(classes):,} populations]: {t * 1e3:8.1f} ms\n"
        f"  the same with one 64-server station (multi-class load-dependent): "
        f"{t_pool * 1e3:8.1f} ms"
    )


def bench_load_dependent() -> str:
    stations = (
        Station("network_in", StationKind.DELAY, 0.3e-3),
        Station("net_thread", StationKind.QUEUE, 0.0866e-3),
        Station("workers", StationKind.MULTI, 1.094e-3, servers=64),
        Station("memcached", StationKind.QUEUE, 1 / 2940),
        Station("network_out", StationKind.DELAY, 0.3e-3),
    )
    t = _best_of(lambda: solve_mva(stations, 2000, 0.0))
    two = stations + (Station("workers_2", StationKind.MULTI, 1.0e-3, servers=16),)
    t2 = _best_of(lambda: solve_mva(two, 2000, 0.0))
    return (
        f"load-dependent MVA, N = 2,000, one 64-server pool:  {t * 1e3:8.1f} ms\n"
        f"load-dependent MVA, N = 2,000, 64- and 16-server pools: {t2 * 1e3:8.1f} ms"
    )


def bench_factorial() -> str:
    y = np.random.default_rng(2).normal(100, 5, (64, 5))
    t = _best_of(lambda: factorial(tuple("ABCDEF"), y, confidence=0.90))
    return f"2^6 x 5 factorial design (effects, CIs, residuals, QQ):  {t * 1e3:8.1f} ms"


def bench_aggregation() -> str:
    """backend/results/aggregate.py in memory: window, instances, repetitions."""
    runs, sources, seconds = 2000, 10, 300
    rng = np.random.default_rng(3)
    x = rng.uniform(1000, 2000, (runs, sources, seconds))
    r = rng.uniform(500, 5000, (runs, sources, seconds))
    series = [
        [
            SourceSeries(f"client:{j}", 1.7e9, {"throughput": x[i, j], "response_time_us": r[i, j]})
            for j in range(sources)
        ]
        for i in range(runs)
    ]
    names = ("throughput_per_s", "response_time_us")

    def run() -> None:
        values = [
            RunValues(i, i // 5, i % 5, combine_run(run_windows(s, Window(10, 290)), names))
            for i, s in enumerate(series)
        ]
        for name in names:
            for ys in by_configuration(values, name).values():
                summarize(ys)

    t = _best_of(run)
    return f"aggregation, 2,000 runs x 10 sources x 300 s (6M samples x 2): {t * 1e3:8.1f} ms"


def main() -> None:
    """Print one line per benchmark."""
    for bench in (bench_multiclass, bench_load_dependent, bench_factorial, bench_aggregation):
        print(bench(), flush=True)


if __name__ == "__main__":
    main()
