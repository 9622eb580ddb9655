"""Analysis endpoints (queueing models, factorial designs, statistics on stored results).

Ad-hoc endpoints take parameters in the body; /analysis/experiments/{id}/... read stored
results. An AnalysisError (model undefined for the input) becomes a 422 naming the field.
Over 400 lines because the resource owns one router file; every handler stays a few lines
(the math lives in backend/analysis, the queries in backend/crud/analysis.py).
"""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Literal, TypeVar, get_args

from fastapi import APIRouter, HTTPException, Query, status
from pydantic import BaseModel

from backend.analysis.breakdown import breakdown
from backend.analysis.comparison import relative_differences
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
from backend.analysis.factorial import factorial
from backend.analysis.laws import interactive_check, little_check, utilization
from backend.analysis.mm1 import mm1
from backend.analysis.mmm import mmm
from backend.analysis.mva.bounds import bounds
from backend.analysis.mva.exact import solve_mva
from backend.analysis.mva.multiclass import ClassSpec, solve_multiclass
from backend.analysis.mva.network import Station
from backend.analysis.mva.result import MvaResult
from backend.analysis.mva.whatif import what_if
from backend.analysis.network_builder import SystemConfig, model_vs_measurement
from backend.analysis.percentiles import (
    make_histogram,
    merge,
    percentiles_from_histogram,
    percentiles_from_samples,
    rebin,
)
from backend.analysis.plain import plain
from backend.analysis.saturation import Series, saturation
from backend.analysis.stats import aggregate_unaligned, confidence_interval, summarize
from backend.api.deps import SessionDep
from backend.api.errors import unprocessable
from backend.crud.analysis import read_configurations, read_histograms, read_source_rows
from backend.domain.grid import effective_parameters
from backend.domain.parameters import resolve_replication
from backend.models import Experiment, HistogramMetric, RequestType
from backend.schemas import analysis as s

router = APIRouter(prefix="/analysis", tags=["analysis"])

M = TypeVar("M", bound=BaseModel)

_SUFFIX_UNITS = (
    ("_per_s", "1/s"),
    ("_s2", "s^2"),
    ("_us", "us"),
    ("_s", "s"),
    ("_percent", "%"),
)


def units_of(model: type[BaseModel]) -> dict[str, str]:
    """Unit of every field whose name carries one, nested row models included (flat map).

    Throughputs are in ops/s, other rates in 1/s.
    """
    out: dict[str, str] = {}
    for name, field in model.model_fields.items():
        for suffix, unit in _SUFFIX_UNITS:
            if name.endswith(suffix):
                out[name] = "ops/s" if "throughput" in name and unit == "1/s" else unit
                break
        for arg in (field.annotation, *get_args(field.annotation)):
            if isinstance(arg, type) and issubclass(arg, BaseModel) and arg is not model:
                out.update({k: v for k, v in units_of(arg).items() if k not in out})
    return out


def respond(model: type[M], data: Any, **extra: Any) -> M:
    """Validate plain(data) into the response model and attach its units."""
    payload = {**plain(data), **extra, "units": units_of(model)}
    return model.model_validate(payload)


@contextmanager
def analysis_errors(location: Literal["body", "query"] = "body") -> Iterator[None]:
    """Turn AnalysisError into FastAPI's 422 shape with the field in `loc`."""
    try:
        yield
    except AnalysisError as err:
        raise unprocessable((err.field,), err.reason, location=location) from err


def stations_of(items: list[s.StationIn]) -> tuple[Station, ...]:
    """Schema stations to engine stations."""
    return tuple(Station(i.name, i.kind, i.service_time_s, i.visits, i.servers) for i in items)


def mva_public(res: MvaResult) -> s.MvaPublic:
    """Flatten per-station curves (station description beside its arrays)."""
    stations = [
        {
            **plain(c.station),
            "demand_s": c.station.demand_s,
            **{k: v for k, v in plain(c).items() if k != "station"},
        }
        for c in res.stations
    ]
    return respond(s.MvaPublic, res, stations=stations, bottleneck=res.bottleneck())


