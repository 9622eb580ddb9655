"""Analyses of a stored experiment: /analysis/experiments/{id}/... read its results."""

from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Query, status

from backend.analysis.breakdown import breakdown
from backend.analysis.errors import AnalysisError
from backend.analysis.experiment import (
    METRIC_UNITS,
    Metric,
    RunMetrics,
    by_configuration,
    combine_sources,
    total_clients,
    write_fraction,
)
from backend.analysis.experiment_tables import (
    Config,
    factorial_from_experiment,
    interactive_rows,
    mean_of,
    relative_rows,
    saturation_series,
    summary_rows,
)
from backend.analysis.laws import little_check
from backend.analysis.network_builder import SystemConfig, model_vs_measurement
from backend.analysis.percentiles import (
    merge,
    percentiles_from_histogram,
)
from backend.analysis.plain import plain
from backend.analysis.saturation import saturation
from backend.api.deps import SessionDep
from backend.api.routes.analysis.common import analysis_errors, parse_percentiles, respond
from backend.crud.analysis import read_configurations, read_histograms, read_source_rows
from backend.domain.grid import effective_parameters
from backend.domain.parameters import resolve_replication
from backend.models import Experiment, HistogramMetric, RequestType
from backend.schemas import analysis as s

router = APIRouter()


EXP = "/experiments/{experiment_id}"
_CLIENT_PARAMS = (
    "client_machines",
    "instances_per_machine",
    "threads_per_instance",
    "clients_per_thread",
)


def load_configs(session: SessionDep, experiment_id: int) -> list[Config]:
    """404 unless the experiment exists; its grid with effective parameters."""
    exp = session.get(Experiment, experiment_id)
    if exp is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Experiment not found")
    return [
        Config(c.id, c.index, c.values, effective_parameters(c.values, exp.fixed))
        for c in read_configurations(session=session, experiment_id=experiment_id)
    ]


def load_runs(
    session: SessionDep, experiment_id: int, source: s.SourceKind, request_type: RequestType
) -> list[RunMetrics]:
    """Per-run metrics with the run's sources combined."""
    rows = read_source_rows(
        session=session, experiment_id=experiment_id, source=source, request_type=request_type
    )
    return combine_sources(rows)


@router.get(EXP + "/summary", response_model=s.ExperimentSummaryPublic)
def read_experiment_summary(
    session: SessionDep,
    experiment_id: int,
    metric: Metric = "throughput_per_s",
    source: s.SourceKind = "client",
    request_type: RequestType = RequestType.ALL,
    confidence: float | None = Query(default=None, gt=0, lt=1),
) -> s.ExperimentSummaryPublic:
    """Mean, std and optional t interval of a metric per configuration."""
    configs = load_configs(session, experiment_id)
    runs = load_runs(session, experiment_id, source, request_type)
    with analysis_errors("query"):
        rows = summary_rows(configs, runs, metric, confidence)
    unit = METRIC_UNITS[metric]
    return s.ExperimentSummaryPublic(
        metric=metric,
        unit=unit,
        source=source,
        confidence=confidence,
        data=[s.ConfigStatPublic.model_validate(plain(r)) for r in rows],
        units={"mean": unit, "std": unit, "ci_low": unit, "ci_high": unit},
    )


@router.get(EXP + "/breakdown", response_model=s.ExperimentBreakdownPublic)
def read_experiment_breakdown(
    session: SessionDep, experiment_id: int, request_type: RequestType = RequestType.ALL
) -> s.ExperimentBreakdownPublic:
    """Response-time breakdown per configuration (client and middleware measurements)."""
    configs = load_configs(session, experiment_id)
    client = by_configuration(
        load_runs(session, experiment_id, "client", request_type), "response_time_us"
    )
    mw_runs = load_runs(session, experiment_id, "middleware", request_type)
    mw = {
        k: by_configuration(mw_runs, k)
        for k in ("response_time_us", "queue_time_us", "server_time_us")
    }
    rows = []
    with analysis_errors("query"):
        for c in configs:
            parts = [mean_of(client, c.id)] + [mean_of(mw[k], c.id) for k in mw]
            if any(p is None for p in parts):
                continue
            b = breakdown(*(float(p) for p in parts if p is not None))
            rows.append(
                {"configuration_id": c.id, "index": c.index, "values": c.values, **plain(b)}
            )
        if not rows:
            raise AnalysisError(
                "experiment",
                "no configuration has both client and middleware "
                "measurements with queue and server times",
            )
    return respond(s.ExperimentBreakdownPublic, {"data": rows})


