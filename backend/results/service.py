"""The results service: every stored-experiment number is read through these functions.

`/experiments/{id}/results` and every `/analysis/experiments/{id}/*` route call it with the
same selection (source kind, request type, metric, window), so the same quantity is the same
number in every view. The rules are `backend.results.aggregate`'s; this module only picks the
stored rows (summaries for the default window, the SQL fast path or the raw series for a
re-cut window) and hands them to it.

window=None means each run's stored stable window (warm-up and cool-down cut at ingest);
a `Window` re-cuts every run to those seconds of its clock.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
from sqlalchemy.orm import Session

from backend.analysis import experiment_tables as tables
from backend.analysis.errors import AnalysisError
from backend.analysis.experiment_tables import (
    BREAKDOWN_MW,
    LITTLE_METRICS,
    Config,
    StatRow,
    summary_rows,
)
from backend.analysis.factorial import FactorialResult
from backend.analysis.percentiles import (
    Histogram,
    HistogramPercentile,
    make_histogram,
    merge,
    percentiles_from_histogram,
)
from backend.analysis.saturation import SaturationResult, saturation
from backend.crud import network as network_crud
from backend.crud import results as crud
from backend.domain.fraction import FractionError, resolve
from backend.domain.grid import effective_parameters
from backend.domain.window import window_of
from backend.models import Experiment, HistogramMetric, RequestType, RunSeries
from backend.results.aggregate import (
    CombinedSecond,
    RunValues,
    SourceSeries,
    SourceWindow,
    Window,
    by_configuration,
    clock_start,
    combine_per_second,
    combine_run,
    offset_s,
    source_window,
    summarize,
)
from backend.results.log_buckets import LogLinearLayout, log_linear_histogram
from backend.results.metrics import (
    FAST,
    METRICS,
    PER_SECOND,
    THROUGHPUT,
    Metric,
    MetricName,
    SourceKind,
)

HistogramSpan = Literal["window", "whole_run"]
WHOLE_RUN_LABEL = "whole run, incl. warm-up"


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
) -> list[RunValues]:
    """Per succeeded run, `metrics` over the window with the run's instances combined.

    Runs without a matching source in the window are absent. A re-cut window needs
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
        session, experiment_id, source, request_type, window, [METRICS[n] for n in names]
    )
    return [
        RunValues(run_id, config_id, rep, combine_run(ws, names))
        for (run_id, config_id, rep), ws in sorted(groups.items())
    ]


def _windows_from_series(
    session: Session,
    experiment_id: int,
    source: SourceKind,
    request_type: RequestType,
    window: Window,
    metrics: list[Metric],
) -> dict[tuple[int, int, int], list[SourceWindow]]:
    """Rule 2 over the raw arrays (metrics without prefix sums)."""
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
            if s.source.startswith(f"{source}:")
        ]
        kept = [w for w in ws if w is not None]
        if kept:
            out[key] = kept
    return out


def metric_table(
    *,
    session: Session,
    experiment: Experiment,
    source: SourceKind,
    request_type: RequestType,
    metric: MetricName,
    window: Window | None = None,
    confidence: float | None = None,
) -> list[StatRow]:
    """Per configuration: repetitions, mean, std and (with `confidence`) the t interval."""
    configs = configurations(session=session, experiment=experiment)
    runs = run_values(
        session=session,
        experiment_id=experiment.id,
        source=source,
        request_type=request_type,
        metrics=[metric],
        window=window,
    )
    return summary_rows(configs, runs, metric, confidence)


@dataclass(frozen=True)
class ConfigurationResult:
    """Throughput and response time of one configuration, over repetitions (`/results`)."""

    configuration_id: int
    index: int
    values: dict[str, Any]
    repetitions: int
    throughput_mean: float | None  # ops/s
    throughput_std: float | None
    response_time_us_mean: float | None
    response_time_us_std: float | None
    keys_per_s_mean: float | None


def results_table(
    *,
    session: Session,
    experiment: Experiment,
    source: SourceKind,
    request_type: RequestType,
    window: Window | None = None,
) -> list[ConfigurationResult]:
    """The results table: throughput, response time and keys/s per configuration."""
    runs = run_values(
        session=session,
        experiment_id=experiment.id,
        source=source,
        request_type=request_type,
        metrics=["throughput_per_s", "response_time_us", "keys_per_s"],
        window=window,
    )
    data = {n: by_configuration(runs, n) for n in ("throughput_per_s", "response_time_us")}
    keys = by_configuration(runs, "keys_per_s")
    out = []
    for c in crud.read_configurations(session=session, experiment_id=experiment.id):
        x, r, k = (
            data["throughput_per_s"].get(c.id),
            data["response_time_us"].get(c.id),
            keys.get(c.id),
        )
        sx, sr, sk = (summarize(v) if v else None for v in (x, r, k))
        out.append(
            ConfigurationResult(
                c.id,
                c.index,
                c.values,
                sx.n if sx else 0,
                sx.mean if sx else None,
                sx.std if sx else None,
                sr.mean if sr else None,
                sr.std if sr else None,
                sk.mean if sk else None,
            )
        )
    return out


