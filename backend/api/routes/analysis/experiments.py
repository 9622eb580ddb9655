"""Analyses of a stored experiment: /analysis/experiments/{id}/... read it through the service.

Every route takes the same selection (source, request type, metric, window_start_s /
window_end_s); the numbers come from backend/results/service.py, never from here.
"""

from typing import Literal

from fastapi import APIRouter, Query

from backend.analysis.plain import plain
from backend.api.deps import SessionDep
from backend.api.routes.analysis.common import analysis_errors, respond
from backend.api.window import ExperimentDep, WindowDep
from backend.crud.network import breakdown_rest_label
from backend.models import RequestType
from backend.results import service
from backend.results.metrics import METRIC_UNITS, MetricName, SourceKind
from backend.schemas import analysis as s
from backend.schemas.analysis.factorial import T_CRITICAL_DOC
from backend.schemas.limits import MAX_TIME_S, Confidence, TCritical

router = APIRouter()

EXP = "/experiments/{experiment_id}"


@router.get(EXP + "/summary", response_model=s.ExperimentSummaryPublic)
def read_experiment_summary(
    session: SessionDep,
    experiment: ExperimentDep,
    window: WindowDep,
    metric: MetricName = "throughput_per_s",
    source: SourceKind = "client",
    request_type: RequestType = RequestType.ALL,
    confidence: Confidence | None = Query(default=None),
) -> s.ExperimentSummaryPublic:
    """Mean, std and optional t interval of a metric per configuration."""
    with analysis_errors("query"):
        rows = service.metric_table(
            session=session,
            experiment=experiment,
            source=source,
            request_type=request_type,
            metric=metric,
            window=window,
            confidence=confidence,
        )
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
    session: SessionDep,
    experiment: ExperimentDep,
    window: WindowDep,
    request_type: RequestType = RequestType.ALL,
) -> s.ExperimentBreakdownPublic:
    """Response-time breakdown per configuration (client and middleware measurements)."""
    with analysis_errors("query"):
        rows = service.breakdown_table(
            session=session, experiment=experiment, request_type=request_type, window=window
        )
    label = breakdown_rest_label(session=session, experiment=experiment)
    return respond(s.ExperimentBreakdownPublic, {"data": rows, "rest_label": label})


@router.get(EXP + "/interactive-law", response_model=s.ExperimentInteractivePublic)
def read_interactive_law(
    session: SessionDep,
    experiment: ExperimentDep,
    window: WindowDep,
    request_type: RequestType = RequestType.ALL,
    think_time_s: float | None = Query(default=None, ge=0, le=MAX_TIME_S, allow_inf_nan=False),
) -> s.ExperimentInteractivePublic:
    """Expected X = N / (R + Z) per configuration; Z estimated from the data if not given."""
    with analysis_errors("query"):
        z, estimated, rows = service.interactive_table(
            session=session,
            experiment=experiment,
            request_type=request_type,
            window=window,
            think_time_s=think_time_s,
        )
    return respond(
        s.ExperimentInteractivePublic,
        {"think_time_s": z, "think_time_estimated": estimated, "data": rows},
    )


@router.get(EXP + "/little-law", response_model=s.ExperimentLittlePublic)
def read_little_law(
    session: SessionDep,
    experiment: ExperimentDep,
    window: WindowDep,
    request_type: RequestType = RequestType.ALL,
) -> s.ExperimentLittlePublic:
    """Little's law in the middleware: queue length against X x queue time per configuration."""
    with analysis_errors("query"):
        rows = service.little_table(
            session=session, experiment=experiment, request_type=request_type, window=window
        )
    return respond(s.ExperimentLittlePublic, {"data": rows})


@router.get(EXP + "/saturation", response_model=s.SaturationPublic)
def read_saturation(
    session: SessionDep,
    experiment: ExperimentDep,
    window: WindowDep,
    series_factor: str = "workers",
    load_factor: str = "clients",
    metric: Literal["throughput_per_s", "keys_per_s"] = "throughput_per_s",
    source: SourceKind = "client",
    request_type: RequestType = RequestType.ALL,
    fraction: float = Query(default=0.95, gt=0, le=1, allow_inf_nan=False),
) -> s.SaturationPublic:
    """Knee per series (e.g. per worker count) and the cheapest near-maximum configuration."""
    with analysis_errors("query"):
        res = service.saturation_table(
            session=session,
            experiment=experiment,
            source=source,
            request_type=request_type,
            window=window,
            metric=metric,
            series_factor=series_factor,
            load_factor=load_factor,
            fraction=fraction,
        )
    return respond(s.SaturationPublic, res)


@router.get(EXP + "/relative-differences", response_model=s.ExperimentRelativePublic)
def read_relative_differences(
    session: SessionDep,
    experiment: ExperimentDep,
    window: WindowDep,
    factor: str,
    base: str,
    metric: MetricName = "throughput_per_s",
    source: SourceKind = "client",
    request_type: RequestType = RequestType.ALL,
) -> s.ExperimentRelativePublic:
    """100 (y - x) / x of each configuration against its base-case twin."""
    with analysis_errors("query"):
        rows = service.relative_table(
            session=session,
            experiment=experiment,
            source=source,
            request_type=request_type,
            window=window,
            metric=metric,
            factor=factor,
            base=base,
        )
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
    experiment: ExperimentDep,
    window: WindowDep,
    metric: MetricName = "throughput_per_s",
    factors: str | None = Query(
        default=None, description="comma-separated; default: all two-level factors"
    ),
    confidence: Confidence | None = Query(default=0.90),
    multiplicative: bool = False,
    source: SourceKind = "client",
    request_type: RequestType = RequestType.ALL,
    t_critical: TCritical | None = Query(default=None, description=T_CRITICAL_DOC),
) -> s.FactorialPublic:
    """2^k r design over the experiment's grid, repetitions as replications."""
    chosen = tuple(f.strip() for f in factors.split(",") if f.strip()) if factors else None
    with analysis_errors("query"):
        res, levels = service.factorial_table(
            session=session,
            experiment=experiment,
            source=source,
            request_type=request_type,
            window=window,
            metric=metric,
            factors=chosen,
            confidence=confidence,
            multiplicative=multiplicative,
            t_critical=t_critical,
        )
    return respond(s.FactorialPublic, res, levels={k: list(v) for k, v in levels.items()})


@router.post(EXP + "/network-model", response_model=s.ExperimentModelPublic)
def model_experiment(
    session: SessionDep,
    experiment: ExperimentDep,
    window: WindowDep,
    body: s.ServiceTimesIn,
    request_type: RequestType = RequestType.ALL,
) -> s.ExperimentModelPublic:
    """MVA of DOMAIN.md's network per group of configurations differing only in clients."""
    with analysis_errors():
        out = service.network_model_table(
            session=session,
            experiment=experiment,
            request_type=request_type,
            window=window,
            service_times=body.model_dump(),
        )
    return respond(s.ExperimentModelPublic, {"data": out})
