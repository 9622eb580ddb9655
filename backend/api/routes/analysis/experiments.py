"""Analyses of a stored experiment: /analysis/experiments/{id}/... read it through the service.

Every route takes the same selection (source, request type, metric, window_start_s /
window_end_s); the numbers come from backend/results/analyses.py, never from here.
"""

from typing import Literal

from fastapi import APIRouter, Query

from backend.api.deps import SessionDep
from backend.api.window import RequestTypeSelectionDep, SelectionDep
from backend.domain.metrics import MetricName
from backend.results import analyses
from backend.schemas import analysis as s
from backend.schemas.analysis.factorial import T_CRITICAL_DOC
from backend.schemas.limits import MAX_TIME_S, Confidence, TCritical

router = APIRouter()

EXP = "/experiments/{experiment_id}"


@router.get(EXP + "/summary", response_model=s.ExperimentSummaryPublic)
def read_experiment_summary(
    session: SessionDep,
    selection: SelectionDep,
    metric: MetricName = "throughput_per_s",
    confidence: Confidence | None = Query(default=None),
) -> s.ExperimentSummaryPublic:
    """Mean, std and optional t interval of a metric per configuration."""
    return analyses.summary_public(
        session=session,
        selection=selection,
        metric=metric,
        confidence=confidence,
    )


@router.get(EXP + "/breakdown", response_model=s.ExperimentBreakdownPublic)
def read_experiment_breakdown(
    session: SessionDep,
    selection: RequestTypeSelectionDep,
) -> s.ExperimentBreakdownPublic:
    """Response-time breakdown per configuration (client and middleware measurements)."""
    return analyses.breakdown_public(
        session=session,
        selection=selection,
    )


@router.get(EXP + "/interactive-law", response_model=s.ExperimentInteractivePublic)
def read_interactive_law(
    session: SessionDep,
    selection: RequestTypeSelectionDep,
    think_time_s: float | None = Query(default=None, ge=0, le=MAX_TIME_S, allow_inf_nan=False),
) -> s.ExperimentInteractivePublic:
    """Expected X = N / (R + Z) per configuration; Z estimated from the data if not given."""
    return analyses.interactive_public(
        session=session,
        selection=selection,
        think_time_s=think_time_s,
    )


@router.get(EXP + "/little-law", response_model=s.ExperimentLittlePublic)
def read_little_law(
    session: SessionDep,
    selection: RequestTypeSelectionDep,
) -> s.ExperimentLittlePublic:
    """Little's law in the middleware: queue length against X x queue time per configuration."""
    return analyses.little_public(
        session=session,
        selection=selection,
    )


@router.get(EXP + "/saturation", response_model=s.SaturationPublic)
def read_saturation(
    session: SessionDep,
    selection: SelectionDep,
    series_factor: str = "workers",
    load_factor: str = "clients",
    metric: Literal["throughput_per_s", "keys_per_s"] = "throughput_per_s",
    fraction: float = Query(default=0.95, gt=0, le=1, allow_inf_nan=False),
) -> s.SaturationPublic:
    """Knee per series (e.g. per worker count) and the cheapest near-maximum configuration."""
    return analyses.saturation_public(
        session=session,
        selection=selection,
        series_factor=series_factor,
        load_factor=load_factor,
        metric=metric,
        fraction=fraction,
    )


@router.get(EXP + "/relative-differences", response_model=s.ExperimentRelativePublic)
def read_relative_differences(
    session: SessionDep,
    selection: SelectionDep,
    factor: str,
    base: str,
    metric: MetricName = "throughput_per_s",
) -> s.ExperimentRelativePublic:
    """100 (y - x) / x of each configuration against its base-case twin."""
    return analyses.relative_public(
        session=session,
        selection=selection,
        factor=factor,
        base=base,
        metric=metric,
    )


@router.get(EXP + "/factorial", response_model=s.FactorialPublic)
def read_experiment_factorial(
    session: SessionDep,
    selection: SelectionDep,
    metric: MetricName = "throughput_per_s",
    factors: str | None = Query(
        default=None, description="comma-separated; default: all two-level factors"
    ),
    confidence: Confidence | None = Query(default=0.90),
    multiplicative: bool = False,
    t_critical: TCritical | None = Query(default=None, description=T_CRITICAL_DOC),
) -> s.FactorialPublic:
    """2^k r design over the experiment's grid, repetitions as replications."""
    return analyses.factorial_public(
        session=session,
        selection=selection,
        metric=metric,
        factors=factors,
        confidence=confidence,
        multiplicative=multiplicative,
        t_critical=t_critical,
    )


@router.post(EXP + "/network-model", response_model=s.ExperimentModelPublic)
def model_experiment(
    session: SessionDep,
    selection: RequestTypeSelectionDep,
    body: s.ServiceTimesIn,
) -> s.ExperimentModelPublic:
    """MVA of DOMAIN.md's network per group of configurations differing only in clients."""
    return analyses.network_model_public(
        session=session,
        selection=selection,
        service_times=body.model_dump(),
    )
