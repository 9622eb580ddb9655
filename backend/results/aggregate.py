"""The one aggregation of measurements: per-second series -> window -> run -> configuration.

Pure (arrays in, numbers out; no database, no HTTP). Every number mcscope shows that starts
from per-second measurements follows these rules, whoever computes it (the worker's stored
summaries, the results service, the SQL fast path, the run series view, live progress):

1. Clock. Second 0 of a run is the start of its load generators (the earliest "client:N"
   series; a run without one uses its earliest series). Every other series, middlewares
   included, is shifted by its start offset, rounded to whole seconds (`offset_s`), so a
   window [start_s, end_s) means the same wall-clock seconds for every source.
2. Window of one instance. The instance's seconds inside the window are its covered seconds
   (a shorter or later-starting instance covers fewer; one covering none is left out).
   Rates and gauges (`sum` metrics in the table) are the mean over the covered seconds; a
   second without completions counts as 0 there, a stored NaN too. Times (`weighted`
   metrics) are the completion-weighted mean over the covered seconds whose time is defined:
   a second without completions (NaN time) is excluded, so it can never poison a window.
3. Instances of one run combine per the metric table: `sum` adds the instances' values (None
   if a covering instance lacks the metric: a partial sum would understate the total),
   `weighted` weights each instance's value by its completions with a defined time, `none`
   keeps a value only when exactly one instance reports it.
4. Repetitions of a configuration: mean, sample standard deviation (ddof = 1, None for one
   repetition) and, on request, a two-sided Student t confidence interval of the mean.

The stored stable-window summaries are rule 2 applied by the worker at ingest (with the
weight stored beside them), so the default window and a re-cut to the same window agree.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from backend.analysis.errors import AnalysisError, require, require_finite
from backend.domain.metrics import METRICS, PER_SECOND, THROUGHPUT, Metric, MetricName

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Window:
    """Seconds [start_s, end_s) on the run's clock (rule 1)."""

    start_s: int
    end_s: int

    def __post_init__(self) -> None:
        require(self.start_s >= 0, "window_start_s", "must be >= 0")
        require(self.end_s > self.start_s, "window_end_s", "must be greater than window_start_s")


@dataclass(frozen=True)
class SourceSeries:
    """Per-second values of one instance; element i covers [start_unix + i, start_unix + i + 1).

    values maps a metric's column to its array (None: the source does not report it).
    """

    source: str
    start_unix: float
    values: Mapping[str, Sequence[float] | FloatArray | None]


@dataclass(frozen=True)
class SourceWindow:
    """One instance over a window (rule 2): each metric's value and its weight.

    weights hold, for `weighted` metrics, the completions with a defined time; for the others
    the covered seconds.
    """

    source: str
    seconds: int
    values: dict[str, float | None]
    weights: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class RunValues:
    """All instances of one run combined (rule 3); None where no instance gave the metric."""

    run_id: int
    configuration_id: int
    repetition: int
    values: dict[str, float | None]


@dataclass(frozen=True)
class RepetitionSummary:
    """Mean and spread of one metric over repetitions (std is None for a single value)."""

    n: int
    mean: float
    std: float | None


@dataclass(frozen=True)
class ConfidenceInterval:
    """Two-sided t interval for the mean at `level` (e.g. 0.95)."""

    level: float
    mean: float
    low: float
    high: float
    half_width: float
    dof: int


# ----------------------------------------------------------------------------- rule 1


def clock_start(series: Iterable[SourceSeries]) -> float | None:
    """Second 0 of a run: its earliest load generator start, else its earliest series."""
    items = list(series)
    clients = [s.start_unix for s in items if s.source.startswith("client:")]
    starts = clients or [s.start_unix for s in items]
    return min(starts) if starts else None


def offset_s(start_unix: float, t0_unix: float) -> int:
    """Whole seconds from the run's second 0 to a series' element 0 (halves round up).

    The SQL fast path computes floor(d + 0.5) too: both sides must place a series alike.
    """
    return math.floor(start_unix - t0_unix + 0.5)


# ----------------------------------------------------------------------------- rule 2


def _array(values: Sequence[float] | FloatArray) -> FloatArray:
    return np.asarray(values, dtype=np.float64)


