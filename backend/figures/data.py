"""One data function per figure family: the same numbers the results page shows.

Each reads through the service the page's route calls (backend.results: the results table,
histograms, series and analyses), so a figure and the page can never disagree; they raise
the routes' 404s and 422s.
"""

from typing import Any

from sqlalchemy.orm import Session

from backend.crud import run as crud_run
from backend.domain.errors import NotFound
from backend.figures.params import FigureQuery, Selection
from backend.models import Experiment
from backend.results import analyses, histograms, series, table
from backend.results.aggregate import Window
from backend.results.selection import results_window, stored_experiment
from backend.schemas import analysis as s
from backend.schemas.results import ResultsPublic
from backend.schemas.series import RunSeriesPublic


def selected(
    session: Session, experiment_id: int, q: Selection
) -> tuple[Experiment, Window | None]:
    """The stored experiment (loaded once) and the figure's checked window."""
    exp = stored_experiment(session, experiment_id)
    return exp, results_window(exp, q.window_start_s, q.window_end_s)


def load_results(session: Session, experiment_id: int, q: Selection) -> ResultsPublic:
    """Mean and std of throughput and response time per configuration (window aware)."""
    exp, window = selected(session, experiment_id, q)
    return table.results_public(
        session=session,
        experiment=exp,
        window=window,
        source=q.source,
        request_type=q.request_type,
    )


def load_percentiles(
    session: Session, experiment_id: int, q: FigureQuery
) -> s.ExperimentPercentilesPublic:
    """Percentiles of every configuration from its merged histograms."""
    exp, window = selected(session, experiment_id, q)
    return histograms.percentiles_public(
        session=session,
        experiment=exp,
        window=window,
        metric=q.histogram_source_metric(),
        source=q.source,
        request_type=q.request_type,
        percentiles=q.percentiles,
    )


def load_histogram(
    session: Session, experiment_id: int, q: FigureQuery
) -> tuple[s.HistogramPublic, dict[str, Any]]:
    """One configuration's merged histogram (default: the first measured) and its levels."""
    results = load_results(
        session, experiment_id, q.model_copy(update={"window_start_s": None, "window_end_s": None})
    )
    measured = [r for r in results.data if r.repetitions > 0]
    if q.configuration_id is None:
        if not measured:
            raise NotFound("No measured configuration")
        config = measured[0]
    else:
        found = [r for r in results.data if r.configuration_id == q.configuration_id]
        if not found:
            raise NotFound("Configuration not found")
        config = found[0]
    exp, window = selected(session, experiment_id, q)
    hist = histograms.histogram_public(
        session=session,
        experiment=exp,
        window=window,
        configuration_id=config.configuration_id,
        metric=q.histogram_source_metric(),
        source=q.source,
        request_type=q.request_type,
        percentiles=q.percentiles,
    )
    return hist, dict(config.values)


def load_run_series(session: Session, experiment_id: int, q: FigureQuery) -> RunSeriesPublic:
    """Per-second series of one run (default: the experiment's first succeeded run)."""
    run_id = q.run_id
    if run_id is None:
        run_id = crud_run.first_succeeded_run_id(session=session, experiment_id=experiment_id)
        if run_id is None:
            stored_experiment(session, experiment_id)  # 404 before "no run"
            raise NotFound("No succeeded run")
    return series.run_series_public(
        session=session,
        experiment=stored_experiment(session, experiment_id),
        run_id=run_id,
        source=q.source,
        request_type=q.request_type,
    )


def load_breakdown(
    session: Session, experiment_id: int, q: FigureQuery
) -> s.ExperimentBreakdownPublic:
    """Queue, server, processing and network time per configuration."""
    exp, window = selected(session, experiment_id, q)
    return analyses.breakdown_public(
        session=session, experiment=exp, window=window, request_type=q.request_type
    )


def load_interactive_law(
    session: Session, experiment_id: int, q: FigureQuery
) -> s.ExperimentInteractivePublic:
    """Measured against expected throughput, X = N / (R + Z), per configuration."""
    exp, window = selected(session, experiment_id, q)
    return analyses.interactive_public(
        session=session,
        experiment=exp,
        window=window,
        request_type=q.request_type,
        think_time_s=q.think_time_s,
    )


def load_factorial(session: Session, experiment_id: int, q: Selection) -> s.FactorialPublic:
    """2^k r analysis of the chosen metric over the experiment's two-level factors."""
    exp, window = selected(session, experiment_id, q)
    return analyses.factorial_public(
        session=session,
        experiment=exp,
        window=window,
        metric=q.metric,
        factors=q.factors,
        confidence=q.confidence,
        multiplicative=q.multiplicative,
        t_critical=q.t_critical,
        source=q.source,
        request_type=q.request_type,
    )


def load_relative(
    session: Session, experiment_id: int, q: Selection, factor: str, base: str
) -> s.ExperimentRelativePublic:
    """Each configuration against its twin with `factor` = `base`, in percent."""
    exp, window = selected(session, experiment_id, q)
    return analyses.relative_public(
        session=session,
        experiment=exp,
        window=window,
        factor=factor,
        base=base,
        metric=q.metric,
        source=q.source,
        request_type=q.request_type,
    )
