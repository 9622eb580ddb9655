"""The results selection as route dependencies: the path's experiment and the query's window
(checked by backend.results.selection, which figures and tables call directly)."""

from typing import Annotated

from fastapi import Depends, Query

from backend.api.deps import SessionDep
from backend.models import Experiment
from backend.results import selection
from backend.results.aggregate import Window


def stored_experiment(session: SessionDep, experiment_id: int) -> Experiment:
    """The experiment of the path, or 404."""
    return selection.stored_experiment(session, experiment_id)


ExperimentDep = Annotated[Experiment, Depends(stored_experiment)]


def results_window(
    experiment: ExperimentDep,
    window_start_s: int | None = Query(
        default=None,
        ge=0,
        description="re-cut window start, s after the load generators started (with window_end_s)",
    ),
    window_end_s: int | None = Query(
        default=None,
        ge=1,
        description="re-cut window end (exclusive), s; default: each run's stable window",
    ),
) -> Window | None:
    """The requested window, checked against the run length; None for the stored window."""
    return selection.results_window(experiment, window_start_s, window_end_s)


WindowDep = Annotated[Window | None, Depends(results_window)]