def source_window(
    series: SourceSeries,
    offset: int,
    window: Window,
    metrics: Sequence[Metric] = PER_SECOND,
) -> SourceWindow | None:
    """Rule 2 for one instance placed `offset` seconds after second 0; None if not covered."""
    x_all = series.values.get(THROUGHPUT.column)
    require(x_all is not None, "throughput", f"{series.source} has no throughput series")
    assert x_all is not None
    length = len(x_all)
    a = min(max(window.start_s - offset, 0), length)
    b = min(max(window.end_s - offset, 0), length)
    if b <= a:
        return None
    x = np.nan_to_num(_array(x_all)[a:b], nan=0.0)
    values: dict[str, float | None] = {}
    weights: dict[str, float] = {}
    for m in metrics:
        raw = series.values.get(m.column)
        if raw is None:
            values[m.name] = None
            continue
        v = _array(raw)[a:b]
        if m.instances == "weighted":
            defined = np.isfinite(v)
            w = float(x[defined].sum())
            weights[m.name] = w
            values[m.name] = float((x[defined] * v[defined]).sum()) / w if w > 0 else None
        else:
            weights[m.name] = float(b - a)
            values[m.name] = float(np.nan_to_num(v, nan=0.0).sum()) / (b - a)
    return SourceWindow(series.source, b - a, values, weights)


def run_windows(
    series: Sequence[SourceSeries], window: Window, metrics: Sequence[Metric] = PER_SECOND
) -> list[SourceWindow]:
    """Rules 1 and 2 for every instance of one run (the run's own clock)."""
    t0 = clock_start(series)
    if t0 is None:
        return []
    out = []
    for s in series:
        w = source_window(s, offset_s(s.start_unix, t0), window, metrics)
        if w is not None:
            out.append(w)
    return out


# ----------------------------------------------------------------------------- rule 3


def combine_run(windows: Sequence[SourceWindow], names: Iterable[str]) -> dict[str, float | None]:
    """Rule 3: the instances of one run combined, metric by metric."""
    out: dict[str, float | None] = {}
    for name in names:
        m = METRICS[name]  # type: ignore[index]
        reported = [(w.values.get(name), w.weights.get(name, 0.0)) for w in windows]
        known = [(v, wt) for v, wt in reported if v is not None and math.isfinite(v)]
        if m.instances == "sum":
            out[name] = sum(v for v, _ in known) if known and len(known) == len(reported) else None
        elif m.instances == "weighted":
            total = sum(wt for _, wt in known)
            out[name] = sum(v * wt for v, wt in known) / total if total > 0 else None
        else:
            out[name] = known[0][0] if len(known) == 1 else None
    return out


def combine_instance_means(
    throughput_means: Sequence[float],
    throughput_stds: Sequence[float],
    response_means_us: Sequence[float],
    response_stds_us: Sequence[float],
) -> tuple[float, float, float, float]:
    """Rule 3 for instances known only by their means and stds (the ad-hoc calculator).

    Returns (throughput, its std, response time, its std): throughput summed with the std
    sqrt(sum s_i^2) of independent instances; response time weighted by throughput with the
    std sqrt(sum (w_i s_i)^2), w_i = X_i / sum X.
    """
    n = len(throughput_means)
    require(n > 0, "throughput_means_per_s", "no data")
    require(
        len(throughput_stds) == len(response_means_us) == len(response_stds_us) == n,
        "throughput_means_per_s",
        "lengths differ",
    )
    for field_name, xs in (
        ("throughput_means_per_s", throughput_means),
        ("throughput_stds_per_s", throughput_stds),
        ("response_means_us", response_means_us),
        ("response_stds_us", response_stds_us),
    ):
        require(all(math.isfinite(v) for v in xs), field_name, "contains NaN or infinite values")
    total = sum(throughput_means)
    require(total > 0, "throughput_means_per_s", "total throughput is zero")
    windows = [
        SourceWindow(
            f"instance:{i}",
            1,
            {"throughput_per_s": x, "response_time_us": r},
            {"throughput_per_s": 1.0, "response_time_us": x},
        )
        for i, (x, r) in enumerate(zip(throughput_means, response_means_us, strict=True))
    ]
    combined = combine_run(windows, ("throughput_per_s", "response_time_us"))
    x_std = math.sqrt(sum(s * s for s in throughput_stds))
    r_std = math.sqrt(
        sum((x / total * s) ** 2 for x, s in zip(throughput_means, response_stds_us, strict=True))
    )
    return combined["throughput_per_s"] or 0.0, x_std, combined["response_time_us"] or 0.0, r_std


