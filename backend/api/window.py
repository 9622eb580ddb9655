"""The results selection as route dependencies: the path's experiment, the query's window
(checked by backend.results.selection, which figures and tables call directly), and the
ResultsSelection the services take, built once per request."""

from typing import Annotated

from fastapi import Depends, Query

from backend.api.deps import SessionDep
from backend.domain.metrics import SourceKind
from backend.models import Experiment, RequestType
from backend.results import selection as results_selection
from backend.results.aggregate import Window
from backend.results.selection import ResultsSelection


def stored_experiment(session: SessionDep, experiment_id: int) -> Experiment:
    """The experiment of the path, or 404."""
    return results_selection.stored_experiment(session, experiment_id)


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
    return results_selection.results_window(experiment, window_start_s, window_end_s)


WindowDep = Annotated[Window | None, Depends(results_window)]


def selection(
    experiment: ExperimentDep,
    window: WindowDep,
    source: SourceKind = "client",
    request_type: RequestType = RequestType.ALL,
) -> ResultsSelection:
    """The request's results selection, built once: experiment, window, source, request type."""
    return ResultsSelection(experiment, window, source, request_type)


SelectionDep = Annotated[ResultsSelection, Depends(selection)]


def request_type_selection(
    experiment: ExperimentDep,
    window: WindowDep,
    request_type: RequestType = RequestType.ALL,
) -> ResultsSelection:
    """The selection of an analysis that reads its sources itself (breakdown, models): no
    `source` parameter."""
    return ResultsSelection(experiment, window, request_type=request_type)


RequestTypeSelectionDep = Annotated[ResultsSelection, Depends(request_type_selection)]


def window_selection(experiment: ExperimentDep, window: WindowDep) -> ResultsSelection:
    """The selection of a view over every source and request type (machines)."""
    return ResultsSelection(experiment, window)


WindowSelectionDep = Annotated[ResultsSelection, Depends(window_selection)]


def run_selection(
    experiment: ExperimentDep,
    source: SourceKind = "client",
    request_type: RequestType = RequestType.ALL,
) -> ResultsSelection:
    """The selection of one run's series view: no window (it shows the whole run)."""
    return ResultsSelection(experiment, source=source, request_type=request_type)


RunSelectionDep = Annotated[ResultsSelection, Depends(run_selection)]
