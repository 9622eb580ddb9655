"""Analyses of a stored experiment as served (`/analysis/experiments/{id}/...`): each reads its
runs through the results read path, computes with `backend.results.per_configuration` and
returns the response model, so a route, a figure and a table give the same numbers.

Every function takes the request's ResultsSelection (experiment, window, source, request
type) and its own options (metric, factors...); an input the analysis cannot take is a 422
naming the query field (a body field for the network model).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from sqlalchemy.orm import Session

from backend.analysis.errors import AnalysisError, require
from backend.analysis.plain import plain
from backend.analysis.saturation import saturation
from backend.crud import network as network_crud
from backend.domain.fraction import FractionError, resolve
from backend.domain.metrics import METRIC_UNITS, MetricName
from backend.results import per_configuration
from backend.results.aggregate import RunValues
from backend.results.factorial_notes import no_effect
from backend.results.per_configuration import BREAKDOWN_MW, LITTLE_METRICS, summary_rows
from backend.results.read import configurations, selected_run_values
from backend.results.selection import ResultsSelection
from backend.schemas import analysis as s
from backend.schemas.problems import analysis_errors
from backend.schemas.respond import respond


def _runs(
    session: Session, selection: ResultsSelection, metrics: Sequence[MetricName]
) -> list[RunValues]:
    return selected_run_values(session=session, selection=selection, metrics=metrics)


def summary_public(
    *,
    session: Session,
    selection: ResultsSelection,
    metric: MetricName = "throughput_per_s",
    confidence: float | None = None,
) -> s.ExperimentSummaryPublic:
    """Mean, std and optional t interval of a metric per configuration."""
    with analysis_errors("query"):
        configs = configurations(session=session, experiment=selection.experiment)
        # An empty table would say nothing: a search has no configuration before its first probe.
        require(len(configs) > 0, "experiment", "the experiment has no configurations yet")
        runs = _runs(session, selection, [metric])
        rows = summary_rows(configs, runs, metric, confidence)
    unit = METRIC_UNITS[metric]
    return s.ExperimentSummaryPublic(
        metric=metric,
        unit=unit,
        source=selection.source,
        confidence=confidence,
        data=[s.ConfigStatPublic.model_validate(plain(r)) for r in rows],
        units={"mean": unit, "std": unit, "ci_low": unit, "ci_high": unit},
    )


def breakdown_public(
    *,
    session: Session,
    selection: ResultsSelection,
) -> s.ExperimentBreakdownPublic:
    """Client response time split into middleware queue, server, processing and network."""
    with analysis_errors("query"):
        configs = configurations(session=session, experiment=selection.experiment)
        client = _runs(session, selection.on("client"), ["response_time_us"])
        mw = _runs(session, selection.on("middleware"), list(BREAKDOWN_MW))
        rtts = network_crud.round_trips_us(session=session, experiment_id=selection.experiment.id)
        rows = per_configuration.breakdown_table(configs, client, mw, rtts)
    label = network_crud.breakdown_rest_label(session=session, experiment=selection.experiment)
    return respond(s.ExperimentBreakdownPublic, {"data": rows, "rest_label": label})


def interactive_public(
    *,
    session: Session,
    selection: ResultsSelection,
    think_time_s: float | None = None,
) -> s.ExperimentInteractivePublic:
    """Expected X = N / (R + Z) per configuration; Z estimated from the data if not given."""
    with analysis_errors("query"):
        configs = configurations(session=session, experiment=selection.experiment)
        runs = _runs(session, selection.on("client"), ["throughput_per_s", "response_time_us"])
        z, estimated, rows = per_configuration.interactive_rows(configs, runs, think_time_s)
    return respond(
        s.ExperimentInteractivePublic,
        {"think_time_s": z, "think_time_estimated": estimated, "data": rows},
    )


def little_public(
    *,
    session: Session,
    selection: ResultsSelection,
) -> s.ExperimentLittlePublic:
    """Little's law in the middleware: queue length against X x queue time per configuration."""
    with analysis_errors("query"):
        configs = configurations(session=session, experiment=selection.experiment)
        mw = _runs(session, selection.on("middleware"), list(LITTLE_METRICS))
        rows = per_configuration.little_table(configs, mw)
    return respond(s.ExperimentLittlePublic, {"data": rows})


