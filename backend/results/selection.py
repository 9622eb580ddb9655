"""The results selection every stored-experiment results service takes: experiment and window.

window_start_s / window_end_s are seconds on the run's clock (second 0: the load generators
start). Both or neither: neither means each run's stored stable window. A window outside the
run is a 422 naming the offending field; a missing experiment is a 404.
"""

from sqlalchemy.orm import Session

from backend.domain.errors import NotFound
from backend.models import Experiment
from backend.results.aggregate import Window
from backend.schemas.problems import unprocessable

NOT_FOUND = "Experiment not found"


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
