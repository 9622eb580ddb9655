"""One run's per-second series of a source kind, combined on the run's clock (the run series
view), and as served."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from backend.crud import results as crud
from backend.domain.errors import NotFound
from backend.domain.metrics import METRICS, SourceKind
from backend.domain.window import window_of
from backend.models import Run, RunSeries
from backend.results.aggregate import CombinedSecond, clock_start, combine_per_second
from backend.results.read import series_values
from backend.results.selection import ResultsSelection
from backend.schemas.series import (
    SERIES_UNITS,
    CombinedSeriesPublic,
    InstanceSeriesPublic,
    RunSeriesPublic,
)


@dataclass(frozen=True)
class RunSeriesView:
    """One run's per-second series of a source kind, combined on the run's clock.

    start_unix: second 0 (the load generators' start; a run without clients: its earliest
    series; None when nothing is stored). The window is the stored stable one, else the
    experiment's design.
    """

    start_unix: float | None
    window_start_s: int
    window_end_s: int
    window_stored: bool
    combined: CombinedSecond
    instances: list[RunSeries]


def run_series(*, session: Session, selection: ResultsSelection, run_id: int) -> RunSeriesView:
    """The run series view: instances and their per-second total (aggregate's rules); the
    selection's window is not used (the view shows the whole run and its stable window)."""
    rows = crud.read_run_series(session=session, run_id=run_id, request_type=selection.request_type)
    t0 = crud.read_clock_start(session=session, run_id=run_id)
    mine = [r for r in rows if r.source.startswith(f"{selection.source}:")]
    if t0 is None:
        t0 = clock_start(series_values(r) for r in rows)
    stored = crud.read_stored_window(session=session, run_id=run_id)
    design = window_of(selection.experiment)
    lo, hi = stored or (design.start_s, design.end_s)
    combined = combine_per_second([series_values(r) for r in mine], t0 if t0 is not None else 0.0)
    return RunSeriesView(t0, lo, hi, stored is not None, combined, mine)


def per_second_metrics(row: RunSeries, source: SourceKind) -> dict[str, list[float | None]]:
    """The stored per-second series of every metric the metric table says `source` reports
    (by metric name; a column the run did not store is left out)."""
    out: dict[str, list[float | None]] = {}
    for m in METRICS.values():
        values = getattr(row, m.column, None) if m.per_second and source in m.sources else None
        if values is not None:
            out[m.name] = list(values)
    return out


def run_series_public(
    *, session: Session, selection: ResultsSelection, run_id: int
) -> RunSeriesPublic:
    """Per-second throughput and response time of one run, with its stable window."""
    run = session.get(Run, run_id)
    if run is None or run.experiment_id != selection.experiment.id:
        raise NotFound("Run not found")
    view = run_series(session=session, selection=selection, run_id=run_id)
    source = selection.source
    return RunSeriesPublic(
        run_id=run.id,
        experiment_id=selection.experiment.id,
        configuration_id=run.configuration_id,
        repetition=run.repetition,
        source=source,
        request_type=selection.request_type,
        start_unix=view.start_unix,
        window_start_s=view.window_start_s,
        window_end_s=view.window_end_s,
        window_stored=view.window_stored,
        units=SERIES_UNITS,
        combined=CombinedSeriesPublic(
            time_s=view.combined.time_s,
            throughput=view.combined.throughput,
            response_time_us=view.combined.response_time_us,
        ),
        instances=[
            InstanceSeriesPublic(
                source=r.source,
                offset_s=r.start_unix - (view.start_unix or r.start_unix),
                throughput=list(r.throughput),
                response_time_us=list(r.response_time_us),
                queue_time_us=r.queue_time_us,
                server_time_us=r.server_time_us,
                queue_length=r.queue_length,
                metrics=per_second_metrics(r, source),
            )
            for r in view.instances
        ],
    )
