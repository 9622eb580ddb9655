"""The results table (`/experiments/{id}/results`): the metrics of RESULT_METRICS per
configuration (throughput, response time, keys/s), mean and std over repetitions, read through
the results read path and served keyed by metric name."""

from __future__ import annotations

from sqlalchemy.orm import Session

from backend.crud import results as crud
from backend.results import rule_status
from backend.results.aggregate import by_configuration, summarize
from backend.results.read import selected_run_values
from backend.results.selection import ResultsSelection
from backend.schemas.results import (
    RESULT_METRICS,
    RESULTS_UNITS,
    ConfigurationResultPublic,
    MetricSummaryPublic,
    ResultMetricsPublic,
    ResultsPublic,
)


def _summary(values: list[float] | None) -> MetricSummaryPublic:
    """A metric over a configuration's repetitions (n = 0 when no run measured it)."""
    if not values:
        return MetricSummaryPublic(n=0, mean=None, std=None)
    s = summarize(values)
    return MetricSummaryPublic(n=s.n, mean=s.mean, std=s.std)


def results_table(
    *, session: Session, selection: ResultsSelection
) -> list[ConfigurationResultPublic]:
    """The results table: each metric of RESULT_METRICS per configuration, over repetitions."""
    runs = selected_run_values(
        session=session,
        selection=selection,
        metrics=list(RESULT_METRICS),
    )
    per_metric = {m: by_configuration(runs, m) for m in RESULT_METRICS}
    out = []
    for c in crud.read_configurations(session=session, experiment_id=selection.experiment.id):
        metrics = ResultMetricsPublic(
            **{m: _summary(per_metric[m].get(c.id)) for m in RESULT_METRICS}
        )
        out.append(
            ConfigurationResultPublic(
                configuration_id=c.id,
                index=c.index,
                values=c.values,
                repetitions=metrics.throughput_per_s.n,
                metrics=metrics,
            )
        )
    return out


def results_public(*, session: Session, selection: ResultsSelection) -> ResultsPublic:
    """The results table as served, each configuration with why its repetitions stopped."""
    rows = results_table(session=session, selection=selection)
    why = rule_status.reasons(session=session, experiment=selection.experiment)
    window = selection.window
    return ResultsPublic(
        source=selection.source,
        request_type=selection.request_type,
        window_start_s=window.start_s if window else None,
        window_end_s=window.end_s if window else None,
        units=RESULTS_UNITS,
        data=[
            r.model_copy(update={"repetitions_reason": why.get(r.configuration_id)}) for r in rows
        ],
    )