@router.post("/mm1", response_model=s.MM1Public)
def solve_mm1(body: s.MM1Request) -> s.MM1Public:
    """M/M/1 queue, all outputs of Jain Box 31.1."""
    with analysis_errors():
        res = mm1(body.arrival_rate_per_s, body.service_rate_per_s, body.percentiles)
    return respond(s.MM1Public, res)


@router.post("/mmm", response_model=s.MMmPublic)
def solve_mmm(body: s.MMmRequest) -> s.MMmPublic:
    """M/M/m queue (Jain Box 31.2), stable for hundreds of servers."""
    with analysis_errors():
        res = mmm(body.arrival_rate_per_s, body.service_rate_per_s, body.servers, body.percentiles)
    return respond(s.MMmPublic, res)


@router.post("/mva", response_model=s.MvaPublic)
def solve_mva_route(body: s.MvaRequest) -> s.MvaPublic:
    """Exact single-class MVA for populations 1..N, optionally with ABA/BJB bounds."""
    stations = stations_of(body.stations)
    with analysis_errors():
        res = solve_mva(stations, body.population, body.think_time_s)
        out = mva_public(res)
        if body.include_bounds:
            b = bounds(stations, body.population, body.think_time_s)
            out.bounds = respond(s.BoundsPublic, b)
    return out


@router.post("/mva/bounds", response_model=s.BoundsPublic)
def solve_bounds(body: s.MvaRequest) -> s.BoundsPublic:
    """Asymptotic and balanced job bounds."""
    with analysis_errors():
        res = bounds(stations_of(body.stations), body.population, body.think_time_s)
    return respond(s.BoundsPublic, res)


@router.post("/mva/multiclass", response_model=s.MultiClassPublic)
def solve_multiclass_route(body: s.MultiClassRequest) -> s.MultiClassPublic:
    """Exact multi-class MVA (delay and single-server stations), at the full population."""
    classes = tuple(
        ClassSpec(c.name, c.population, c.think_time_s, tuple(c.demands_s)) for c in body.classes
    )
    with analysis_errors():
        res = solve_multiclass(stations_of(body.stations), classes)
    return respond(s.MultiClassPublic, res)


@router.post("/mva/what-if", response_model=s.WhatIfPublic)
def solve_what_if(body: s.WhatIfRequest) -> s.WhatIfPublic:
    """Re-solve the model over a range of one parameter."""
    with analysis_errors():
        res = what_if(
            stations_of(body.stations),
            body.population,
            body.think_time_s,
            body.parameter,
            tuple(body.values),
            body.station,
        )
    return respond(s.WhatIfPublic, res)


@router.post("/network-model", response_model=s.NetworkModelPublic)
def solve_network_model(body: s.NetworkModelRequest) -> s.NetworkModelPublic:
    """Build DOMAIN.md's network from a configuration and compare it with measurements."""
    cfg = SystemConfig(**body.system.model_dump())
    resp = tuple(body.measured_response_time_s) if body.measured_response_time_s else None
    with analysis_errors():
        res, rows = model_vs_measurement(
            cfg, tuple(body.clients), tuple(body.measured_throughput_per_s), resp
        )
    return s.NetworkModelPublic(
        rows=[s.ModelRowPublic.model_validate(plain(r)) for r in rows],
        model=mva_public(res),
        units=units_of(s.ModelRowPublic),
    )


@router.post("/factorial", response_model=s.FactorialPublic)
def solve_factorial(body: s.FactorialRequest) -> s.FactorialPublic:
    """2^k r factorial design from responses in standard order (first factor fastest)."""
    with analysis_errors():
        res = factorial(tuple(body.factors), body.y, body.confidence, body.multiplicative)
    return respond(s.FactorialPublic, res)


@router.post("/statistics/repetitions", response_model=s.RepetitionsPublic)
def summarize_repetitions(body: s.RepetitionsRequest) -> s.RepetitionsPublic:
    """Mean, standard deviation and t confidence interval over repetitions."""
    with analysis_errors():
        summary = summarize(body.values)
        ci = confidence_interval(body.values, body.confidence) if body.confidence else None
    return s.RepetitionsPublic.model_validate({**plain(summary), "ci": plain(ci)})