# ------------------------------------------------------------------------ histograms


@dataclass(frozen=True)
class MergedHistogram:
    """One configuration's histograms merged over its repetitions and instances.

    span says what it covers: "window" (exactly the requested window) or "whole_run" (the
    tool only gives a whole-run histogram: warm-up and cool-down included).
    """

    configuration_id: int
    histogram: Histogram
    span: HistogramSpan


def configuration_histograms(
    *,
    session: Session,
    experiment_id: int,
    source: SourceKind,
    request_type: RequestType,
    metric: HistogramMetric,
    window: Window | None = None,
    configuration_ids: Sequence[int] | None = None,
) -> dict[int, MergedHistogram]:
    """Per configuration id, its merged latency histogram (configurations without: absent).

    The middleware's are exactly the window's (per-window histograms: the stored stable window,
    or `window`); runs stored before those existed, and load generators, give whole-run ones.
    """
    out = _window_histograms(
        session, experiment_id, source, request_type, metric, window, configuration_ids
    )
    by_config: dict[int, list[Histogram]] = defaultdict(list)
    for ref, h in crud.read_histograms(
        session=session,
        experiment_id=experiment_id,
        source=source,
        request_type=request_type,
        metric=metric,
        configuration_ids=configuration_ids,
    ):
        if ref.configuration_id not in out:
            by_config[ref.configuration_id].append(
                make_histogram(h.upper_bounds_us, h.counts, float(h.overflow))
            )
    out |= {cid: MergedHistogram(cid, merge(hs), "whole_run") for cid, hs in by_config.items()}
    return out


def _window_histograms(
    session: Session,
    experiment_id: int,
    source: SourceKind,
    request_type: RequestType,
    metric: HistogramMetric,
    window: Window | None,
    configuration_ids: Sequence[int] | None,
) -> dict[int, MergedHistogram]:
    """Per configuration, the sum of its sources' per-window histograms over the window."""
    if source != "middleware":
        return {}
    sums: dict[int, npt.NDArray[np.int64]] = {}
    layout: LogLinearLayout | None = None
    for ref, sl in crud.read_window_histogram_slices(
        session=session,
        experiment_id=experiment_id,
        source=source,
        request_type=request_type,
        metric=metric,
        window=None if window is None else (window.start_s, window.end_s),
        configuration_ids=configuration_ids,
    ):
        this = LogLinearLayout(sl.sub_buckets, sl.bucket_count)
        if layout is not None and this != layout:
            raise AnalysisError("metric", "stored histograms of different layouts")
        layout = this
        counts = sl.counts()
        total = sums.setdefault(ref.configuration_id, np.zeros(this.bucket_count + 1, np.int64))
        total[sl.first_bucket : sl.first_bucket + counts.size] += counts
    if layout is None:
        return {}
    return {
        cid: MergedHistogram(cid, log_linear_histogram(layout, c), "window")
        for cid, c in sums.items()
    }


def histogram_percentiles(
    merged: MergedHistogram | None, qs: Sequence[float]
) -> list[HistogramPercentile]:
    """Percentiles of a merged histogram; none for a missing or empty one (a gap, not an error)."""
    if merged is None or merged.histogram.total <= 0:
        return []
    return percentiles_from_histogram(merged.histogram, tuple(qs))


# ------------------------------------------------------------- analyses over the grid


def _runs(
    session: Session,
    experiment: Experiment,
    source: SourceKind,
    request_type: RequestType,
    metrics: Sequence[MetricName],
    window: Window | None,
) -> list[RunValues]:
    return run_values(
        session=session,
        experiment_id=experiment.id,
        source=source,
        request_type=request_type,
        metrics=metrics,
        window=window,
    )


def breakdown_table(
    *, session: Session, experiment: Experiment, request_type: RequestType, window: Window | None
) -> list[dict[str, Any]]:
    """Client response time split into middleware queue, server, processing and network."""
    configs = configurations(session=session, experiment=experiment)
    client = _runs(session, experiment, "client", request_type, ["response_time_us"], window)
    mw = _runs(session, experiment, "middleware", request_type, list(BREAKDOWN_MW), window)
    rtts = network_crud.round_trips_us(session=session, experiment_id=experiment.id)
    return tables.breakdown_table(configs, client, mw, rtts)