def by_configuration(runs: Iterable[RunValues], name: str) -> dict[int, list[float]]:
    """Per configuration id, the metric of each repetition that has it (repetition order)."""
    out: dict[int, list[float]] = defaultdict(list)
    for run in sorted(runs, key=lambda r: (r.configuration_id, r.repetition, r.run_id)):
        value = run.values.get(name)
        if value is not None:
            out[run.configuration_id].append(value)
    return out


# ----------------------------------------------------------------------------- rule 4


def _finite(values: Sequence[float] | FloatArray, name: str) -> FloatArray:
    arr = np.asarray(values, dtype=np.float64)
    require(arr.size > 0, name, "no data")
    require(bool(np.all(np.isfinite(arr))), name, "contains NaN or infinite values")
    return arr


def summarize(values: Sequence[float] | FloatArray) -> RepetitionSummary:
    """Mean and sample standard deviation across repetitions."""
    arr = _finite(values, "values")
    with np.errstate(over="ignore", invalid="ignore"):
        mean = float(arr.mean())
        std = float(arr.std(ddof=1)) if arr.size > 1 else None
    require_finite([mean, std], "values", "their mean or standard deviation overflows")
    return RepetitionSummary(n=int(arr.size), mean=mean, std=std)


def t_quantile(dof: float, level: float) -> float:
    """The Student t quantile of a two-sided `level` interval with `dof` degrees of freedom
    (fractional for Welch's): every t interval of repetitions takes its t from here."""
    # Imported here: scipy takes seconds to load, and the worker (which stores runs through
    # this module's window means) never needs it. stdtrit is the quantile as a bare ufunc
    # (scipy.stats' t.ppf calls it after argument checks costing ~0.4 ms a call).
    from scipy.special import stdtrit

    return float(stdtrit(dof, 0.5 + level / 2.0))


def confidence_interval(
    values: Sequence[float] | FloatArray, level: float = 0.95
) -> ConfidenceInterval:
    """Student t interval of the mean; needs at least two repetitions."""
    arr = _finite(values, "values")
    require(0.0 < level < 1.0, "level", "must lie strictly between 0 and 1")
    if arr.size < 2:
        raise AnalysisError("values", "a confidence interval needs at least 2 repetitions")
    dof = int(arr.size - 1)
    t = t_quantile(dof, level)
    require_finite([t], "level", "too close to 1: the t quantile is infinite")
    summary = summarize(arr)
    half = t * (summary.std or 0.0) / math.sqrt(arr.size)
    mean = summary.mean
    require_finite([mean - half, mean + half], "values", "the interval's bounds overflow")
    return ConfidenceInterval(level, mean, mean - half, mean + half, half, dof)


# ------------------------------------------------------------------- per-second views


@dataclass(frozen=True)
class CombinedSecond:
    """All instances of a run in each second of its clock (rules 1 and 3 per second).

    throughput: summed (0 where an instance reported a second without completions);
    response_time_us: completion-weighted, None in a second without a defined time.
    """

    time_s: list[float]
    throughput: list[float]
    response_time_us: list[float | None]


def combine_per_second(series: Sequence[SourceSeries], t0_unix: float) -> CombinedSecond:
    """Second by second, the run total: the run series view and live progress show this."""
    x_col, r_col = THROUGHPUT.column, METRICS["response_time_us"].column
    tp: dict[int, float] = defaultdict(float)
    weighted: dict[int, float] = defaultdict(float)
    weight: dict[int, float] = defaultdict(float)
    for s in series:
        shift = offset_s(s.start_unix, t0_unix)
        xs, rs = s.values.get(x_col), s.values.get(r_col)
        if xs is None:
            continue
        for i, x in enumerate(xs):
            x = 0.0 if math.isnan(x) else float(x)
            tp[shift + i] += x
            r = rs[i] if rs is not None and i < len(rs) else math.nan
            if math.isfinite(r) and x > 0:
                weighted[shift + i] += x * r
                weight[shift + i] += x
    seconds = sorted(tp)
    return CombinedSecond(
        time_s=[float(t) for t in seconds],
        throughput=[tp[t] for t in seconds],
        response_time_us=[weighted[t] / weight[t] if weight[t] > 0 else None for t in seconds],
    )


def metric_names(names: Iterable[str] | None = None) -> tuple[MetricName, ...]:
    """The given metric names checked against the table (all of them by default)."""
    if names is None:
        return tuple(METRICS)
    out = []
    for name in names:
        require(name in METRICS, "metric", f"unknown metric {name!r}")
        out.append(name)
    return tuple(out)  # type: ignore[arg-type]