@router.get(EXP + "/interactive-law", response_model=s.ExperimentInteractivePublic)
def read_interactive_law(
    session: SessionDep,
    experiment_id: int,
    request_type: RequestType = RequestType.ALL,
    think_time_s: float | None = Query(default=None, ge=0),
) -> s.ExperimentInteractivePublic:
    """Expected X = N / (R + Z) per configuration; Z estimated from the data if not given."""
    configs = load_configs(session, experiment_id)
    runs = load_runs(session, experiment_id, "client", request_type)
    with analysis_errors("query"):
        z, estimated, rows = interactive_rows(configs, runs, think_time_s)
    return respond(
        s.ExperimentInteractivePublic,
        {"think_time_s": z, "think_time_estimated": estimated, "data": rows},
    )


@router.get(EXP + "/little-law", response_model=s.ExperimentLittlePublic)
def read_little_law(
    session: SessionDep, experiment_id: int, request_type: RequestType = RequestType.ALL
) -> s.ExperimentLittlePublic:
    """Little's law in the middleware: queue length against X x queue time per configuration."""
    configs = load_configs(session, experiment_id)
    runs = load_runs(session, experiment_id, "middleware", request_type)
    data = {
        k: by_configuration(runs, k) for k in ("queue_length", "throughput_per_s", "queue_time_us")
    }
    rows = []
    with analysis_errors("query"):
        for c in configs:
            length, x, w = (mean_of(data[k], c.id) for k in data)
            if length is None or x is None or w is None:
                continue
            check = little_check(length, x, w / 1e6)
            rows.append(
                {"configuration_id": c.id, "index": c.index, "values": c.values, **plain(check)}
            )
        if not rows:
            raise AnalysisError("experiment", "no middleware queue length and queue time stored")
    return respond(s.ExperimentLittlePublic, {"data": rows})


@router.get(EXP + "/saturation", response_model=s.SaturationPublic)
def read_saturation(
    session: SessionDep,
    experiment_id: int,
    series_factor: str = "workers",
    load_factor: str = "clients",
    metric: Literal["throughput_per_s", "keys_per_s"] = "throughput_per_s",
    source: s.SourceKind = "client",
    request_type: RequestType = RequestType.ALL,
    fraction: float = Query(default=0.95, gt=0, le=1),
) -> s.SaturationPublic:
    """Knee per series (e.g. per worker count) and the cheapest near-maximum configuration."""
    configs = load_configs(session, experiment_id)
    runs = load_runs(session, experiment_id, source, request_type)
    with analysis_errors("query"):
        series = saturation_series(configs, runs, series_factor, load_factor, metric)
        res = saturation(series, fraction)
    return respond(s.SaturationPublic, res)


@router.get(EXP + "/relative-differences", response_model=s.ExperimentRelativePublic)
def read_relative_differences(
    session: SessionDep,
    experiment_id: int,
    factor: str,
    base: str,
    metric: Metric = "throughput_per_s",
    source: s.SourceKind = "client",
    request_type: RequestType = RequestType.ALL,
) -> s.ExperimentRelativePublic:
    """100 (y - x) / x of each configuration against its base-case twin."""
    configs = load_configs(session, experiment_id)
    runs = load_runs(session, experiment_id, source, request_type)
    with analysis_errors("query"):
        rows = relative_rows(configs, runs, metric, factor, base)
    unit = METRIC_UNITS[metric]
    return s.ExperimentRelativePublic(
        metric=metric,
        unit=unit,
        factor=factor,
        base=base,
        data=[s.RelativeConfigRowPublic.model_validate(plain(r)) for r in rows],
        units={"value": unit, "base_value": unit, "difference_percent": "%"},
    )


