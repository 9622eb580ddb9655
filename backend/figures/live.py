"""The live figure of a running run: the time-series figure over the seconds received so far.

The worker keeps each run's progress events in Redis (backend/core/live.py); they are combined
per second by the results core's rule (aggregate.combine_per_second: throughput summed over
client instances, response time weighted by throughput) and drawn by the finished run's own
time-series figure, so the live chart and the finished one are one definition.
"""

import math
from collections import defaultdict
from dataclasses import dataclass
from functools import cache
from typing import Any

import plotly.graph_objects as go
import redis
from sqlalchemy.orm import Session

from backend.core.config import settings
from backend.core.live import read_progress
from backend.crud import run as crud_run
from backend.domain.errors import NotFound, Unavailable
from backend.domain.window import window_of
from backend.figures.distributions import time_series
from backend.figures.params import FigureQuery
from backend.figures.registry import register, set_caption
from backend.models import Experiment, RequestType, Run
from backend.results.aggregate import SourceSeries, combine_per_second
from backend.results.selection import stored_experiment
from backend.schemas.series import (
    SERIES_UNITS,
    CombinedSeriesPublic,
    InstanceSeriesPublic,
    RunSeriesPublic,
)

# One second of one instance: throughput and mean response time (None: not reported).
Second = tuple[float, float | None]


@dataclass(frozen=True)
class LiveSeries:
    """The run's series so far and its planned length (the x axis spans the whole run)."""

    series: RunSeriesPublic
    run_time_s: int


@cache
def _redis() -> "redis.Redis":
    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)


def _run(session: Session, exp: Experiment, run_id: int | None) -> Run:
    if run_id is not None:
        run = session.get(Run, run_id)
        if run is None or run.experiment_id != exp.id:
            raise NotFound("Run not found")
        return run
    running = crud_run.latest_running_run(session=session, experiment_id=exp.id)
    if running is None:
        raise NotFound("No running run")
    return running


def _seconds(events: list[dict[str, Any]], run_id: int) -> dict[str, dict[int, Second]]:
    """Per source, its seconds; a repeated second replaces the earlier report (as the worker's
    combiner does), an event without the fields of a progress event is skipped."""
    out: dict[str, dict[int, Second]] = defaultdict(dict)
    for e in events:
        try:
            if int(e["run_id"]) != run_id:
                continue
            latency = e.get("mean_latency_us")
            second = (float(e["ops_per_sec"]), None if latency is None else float(latency))
            out[str(e["source"])][int(e["elapsed_s"])] = second
        except (KeyError, TypeError, ValueError):
            continue
    return out


def _instance(source: str, seconds: dict[int, Second]) -> InstanceSeriesPublic:
    first, last = min(seconds), max(seconds)
    span = [seconds.get(t) for t in range(first, last + 1)]
    return InstanceSeriesPublic(
        source=source,
        offset_s=float(first),
        throughput=[s[0] if s else None for s in span],
        response_time_us=[s[1] if s else None for s in span],
        queue_time_us=None,
        server_time_us=None,
        queue_length=None,
    )


def live_series(exp: Experiment, run: Run, events: list[dict[str, Any]]) -> RunSeriesPublic:
    """The run's series from its progress events: second t of each source is one element."""
    by_source = _seconds(events, run.id)
    window = window_of(exp)
    combined = combine_per_second(
        [
            SourceSeries(
                source,
                float(t),
                {
                    "throughput": [tp],
                    "response_time_us": [math.nan if rt is None else rt],
                },
            )
            for source, seconds in by_source.items()
            for t, (tp, rt) in seconds.items()
        ],
        0.0,
    )
    return RunSeriesPublic(
        run_id=run.id,
        experiment_id=exp.id,
        configuration_id=run.configuration_id,
        repetition=run.repetition,
        source="client",
        request_type=RequestType.ALL,
        start_unix=None,
        window_start_s=window.start_s,
        window_end_s=window.end_s,
        window_stored=False,
        units=SERIES_UNITS,
        combined=CombinedSeriesPublic(
            time_s=combined.time_s,
            throughput=combined.throughput,
            response_time_us=combined.response_time_us,
        ),
        instances=[_instance(s, seconds) for s, seconds in sorted(by_source.items())],
    )


def load_live_series(session: Session, experiment_id: int, q: FigureQuery) -> LiveSeries:
    """The seconds a run reported so far (default run: the experiment's latest running one)."""
    exp = stored_experiment(session, experiment_id)
    run = _run(session, exp, q.run_id)
    try:
        events = read_progress(_redis(), run.id)
    except redis.RedisError as err:
        raise Unavailable("Live data unavailable: Redis does not answer") from err
    return LiveSeries(live_series(exp, run, events), exp.run_time_s)


@register("live", "Live progress of a run", load_live_series, live=True)
def live_progress(data: LiveSeries, q: FigureQuery) -> go.Figure:
    """The time-series figure of the seconds so far, its x axis spanning the whole run."""
    s = data.series
    fig = time_series(s, q.model_copy(update={"window_start_s": None, "window_end_s": None}))
    fig.update_xaxes(range=[0, max(data.run_time_s, *s.combined.time_s, 1)])
    done = int(s.combined.time_s[-1]) if s.combined.time_s else 0
    return set_caption(
        fig,
        f"Live per-second throughput and response time of run {s.run_id} (repetition "
        f"{s.repetition}), {done} of {data.run_time_s} s so far: client instances combined "
        f"per second (throughput summed, response time weighted by throughput); shaded: the "
        f"stable window [{s.window_start_s} s, {s.window_end_s} s) of the design.",
    )
