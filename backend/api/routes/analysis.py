"""Analysis endpoints (queueing models, factorial designs, statistics on stored results).

Ad-hoc endpoints take parameters in the body; /analysis/experiments/{id}/... read stored
results. An AnalysisError (model undefined for the input) becomes a 422 naming the field.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from fastapi import APIRouter
from pydantic import BaseModel

from backend.analysis.breakdown import breakdown
from backend.analysis.comparison import relative_differences
from backend.analysis.errors import AnalysisError
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
from backend.api.errors import unprocessable
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
    """Unit of every field whose name carries one (throughputs in ops/s, rates in 1/s)."""
    out = {}
    for name in model.model_fields:
        for suffix, unit in _SUFFIX_UNITS:
            if name.endswith(suffix):
                out[name] = "ops/s" if "throughput" in name and unit == "1/s" else unit
                break
    return out


def respond(model: type[M], data: Any, **extra: Any) -> M:
    """Validate plain(data) into the response model and attach its units."""
    payload = {**plain(data), **extra, "units": units_of(model)}
    return model.model_validate(payload)


@contextmanager
def analysis_errors() -> Iterator[None]:
    """Turn AnalysisError into FastAPI's 422 shape with the field in `loc`."""
    try:
        yield
    except AnalysisError as err:
        raise unprocessable((err.field,), err.reason) from err


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
