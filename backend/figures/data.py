"""One data function per figure family: the same numbers the results page shows.

Each reads through the endpoint function the page calls, so a figure and the page can
never disagree; they raise the endpoints' 404s and 422s.
"""

import inspect
from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import HTTPException, status
from fastapi.params import Param
from sqlalchemy import select
from sqlalchemy.orm import Session

from backend.api.routes.analysis.experiments import (
    read_experiment_breakdown,
    read_experiment_factorial,
    read_interactive_law,
)
from backend.api.routes.analysis.percentiles import (
    read_experiment_histogram,
    read_experiment_percentiles,
)
from backend.api.routes.experiment_runs import read_results, read_run_series
from backend.api.window import results_window, stored_experiment
from backend.figures.params import FigureQuery, Selection
from backend.models import Run, RunStatus
from backend.results.aggregate import Window
from backend.schemas import analysis as s
from backend.schemas.results import ResultsPublic
from backend.schemas.series import RunSeriesPublic

T = TypeVar("T")


def call_endpoint(endpoint: Callable[..., T], **kwargs: Any) -> T:
    """Call an endpoint function as FastAPI would: parameters not given take their default.

    A parameter declared with Query(default=...) has a Query object as its Python default;
    it is replaced by the value it declares, so an endpoint gaining an optional parameter
    does not break its callers here.
    """
    for name, param in inspect.signature(endpoint).parameters.items():
        if name not in kwargs and isinstance(param.default, Param):
            kwargs[name] = param.default.default
    return endpoint(**kwargs)


def window_of(session: Session, experiment_id: int, q: Selection) -> Window | None:
    """The figure's window, checked as the routes check it (404, 422 naming the field)."""
    exp = stored_experiment(session, experiment_id)
    return results_window(exp, q.window_start_s, q.window_end_s)


def call_windowed(
    endpoint: Callable[..., T], session: Session, experiment_id: int, q: Selection, **kwargs: Any
) -> T:
    """`endpoint` on the stored experiment (loaded once) over the figure's checked window."""
    exp = stored_experiment(session, experiment_id)
    window = results_window(exp, q.window_start_s, q.window_end_s)
    return call_endpoint(endpoint, session=session, experiment=exp, window=window, **kwargs)


def load_results(session: Session, experiment_id: int, q: Selection) -> ResultsPublic:
    """Mean and std of throughput and response time per configuration (window aware)."""
    return call_windowed(
        read_results,
        session,
        experiment_id,
        q,
        source=q.source,
        request_type=q.request_type,
    )


def load_percentiles(
    session: Session, experiment_id: int, q: FigureQuery
) -> s.ExperimentPercentilesPublic:
    """Percentiles of every configuration from its merged histograms."""
    return call_windowed(
        read_experiment_percentiles,
        session,
        experiment_id,
        q,
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
            raise HTTPException(status.HTTP_404_NOT_FOUND, "No measured configuration")
        config = measured[0]
    else:
        found = [r for r in results.data if r.configuration_id == q.configuration_id]
        if not found:
            raise HTTPException(status.HTTP_404_NOT_FOUND, "Configuration not found")
        config = found[0]
    hist = call_windowed(
        read_experiment_histogram,
        session,
        experiment_id,
        q,
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
        run_id = session.scalar(
            select(Run.id)
            .where(Run.experiment_id == experiment_id, Run.status == RunStatus.SUCCEEDED)
            .order_by(Run.id)
            .limit(1)
        )
        if run_id is None:
            stored_experiment(session, experiment_id)  # 404 before "no run"
            raise HTTPException(status.HTTP_404_NOT_FOUND, "No succeeded run")
    return call_endpoint(
        read_run_series,
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
    return call_windowed(
        read_experiment_breakdown,
        session,
        experiment_id,
        q,
        request_type=q.request_type,
    )


def load_interactive_law(
    session: Session, experiment_id: int, q: FigureQuery
) -> s.ExperimentInteractivePublic:
    """Measured against expected throughput, X = N / (R + Z), per configuration."""
    return call_windowed(
        read_interactive_law,
        session,
        experiment_id,
        q,
        request_type=q.request_type,
        think_time_s=q.think_time_s,
    )


def load_factorial(session: Session, experiment_id: int, q: Selection) -> s.FactorialPublic:
    """2^k r analysis of the chosen metric over the experiment's two-level factors."""
    return call_windowed(
        read_experiment_factorial,
        session,
        experiment_id,
        q,
        metric=q.metric,
        factors=q.factors,
        confidence=q.confidence,
        multiplicative=q.multiplicative,
        t_critical=q.t_critical,
        source=q.source,
        request_type=q.request_type,
    )
