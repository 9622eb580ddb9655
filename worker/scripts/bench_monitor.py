"""Benchmark: the monitor's own CPU, and the demand model against the timer-based model.

Runs a small closed-loop experiment on the local testbed (one memcached, one middleware with
2 workers, memaslap at 1, 4 and 16 clients per thread; one repetition of 6 s each) in a
throw-away database with a private sshd (as bench-runs), then prints:
- the monitor's CPU per second of run (its own process series; goal: under 1 % of a core);
- the demand model (utilization law per CPU) and the timer-based MVA model (DOMAIN.md's
  network with inputs from the middleware timers) at each measured point, with their errors;
- every measurement above the demand model's bound and whether a warning names it.

Run: make bench-monitor   (or: .venv/bin/python -m worker.scripts.bench_monitor --run-time 6)
"""

import argparse

from worker.scripts.local_bench import isolate, local_testbed, run_once

DB = isolate("monitor")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--run-time", type=int, default=6, help="run time of each run, s")
    ap.add_argument("--clients", default="1,4,16", help="clients per thread, comma-separated")
    args = ap.parse_args()
    with local_testbed(DB):
        _bench(args.run_time, [int(c) for c in args.clients.split(",")])


def _bench(run_time_s: int, clients: list[int]) -> None:

    from sqlalchemy import select

    from backend.analysis.mva.exact import solve_mva
    from backend.analysis.network_builder import build_network
    from backend.analysis.request_mix import design_mix
    from backend.core.db import SessionLocal
    from backend.domain.parameters import resolve_replication
    from backend.modelfit.demands import demand_groups
    from backend.modelfit.measured import measured_configs
    from backend.modelfit.network import network_groups
    from backend.models import RunSeries, RunStatus
    from backend.results.selection import ResultsSelection
    from worker.tests.utils.experiments import create_queued_experiment, runs_of

    with SessionLocal() as db:
        exp, run_ids = create_queued_experiment(
            db,
            factors={"clients_per_thread": clients},
            fixed={
                "servers": 1,
                "middlewares": 1,
                "workers": 2,
                "ratio": "1:9",
                "value_size": 128,
                "key_maximum": 1000,
                "load_generator": "memaslap",
            },
            repetitions=1,
            run_time_s=run_time_s,
        )
        for run_id in run_ids:
            run_once(run_id)
        done = runs_of(db, exp.id)
        failed = [r for r in done if r.status != RunStatus.SUCCEEDED]
        if failed:
            raise SystemExit(f"runs failed: {[(r.id, r.error) for r in failed]}")
        print("== the monitor's own CPU (process:monitor:<host>, its whole life) ==")
        for row in db.scalars(
            select(RunSeries).where(
                RunSeries.run_id.in_(run_ids), RunSeries.source.like("process:monitor:%")
            )
        ):
            cpu = row.process_cpu_pct or []
            print(
                f"run {row.run_id} {row.source}: {sum(cpu) / 100:.3f} CPU s over {len(cpu)} s "
                f"= {sum(cpu) / max(1, len(cpu)):.2f} % of a core per second of run"
            )
        (group,) = demand_groups(session=db, experiment=exp, timer_tolerance=0.5)
        configs = measured_configs(session=db, selection=ResultsSelection(exp))
        (timed,) = network_groups(
            configs,
            replication_of=lambda p: resolve_replication(p["replication"], p["servers"]),
            write_fraction_of=lambda p: design_mix(p).write_fraction,
        )
    model = group.model
    stations = build_network(timed.system)
    timer_mva = solve_mva(stations, max(p.clients for p in model.points), timed.system.think_time_s)
    print("\n== demands (utilization law D = CPU seconds / requests, stable window) ==")
    for s in [*model.stations, *model.processes]:
        print(f"{s.name:<34} servers {s.servers:>2}  D = {s.demand_s * 1e6:8.1f} us")
    print(f"think time Z = {model.think_time_s * 1e6:.1f} us")
    if model.timer_demand_s is not None and model.cpu_demand_s is not None:
        print(
            f"middleware: timers {model.timer_demand_s * 1e6:.1f} us/request (worker time) vs "
            f"CPU {model.cpu_demand_s * 1e6:.1f} us/request"
        )
    print(
        "\n== model against measurement (X in ops/s; errors 100 (model - measured) / measured) =="
    )
    print(
        f"{'N':>4} {'measured X':>11} {'demand X':>9} {'err %':>7} {'bound X':>9} "
        f"{'timer X':>9} {'err %':>7} {'R meas us':>9} {'R dem us':>9} {'R tim us':>9}"
    )
    for f in model.points:
        i = f.clients - 1
        x_t = float(timer_mva.throughput_per_s[i])
        r_t = float(timer_mva.response_time_s[i])
        err_t = 100 * (x_t - f.measured_throughput_per_s) / f.measured_throughput_per_s
        r_meas = (f.measured_response_time_s or 0) * 1e6
        print(
            f"{f.clients:>4} {f.measured_throughput_per_s:>11.0f} {f.model_throughput_per_s:>9.0f} "
            f"{f.throughput_error_pct:>7.1f} {f.bound_throughput_per_s:>9.0f} {x_t:>9.0f} "
            f"{err_t:>7.1f} {r_meas:>9.0f} {f.model_response_time_s * 1e6:>9.0f} {r_t * 1e6:>9.0f}"
        )
    above = [f for f in model.points if f.measured_throughput_per_s > f.bound_throughput_per_s]
    warned = [
        f for f in above if any(w.startswith(f"N = {f.clients}: measured") for w in model.warnings)
    ]
    print(
        f"\nmeasurements above the demand model's bound: {len(above)}, "
        f"with a warning: {len(warned)}"
    )
    for w in model.warnings:
        print(f"warning: {w}")
    b = model.bottleneck
    if b is not None:
        print(
            f"bottleneck at N = {b.clients}: {b.resource} (servers {b.servers}) at "
            f"utilization {b.utilization:.2f}; then "
            + ", ".join(f"{name} {u:.2f}" for name, u in b.others)
        )


if __name__ == "__main__":
    main()
