"""The results read path: every stored-experiment number is read through these functions.

They pick the stored rows (summaries for the default window, the SQL fast path or the raw
series for a re-cut window) and hand them to `backend.results.aggregate`, whose rules combine
them, so the same quantity is the same number in every view.

window=None means each run's stored stable window (warm-up and cool-down cut at ingest);
a `Window` re-cuts every run to those seconds of its clock.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from sqlalchemy.orm import Session

from backend.analysis.errors import AnalysisError
from backend.crud import results as crud
from backend.domain.grid import effective_parameters
from backend.domain.metrics import (
    FAST,
    METRICS,
    PER_SECOND,
    THROUGHPUT,
    Metric,
    MetricName,
    SourceKind,
    source_prefix,
)
from backend.models import Experiment, RequestType, RunSeries
from backend.results.aggregate import (
    RunValues,
    SourceSeries,
    SourceWindow,
    Window,
    clock_start,
    combine_run,
    offset_s,
    source_window,
)
from backend.results.experiment_tables import Config


def configurations(*, session: Session, experiment: Experiment) -> list[Config]:
    """The experiment's grid points with their effective parameters, in index order."""
    return [
        Config(c.id, c.index, c.values, effective_parameters(c.values, experiment.fixed))
        for c in crud.read_configurations(session=session, experiment_id=experiment.id)
    ]


def series_values(row: RunSeries) -> SourceSeries:
    """A stored series as the aggregation's input (every per-second metric column)."""
    return SourceSeries(
        row.source, row.start_unix, {m.column: getattr(row, m.column) for m in PER_SECOND}
    )


def run_values(
    *,
    session: Session,
    experiment_id: int,
    source: SourceKind,
    request_type: RequestType,
    metrics: Sequence[MetricName],
    window: Window | None = None,
    role: str | None = None,
    source_name: str | None = None,
) -> list[RunValues]:
    """Per succeeded run, `metrics` over the window with the run's instances combined.

    `role` narrows a process side to that role's processes ("process:<role>:<N>");
    `source_name` to one source ("net:<host>:<interface>"). Runs
    without a matching source in the window are absent. A re-cut window needs
    per-second metrics (percentiles of a window come from `window_histograms`): asking for
    another is an AnalysisError on `metric`.
    """
    names = list(dict.fromkeys(metrics))
    if window is None or all(METRICS[n] in FAST for n in names):
        # Rules 1-3 in PostgreSQL (generated from the metric table): one row per run.
        rows = crud.read_run_values(
            session=session,
            experiment_id=experiment_id,
            source=source,
            request_type=request_type,
            names=names,
            window=None if window is None else (window.start_s, window.end_s),
            role=role,
            source_name=source_name,
        )
        return [RunValues(ref.run_id, ref.configuration_id, ref.repetition, v) for ref, v in rows]
    slow = [n for n in names if not METRICS[n].per_second]
    if slow:
        raise AnalysisError(
            "metric",
            f"{slow[0]} is stored for the stable window only; read the window's "
            "percentiles from the histogram or percentiles view",
        )
    groups = _windows_from_series(
        session,
        experiment_id,
        source_name or source_prefix(source, role),
        request_type,
        window,
        [METRICS[n] for n in names],
    )
    return [
        RunValues(run_id, config_id, rep, combine_run(ws, names))
        for (run_id, config_id, rep), ws in sorted(groups.items())
    ]


def _windows_from_series(
    session: Session,
    experiment_id: int,
    prefix: str,
    request_type: RequestType,
    window: Window,
    metrics: list[Metric],
) -> dict[tuple[int, int, int], list[SourceWindow]]:
    """Rule 2 over the raw arrays (metrics without prefix sums) of the sources whose name
    starts with `prefix` (source_prefix)."""
    columns = list(dict.fromkeys([THROUGHPUT.column, *(m.column for m in metrics)]))
    by_run: dict[tuple[int, int, int], list[SourceSeries]] = defaultdict(list)
    for row in crud.read_series(
        session=session, experiment_id=experiment_id, request_type=request_type, columns=columns
    ):
        key = (row.ref.run_id, row.ref.configuration_id, row.ref.repetition)
        by_run[key].append(SourceSeries(row.source, row.start_unix, row.values))
    out: dict[tuple[int, int, int], list[SourceWindow]] = {}
    for key, series in by_run.items():
        t0 = clock_start(series)
        assert t0 is not None
        ws = [
            source_window(s, offset_s(s.start_unix, t0), window, metrics)
            for s in series
            if s.source.startswith(prefix)
        ]
        kept = [w for w in ws if w is not None]
        if kept:
            out[key] = kept
    return out