@router.post("/statistics/instances", response_model=s.InstancesPublic)
def combine_instances(body: s.InstancesRequest) -> s.InstancesPublic:
    """Combine unaligned client instances (sum X, weighted R, root-sum-square stds)."""
    with analysis_errors():
        res = aggregate_unaligned(
            body.throughput_means_per_s,
            body.throughput_stds_per_s,
            body.response_means_us,
            body.response_stds_us,
        )
    return respond(s.InstancesPublic, res)


@router.post("/percentiles/histogram", response_model=s.HistogramPublic)
def histogram_percentiles(body: s.HistogramRequest) -> s.HistogramPublic:
    """Merge histograms (re-binning if layouts differ), optionally re-bin, read percentiles."""
    with analysis_errors():
        hist = merge(
            [make_histogram(h.upper_bounds_us, h.counts, h.overflow) for h in body.histograms]
        )
        if body.rebin_upper_bounds_us:
            hist = rebin(hist, body.rebin_upper_bounds_us)
        pct = percentiles_from_histogram(hist, body.percentiles)
    return respond(s.HistogramPublic, hist, total=hist.total, percentiles=plain(pct))


@router.post("/percentiles/samples", response_model=s.SamplesPublic)
def sample_percentiles(body: s.SamplesRequest) -> s.SamplesPublic:
    """Percentiles of raw samples (linear interpolation)."""
    with analysis_errors():
        values = percentiles_from_samples(body.samples_us, body.percentiles)
    return respond(s.SamplesPublic, {"percentiles": body.percentiles, "values_us": values})


@router.post("/laws/interactive", response_model=s.InteractivePublic)
def check_interactive_law(body: s.InteractiveRequest) -> s.InteractivePublic:
    """Interactive response time law: expected X = N / (R + Z) against measured X."""
    with analysis_errors():
        res = interactive_check(
            body.clients, body.response_time_s, body.think_time_s, body.measured_throughput_per_s
        )
    return respond(s.InteractivePublic, res)


@router.post("/laws/little", response_model=s.LittlePublic)
def check_little_law(body: s.LittleRequest) -> s.LittlePublic:
    """Little's law: measured length against throughput x time."""
    with analysis_errors():
        res = little_check(body.measured_length, body.throughput_per_s, body.time_s)
    return respond(s.LittlePublic, res)


@router.post("/laws/utilization", response_model=s.UtilizationPublic)
def utilization_law(body: s.UtilizationRequest) -> s.UtilizationPublic:
    """Utilization law U = X S / m."""
    with analysis_errors():
        u = utilization(body.throughput_per_s, body.service_time_s, body.servers)
    return s.UtilizationPublic(utilization=u)


@router.post("/saturation", response_model=s.SaturationPublic)
def find_saturation(body: s.SaturationRequest) -> s.SaturationPublic:
    """Knee per series and the cheapest configuration near the maximum throughput."""
    series = [
        Series(x.label, x.resource, tuple(x.loads), tuple(x.throughputs_per_s)) for x in body.series
    ]
    with analysis_errors():
        res = saturation(series, body.fraction)
    return respond(s.SaturationPublic, res)


@router.post("/breakdown", response_model=s.BreakdownPublic)
def split_response_time(body: s.BreakdownRequest) -> s.BreakdownPublic:
    """Queue, server, processing and network parts of the client response time."""
    with analysis_errors():
        res = breakdown(
            body.client_response_us, body.middleware_response_us, body.queue_us, body.server_us
        )
    return respond(s.BreakdownPublic, res)


@router.post("/relative-differences", response_model=s.RelativePublic)
def compare_to_base(body: s.RelativeRequest) -> s.RelativePublic:
    """100 (y - x) / x for every case against the base case."""
    with analysis_errors():
        rows = relative_differences(body.values, body.base)
    return respond(s.RelativePublic, {"rows": rows})


# --- stored experiments -------------------------------------------------------------------

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
    try:
        qs = tuple(float(q) for q in percentiles.split(","))
    except ValueError as err:
        raise unprocessable(
            ("percentiles",), "comma-separated numbers", percentiles, location="query"
        ) from err
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