def little_table(
    *, session: Session, experiment: Experiment, request_type: RequestType, window: Window | None
) -> list[dict[str, Any]]:
    """Little's law in the middleware per configuration."""
    configs = configurations(session=session, experiment=experiment)
    mw = _runs(session, experiment, "middleware", request_type, list(LITTLE_METRICS), window)
    return tables.little_table(configs, mw)


def interactive_table(
    *,
    session: Session,
    experiment: Experiment,
    request_type: RequestType,
    window: Window | None,
    think_time_s: float | None,
) -> tuple[float, bool, list[dict[str, Any]]]:
    """Interactive law per configuration: (think time, whether estimated, rows)."""
    configs = configurations(session=session, experiment=experiment)
    runs = _runs(
        session,
        experiment,
        "client",
        request_type,
        ["throughput_per_s", "response_time_us"],
        window,
    )
    return tables.interactive_rows(configs, runs, think_time_s)


def saturation_table(
    *,
    session: Session,
    experiment: Experiment,
    source: SourceKind,
    request_type: RequestType,
    window: Window | None,
    metric: MetricName,
    series_factor: str,
    load_factor: str,
    fraction: float,
) -> SaturationResult:
    """Knee per series and the cheapest configuration near the maximum."""
    configs = configurations(session=session, experiment=experiment)
    runs = _runs(session, experiment, source, request_type, [metric], window)
    series = tables.saturation_series(configs, runs, series_factor, load_factor, metric)
    return saturation(series, fraction)


def relative_table(
    *,
    session: Session,
    experiment: Experiment,
    source: SourceKind,
    request_type: RequestType,
    window: Window | None,
    metric: MetricName,
    factor: str,
    base: str,
) -> list[dict[str, Any]]:
    """Each configuration against its twin with `factor` = `base` (percent)."""
    configs = configurations(session=session, experiment=experiment)
    runs = _runs(session, experiment, source, request_type, [metric], window)
    return tables.relative_rows(configs, runs, metric, factor, base)


def factorial_table(
    *,
    session: Session,
    experiment: Experiment,
    source: SourceKind,
    request_type: RequestType,
    window: Window | None,
    metric: MetricName,
    factors: tuple[str, ...] | None,
    confidence: float | None,
    multiplicative: bool,
    t_critical: float | None = None,
) -> tuple[FactorialResult, dict[str, tuple[Any, Any]]]:
    """2^k r design over the grid, repetitions as replications (t_critical: a given t value);
    the 2^(k-p) r analysis of a fractional experiment."""
    configs = configurations(session=session, experiment=experiment)
    runs = _runs(session, experiment, source, request_type, [metric], window)
    fraction = None
    if experiment.fraction:
        try:
            frac = resolve(
                len(experiment.factors),
                experiment.fraction.get("generators"),
                experiment.fraction.get("resolution"),
            )
        except FractionError as err:
            raise AnalysisError("experiment", f"its fraction: {err}") from err
        fraction = (experiment.factors, frac)
    return tables.factorial_from_experiment(
        configs, runs, metric, factors, confidence, multiplicative, t_critical, fraction
    )


def network_model_table(
    *,
    session: Session,
    experiment: Experiment,
    request_type: RequestType,
    window: Window | None,
    service_times: dict[str, Any],
) -> list[dict[str, Any]]:
    """MVA against the measurements, per group of configurations differing only in clients."""
    configs = configurations(session=session, experiment=experiment)
    runs = _runs(
        session,
        experiment,
        "client",
        request_type,
        ["throughput_per_s", "response_time_us"],
        window,
    )
    return tables.network_model_table(configs, runs, service_times)


def span_label(span: HistogramSpan) -> str:
    """How a view labels what a distribution covers."""
    return WHOLE_RUN_LABEL if span == "whole_run" else "window"


def histograms_span(merged: Iterable[MergedHistogram]) -> HistogramSpan:
    """The span of several merged histograms: whole run as soon as one is."""
    return "whole_run" if any(m.span == "whole_run" for m in merged) else "window"


# ------------------------------------------------------------------- one run's series


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


def run_series(
    *,
    session: Session,
    experiment: Experiment,
    run_id: int,
    source: SourceKind,
    request_type: RequestType,
) -> RunSeriesView:
    """The run series view: instances and their per-second total (aggregate's rules)."""
    rows = crud.read_run_series(session=session, run_id=run_id, request_type=request_type)
    t0 = crud.read_clock_start(session=session, run_id=run_id)
    mine = [r for r in rows if r.source.startswith(f"{source}:")]
    if t0 is None:
        t0 = clock_start(series_values(r) for r in rows)
    stored = crud.read_stored_window(session=session, run_id=run_id)
    design = window_of(experiment)
    lo, hi = stored or (design.start_s, design.end_s)
    combined = combine_per_second([series_values(r) for r in mine], t0 if t0 is not None else 0.0)
    return RunSeriesView(t0, lo, hi, stored is not None, combined, mine)