@router.get(EXP + "/factorial", response_model=s.FactorialPublic)
def read_experiment_factorial(
    session: SessionDep,
    experiment_id: int,
    metric: Metric = "throughput_per_s",
    factors: str | None = Query(
        default=None, description="comma-separated; default: all two-level factors"
    ),
    confidence: float | None = Query(default=0.90, gt=0, lt=1),
    multiplicative: bool = False,
    source: s.SourceKind = "client",
    request_type: RequestType = RequestType.ALL,
) -> s.FactorialPublic:
    """2^k r design over the experiment's grid, repetitions as replications."""
    configs = load_configs(session, experiment_id)
    runs = load_runs(session, experiment_id, source, request_type)
    chosen = tuple(f.strip() for f in factors.split(",") if f.strip()) if factors else None
    with analysis_errors("query"):
        res, levels = factorial_from_experiment(
            configs, runs, metric, chosen, confidence, multiplicative
        )
    return respond(s.FactorialPublic, res, levels={k: list(v) for k, v in levels.items()})


@router.get(EXP + "/histogram", response_model=s.HistogramPublic)
def read_experiment_histogram(
    session: SessionDep,
    experiment_id: int,
    configuration_id: int,
    metric: HistogramMetric = HistogramMetric.CLIENT,
    source: s.SourceKind = "client",
    request_type: RequestType = RequestType.ALL,
    percentiles: str = "25,50,75,90,99",
) -> s.HistogramPublic:
    """Histograms of all repetitions of one configuration merged, with percentiles."""
    configs = load_configs(session, experiment_id)
    if configuration_id not in {c.id for c in configs}:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Configuration not found")
    qs = parse_percentiles(percentiles)
    hists = read_histograms(
        session=session,
        experiment_id=experiment_id,
        configuration_id=configuration_id,
        source=source,
        request_type=request_type,
        metric=metric,
    )
    with analysis_errors("query"):
        if not hists:
            raise AnalysisError("configuration_id", "no stored histograms for this selection")
        hist = merge(hists)
        pct = percentiles_from_histogram(hist, qs)
    return respond(s.HistogramPublic, hist, total=hist.total, percentiles=plain(pct))


@router.post(EXP + "/network-model", response_model=s.ExperimentModelPublic)
def model_experiment(
    session: SessionDep,
    experiment_id: int,
    body: s.ServiceTimesIn,
    request_type: RequestType = RequestType.ALL,
) -> s.ExperimentModelPublic:
    """MVA of DOMAIN.md's network per group of configurations differing only in clients."""
    configs = load_configs(session, experiment_id)
    runs = load_runs(session, experiment_id, "client", request_type)
    xs = by_configuration(runs, "throughput_per_s")
    rs = by_configuration(runs, "response_time_us")
    groups: dict[str, tuple[dict[str, Any], list[tuple[int, float, float | None]]]] = {}
    with analysis_errors():
        for c in configs:
            x = mean_of(xs, c.id)
            if x is None:
                continue
            key = {k: v for k, v in c.values.items() if k not in _CLIENT_PARAMS}
            r = mean_of(rs, c.id)
            point = (total_clients(c.params), x, r / 1e6 if r is not None else None)
            groups.setdefault(repr(sorted(key.items())), (key, []))[1].append(point)
        if not groups:
            raise AnalysisError("experiment", "no succeeded runs with client measurements")
        out = []
        for key, points in groups.values():
            params = next(c.params for c in configs if {k: c.values.get(k) for k in key} == key)
            if params["middlewares"] < 1:
                raise AnalysisError("middlewares", "the network model needs a middleware")
            cfg = SystemConfig(
                servers=params["servers"],
                middlewares=params["middlewares"],
                workers=params["workers"],
                replication=resolve_replication(params["replication"], params["servers"]),
                write_fraction=write_fraction(params["ratio"]),
                **body.model_dump(),
            )
            points.sort()
            _, rows = model_vs_measurement(
                cfg,
                tuple(p[0] for p in points),
                tuple(p[1] for p in points),
                tuple(p[2] for p in points),
            )
            out.append({"group": key, "rows": rows})
    return respond(s.ExperimentModelPublic, {"data": out})
