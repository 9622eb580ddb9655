"""Seeding one run through the worker's real path.

The run's processes are placed by the worker's own planner (build_plan on the local testbed),
each client instance's memtier JSON and each middleware's stats dir are written where the
worker archives them, and the worker's own code parses, summarises (rows_from_archive) and
stores them (store_results): no result row is made here.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import update
from sqlalchemy.orm import Session

from backend.analysis.experiment import write_fraction
from backend.domain.grid import effective_parameters
from backend.domain.load_generators import AUTO
from backend.domain.window import window_of
from backend.models import Configuration, Experiment, Run, RunStatus
from worker.drivers.registry import driver_for
from worker.runs.outputs import rows_from_archive
from worker.runs.plan import RunPlan, build_plan
from worker.runs.quality import ingest_quality
from worker.runs.store import store_results
from worker.runs.summarize import StableWindow
from worker.runs.testbed import local_testbed
from worker.seeding.latency import real_shape
from worker.seeding.memtier_output import InstanceLoad, latency_values, write_memtier_json
from worker.seeding.middleware_output import MiddlewareLoad, write_middleware_dir
from worker.seeding.shape import (
    MIDDLEWARE_TOTAL,
    RunShape,
    cumulative_round,
    load_fraction,
    run_shape,
)

TOOL = "memtier"
INSTANCE_STAGGER_S = 0.05  # instances start a few ms apart, each on its own clock
MIDDLEWARE_LEAD_S = 2.6
SEEDED_STOP_S = 1.5  # stopping processes and fetching outputs after the load ends
LAST_SECOND_SHARE = 0.001  # middlewares start before the load generators (not on a second)
SEEDED_HOST_MEMORY = 16 << 30  # the memory a seeded middleware host is taken to have


class SeedError(Exception):
    """The experiment cannot be seeded (e.g. it asks for a tool whose outputs we cannot write)."""


@dataclass(frozen=True)
class SeededRun:
    """A stored run, what it was shaped to measure, and the latencies its tools recorded:
    clients over the whole run (us), middleware totals over the stable window (us)."""

    run_id: int
    configuration_id: int
    repetition: int
    shape: RunShape
    client_latencies: Counter[int]
    middleware_latencies: Counter[int]


def _instance_counts(
    shape: RunShape, fractions: list[float], instances: int, set_share: float
) -> list[tuple[list[int], list[int]]]:
    """Per instance, requests completed per second as (sets, gets)."""
    out = []
    for _ in range(instances):
        done = cumulative_round([shape.throughput * f / instances for f in fractions])
        sets = cumulative_round([n * set_share for n in done])
        out.append((sets, [n - s for n, s in zip(done, sets, strict=True)]))
    return out


def _on_middleware_clock(per_second: list[float], windows: int) -> list[float]:
    """Per-second values (load generators' clock) re-binned into the middleware's windows,
    which start MIDDLEWARE_LEAD_S earlier: each window takes its overlap of each second."""
    out = []
    for w in range(windows):
        a = w - MIDDLEWARE_LEAD_S
        total = 0.0
        for j in (math.floor(a), math.floor(a) + 1):
            if 0 <= j < len(per_second):
                total += per_second[j] * max(0.0, min(j + 1, a + 1) - max(j, a))
        out.append(total)
    return out


def _write_outputs(
    archive: Path,
    plan: RunPlan,
    params: dict[str, Any],
    shape: RunShape,
    exp: Experiment,
    load_start: float,
) -> tuple[dict[str, float], Counter[int]]:
    """The run's tool outputs under `archive`, as fetch_all leaves them; returns each client
    source's start and the latencies the clients recorded."""
    lat = real_shape()
    window = window_of(exp)
    fractions = [load_fraction(i, exp.run_time_s, window) for i in range(exp.run_time_s)]
    # memtier reports one more second: the last millisecond of its run (Total duration s+1 ms).
    fractions.append(fractions[-1] * LAST_SECOND_SHARE)
    # In a closed system the response time is higher while the load ramps.
    rt = [shape.response_time_us * (2 - f) for f in fractions]
    counts = _instance_counts(shape, fractions, len(plan.clients), write_fraction(params["ratio"]))
    starts: dict[str, float] = {}
    recorded: Counter[int] = Counter()
    for c, (sets, gets) in zip(plan.clients, counts, strict=True):
        recorded += latency_values([s + g for s, g in zip(sets, gets, strict=True)], rt, lat)
        start = load_start + INSTANCE_STAGGER_S * c.index
        starts[f"client:{c.index}"] = start
        address = c.spec.targets[0]
        load = InstanceLoad(
            start_unix=start,
            run_time_s=exp.run_time_s,
            sets=sets,
            gets=gets,
            response_time_us=rt,
            clients=c.spec.clients_per_thread,
            threads=c.spec.threads,
            ratio=c.spec.ratio,
            value_size=c.spec.value_size,
            server=address[0],
            port=address[1],
        )
        write_memtier_json(archive / c.host.name / f"{c.name}.json", load, lat)
    windows = exp.run_time_s + math.ceil(MIDDLEWARE_LEAD_S) + 1
    mw_rt = _on_middleware_clock(rt, windows)
    for m in plan.middlewares:
        mine = [i for i, c in enumerate(plan.clients) if c.target == f"middleware:{m.index}"]
        per_type = [
            cumulative_round(
                _on_middleware_clock([float(sum(x)) for x in zip(*cols, strict=True)], windows)
            )
            for cols in ([counts[i][0] for i in mine], [counts[i][1] for i in mine])
        ]
        weight = _on_middleware_clock([1.0] * len(rt), windows)
        load_mw = MiddlewareLoad(
            started_unix=load_start - MIDDLEWARE_LEAD_S,
            sets=per_type[0],
            gets=per_type[1],
            client_response_us=[r / w if w else 0.0 for r, w in zip(mw_rt, weight, strict=True)],
            listen=f"{m.host.address}:{m.port}",
            workers=m.workers,
            replication=m.replication,
            servers=[f"{s.host.address}:{s.port}" for s in m.servers],
            queue_capacity=m.queue_capacity,
            max_buffered_bytes=m.max_buffered_bytes,
        )
        write_middleware_dir(archive / m.host.name / f"{m.name}.stats", load_mw, lat)
    return starts, recorded


def _middleware_window_latencies(shape: RunShape, exp: Experiment) -> Counter[int]:
    """The middleware totals of the stable window (every second at full load there)."""
    done = round(shape.throughput * window_of(exp).length_s)
    total = MIDDLEWARE_TOTAL * shape.response_time_us
    lat = real_shape()
    return Counter(
        {round(total * rel): c for rel, c in zip(lat.relative, lat.counts(done), strict=True) if c}
    )


def seed_run(
    session: Session,
    exp: Experiment,
    config: Configuration,
    repetition: int,
    load_start: float,
    workdir: Path,
    scale: float = 1.0,
) -> SeededRun:
    """Stores one succeeded run of `config` whose load started at `load_start` (unix s)."""
    params = effective_parameters(config.values, exp.fixed)
    if params["load_generator"] not in (AUTO, TOOL):
        raise SeedError(
            f"seeding writes {TOOL} outputs; the experiment uses {params['load_generator']}"
        )
    ports = itertools.count(20_000)
    plan = build_plan(
        params,
        local_testbed(),
        TOOL,
        exp.run_time_s,
        lambda _h: next(ports),
        memory_of=lambda _h: SEEDED_HOST_MEMORY,
    )
    shape = run_shape(params, repetition, exp.repetitions, scale)
    run = Run(
        experiment_id=exp.id,
        configuration_id=config.id,
        repetition=repetition,
        status=RunStatus.RUNNING,
        attempt=1,
        started_at=datetime.fromtimestamp(load_start, UTC),
        hosts=plan.hosts_json(),
        tool_versions={},
        commands=[],
    )
    session.add(run)
    session.flush()
    archive = workdir / f"run-{run.id}"
    starts, recorded = _write_outputs(archive, plan, params, shape, exp, load_start)
    window = StableWindow.after(load_start, window_of(exp))
    driver = driver_for(TOOL)
    rows = rows_from_archive(
        archive,
        plan,
        lambda _c: driver(None),  # type: ignore[arg-type]  # parse() reads local files only
        window,
        int(params["multiget_size"]) > 1,
        starts,
    )
    quality = ingest_quality(rows, window, params, populated=plan.populate)
    if not store_results(session, run.id, 1, rows, quality):
        raise SeedError(f"run {run.id} was not stored")
    # store_results stamps now; the seeded run ended when its load did, seconds after it began.
    ended = datetime.fromtimestamp(load_start + exp.run_time_s + SEEDED_STOP_S, UTC)
    session.execute(update(Run).where(Run.id == run.id).values(finished_at=ended))
    session.commit()
    middleware = _middleware_window_latencies(shape, exp) if plan.middlewares else Counter()
    return SeededRun(run.id, config.id, repetition, shape, recorded, middleware)