def saturation_public(
    *,
    session: Session,
    selection: ResultsSelection,
    series_factor: str = "workers",
    load_factor: str = "clients",
    metric: Literal["throughput_per_s", "keys_per_s"] = "throughput_per_s",
    fraction: float = 0.95,
) -> s.SaturationPublic:
    """Knee per series (e.g. per worker count) and the cheapest near-maximum configuration."""
    with analysis_errors("query"):
        configs = configurations(session=session, experiment=selection.experiment)
        runs = _runs(session, selection, [metric])
        series = per_configuration.saturation_series(
            configs, runs, series_factor, load_factor, metric
        )
        res = saturation(series, fraction)
    return respond(s.SaturationPublic, res)


def relative_public(
    *,
    session: Session,
    selection: ResultsSelection,
    factor: str,
    base: str,
    metric: MetricName = "throughput_per_s",
) -> s.ExperimentRelativePublic:
    """100 (y - x) / x of each configuration against its twin with `factor` = `base`."""
    with analysis_errors("query"):
        configs = configurations(session=session, experiment=selection.experiment)
        runs = _runs(session, selection, [metric])
        rows = per_configuration.relative_rows(configs, runs, metric, factor, base)
    unit = METRIC_UNITS[metric]
    return s.ExperimentRelativePublic(
        metric=metric,
        unit=unit,
        factor=factor,
        base=base,
        data=[s.RelativeConfigRowPublic.model_validate(plain(r)) for r in rows],
        units={"value": unit, "base_value": unit, "difference_percent": "%"},
    )


def factorial_public(
    *,
    session: Session,
    selection: ResultsSelection,
    metric: MetricName = "throughput_per_s",
    factors: str | None = None,
    confidence: float | None = 0.90,
    multiplicative: bool = False,
    t_critical: float | None = None,
) -> s.FactorialPublic:
    """2^k r design over the grid, repetitions as replications (t_critical: a given t value);
    the 2^(k-p) r analysis of a fractional experiment. `factors`: comma-separated, default
    all two-level factors."""
    chosen = tuple(f.strip() for f in factors.split(",") if f.strip()) if factors else None
    experiment = selection.experiment
    with analysis_errors("query"):
        configs = configurations(session=session, experiment=selection.experiment)
        runs = _runs(session, selection, [metric])
        fraction = None
        if experiment.fraction:
            try:
                frac = resolve(
                    len(experiment.factors),
                    experiment.fraction.get("generators"),
                    experiment.fraction.get("resolution"),
                )
            except FractionError as err:
                raise AnalysisError("experiment", f"its fraction: {err}") from err
            fraction = (experiment.factors, frac)
        res, levels = per_configuration.factorial_from_experiment(
            configs,
            runs,
            metric,
            chosen,
            confidence,
            multiplicative,
            t_critical,
            fraction,
            experiment.factors,
        )
        notes = no_effect(configs, levels)
    return respond(
        s.FactorialPublic,
        res,
        levels={k: list(v) for k, v in levels.items()},
        no_effect=plain(notes),
    )


def network_model_public(
    *,
    session: Session,
    selection: ResultsSelection,
    service_times: dict[str, Any],
) -> s.ExperimentModelPublic:
    """MVA of DOMAIN.md's network per group of configurations differing only in clients."""
    with analysis_errors():
        configs = configurations(session=session, experiment=selection.experiment)
        runs = _runs(session, selection.on("client"), ["throughput_per_s", "response_time_us"])
        out = per_configuration.network_model_table(configs, runs, service_times)
    return respond(s.ExperimentModelPublic, {"data": out})
