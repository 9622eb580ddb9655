"""The results selection every stored-experiment results service takes: which experiment,
which window, which source and which request type.

window_start_s / window_end_s are seconds on the run's clock (second 0: the load generators
start). Both or neither: neither means each run's stored stable window. A window outside the
run is a 422 naming the offending field; a missing experiment is a 404.

A request builds its ResultsSelection once (the API's dependency in backend/api/window.py, a
figure's or table's `select_results` over its query) and passes it to the services, which read
the four fields from it rather than taking them one by one.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from sqlalchemy.orm import Session

from backend.domain.errors import NotFound
from backend.domain.metrics import SourceKind
from backend.models import Experiment, RequestType
from backend.results.aggregate import Window
from backend.schemas.problems import unprocessable

NOT_FOUND = "Experiment not found"


@dataclass(frozen=True)
class ResultsSelection:
    """The stored experiment, the window (None: each run's stored stable window), the source
    whose measurements are read and the request type."""

    experiment: Experiment
    window: Window | None = None
    source: SourceKind = "client"
    request_type: RequestType = RequestType.ALL

    def on(self, source: SourceKind) -> ResultsSelection:
        """The same selection read from another source (an analysis using both sides)."""
        return replace(self, source=source)

    def stored_window(self) -> ResultsSelection:
        """The same selection over each run's stored stable window."""
        return replace(self, window=None)


def select_results(
    session: Session,
    experiment_id: int,
    *,
    window_start_s: int | None = None,
    window_end_s: int | None = None,
    source: SourceKind = "client",
    request_type: RequestType = RequestType.ALL,
) -> ResultsSelection:
    """The selection of a request: the experiment loaded (404) and the window checked (422)."""
    experiment = stored_experiment(session, experiment_id)
    window = results_window(experiment, window_start_s, window_end_s)
    return ResultsSelection(experiment, window, source, request_type)


def stored_experiment(session: Session, experiment_id: int) -> Experiment:
    """The experiment of the path, or 404."""
    exp = session.get(Experiment, experiment_id)
    if exp is None:
        raise NotFound(NOT_FOUND)
    return exp


def results_window(
    experiment: Experiment, window_start_s: int | None, window_end_s: int | None
) -> Window | None:
    """The requested window, checked against the run length; None for the stored window."""
    if window_start_s is None and window_end_s is None:
        return None
    if window_start_s is None or window_end_s is None:
        missing = "window_start_s" if window_start_s is None else "window_end_s"
        given = window_end_s if window_start_s is None else window_start_s
        raise unprocessable(
            (missing,),
            "give both window_start_s and window_end_s, or neither",
            given,
            location="query",
        )
    run = experiment.run_time_s
    if window_start_s >= run:
        raise unprocessable(
            ("window_start_s",),
            f"must lie inside the run (0 to {run - 1} s)",
            window_start_s,
            location="query",
        )
    if window_end_s > run:
        raise unprocessable(
            ("window_end_s",),
            f"must not exceed the run time ({run} s)",
            window_end_s,
            location="query",
        )
    if window_end_s <= window_start_s:
        raise unprocessable(
            ("window_end_s",),
            "must be greater than window_start_s",
            window_end_s,
            location="query",
        )
    return Window(window_start_s, window_end_s)
