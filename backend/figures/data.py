"""One data function per figure family: the same numbers the results page shows.

Each reads through the service the page's route calls (backend.results: the results table,
histograms, series and analyses), so a figure and the page can never disagree; they raise
the routes' 404s and 422s.
"""

from typing import Any

from sqlalchemy.orm import Session

from backend.crud import run as crud_run
from backend.domain.errors import NotFound
from backend.figures.params import FigureQuery, ResultsQuery
from backend.results import analyses, histograms, series, table
from backend.results.selection import ResultsSelection, select_results
from backend.schemas import analysis as s
from backend.schemas.results import ResultsPublic
from backend.schemas.series import RunSeriesPublic

# A run's series view shows the whole run: the page's re-cut window does not narrow it.
WHOLE_RUN = {"window_start_s": None, "window_end_s": None}


def selected(session: Session, experiment_id: int, q: ResultsQuery) -> ResultsSelection:
    """The figure's results selection, built once from its query: the stored experiment (404)
    and its checked window (422), source and request type."""
    return select_results(
        session,
        experiment_id,
        window_start_s=q.window_start_s,
        window_end_s=q.window_end_s,
        source=q.source,
        request_type=q.request_type,
    )


def load_results(session: Session, experiment_id: int, q: ResultsQuery) -> ResultsPublic:
    """Mean and std of throughput and response time per configuration (window aware)."""
    return table.results_public(session=session, selection=selected(session, experiment_id, q))


def load_percentiles(
    session: Session, experiment_id: int, q: FigureQuery
) -> s.ExperimentPercentilesPublic:
    """Percentiles of every configuration from its merged histograms."""
    return histograms.percentiles_public(
        session=session,
        selection=selected(session, experiment_id, q),
        metric=q.histogram_source_metric(),
        percentiles=q.percentiles,
    )


def load_histogram(
    session: Session, experiment_id: int, q: FigureQuery
) -> tuple[s.HistogramPublic, dict[str, Any]]:
    """One configuration's merged histogram (default: the first measured) and its levels."""
    selection = selected(session, experiment_id, q)
    results = table.results_public(session=session, selection=selection.stored_window())
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
    hist = histograms.histogram_public(
        session=session,
        selection=selection,
        configuration_id=config.configuration_id,
        metric=q.histogram_source_metric(),
        percentiles=q.percentiles,
    )
    return hist, dict(config.values)


def load_run_series(session: Session, experiment_id: int, q: FigureQuery) -> RunSeriesPublic:
    """Per-second series of one run (default: the experiment's first succeeded run)."""
    selection = selected(session, experiment_id, q.model_copy(update=WHOLE_RUN))
    run_id = q.run_id
    if run_id is None:
        run_id = crud_run.first_succeeded_run_id(session=session, experiment_id=experiment_id)
        if run_id is None:
            raise NotFound("No succeeded run")
    return series.run_series_public(session=session, selection=selection, run_id=run_id)


def load_breakdown(
    session: Session, experiment_id: int, q: FigureQuery
) -> s.ExperimentBreakdownPublic:
    """Queue, server, processing and network time per configuration."""
    return analyses.breakdown_public(session=session, selection=selected(session, experiment_id, q))


def load_interactive_law(
    session: Session, experiment_id: int, q: FigureQuery
) -> s.ExperimentInteractivePublic:
    """Measured against expected throughput, X = N / (R + Z), per configuration."""
    return analyses.interactive_public(
        session=session,
        selection=selected(session, experiment_id, q),
        think_time_s=q.think_time_s,
    )


def load_factorial(session: Session, experiment_id: int, q: ResultsQuery) -> s.FactorialPublic:
    """2^k r analysis of the chosen metric over the experiment's two-level factors."""
    return analyses.factorial_public(
        session=session,
        selection=selected(session, experiment_id, q),
        metric=q.metric,
        factors=q.factors,
        confidence=q.confidence,
        multiplicative=q.multiplicative,
        t_critical=q.t_critical,
    )


def load_relative(
    session: Session, experiment_id: int, q: ResultsQuery, factor: str, base: str
) -> s.ExperimentRelativePublic:
    """Each configuration against its twin with `factor` = `base`, in percent."""
    return analyses.relative_public(
        session=session,
        selection=selected(session, experiment_id, q),
        factor=factor,
        base=base,
        metric=q.metric,
    )
