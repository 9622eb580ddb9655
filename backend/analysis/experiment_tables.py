"""Per-configuration tables over a stored experiment (pure: configurations and runs in)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from backend.analysis.errors import AnalysisError, require
from backend.analysis.experiment import RunMetrics, by_configuration, total_clients
from backend.analysis.factorial import FactorialResult, factorial
from backend.analysis.factorial_grid import design_from_grid
from backend.analysis.laws import estimate_think_time, interactive_throughput
from backend.analysis.saturation import Series
from backend.analysis.stats import confidence_interval, summarize


@dataclass(frozen=True)
class Config:
    """A grid point: id, index, its factor values and all effective parameters."""

    id: int
    index: int
    values: dict[str, Any]
    params: dict[str, Any]


@dataclass(frozen=True)
class StatRow:
    """Mean, std and (optional) t interval of one metric over a configuration's repetitions."""

    configuration_id: int
    index: int
    values: dict[str, Any]
    repetitions: int
    mean: float | None
    std: float | None
    ci_low: float | None
    ci_high: float | None


def summary_rows(
    configs: list[Config], runs: list[RunMetrics], metric: str, confidence: float | None
) -> list[StatRow]:
    """One row per configuration; CIs need >= 2 repetitions wherever there is data."""
    data = by_configuration(runs, metric)
    rows = []
    for c in configs:
        ys = data.get(c.id, [])
        if not ys:
            rows.append(StatRow(c.id, c.index, c.values, 0, None, None, None, None))
            continue
        s = summarize(ys)
        low = high = None
        if confidence is not None:
            if len(ys) < 2:
                raise AnalysisError(
                    "confidence",
                    f"configuration #{c.index} has 1 repetition; a confidence interval needs 2",
                )
            ci = confidence_interval(ys, confidence)
            low, high = ci.low, ci.high
        rows.append(StatRow(c.id, c.index, c.values, s.n, s.mean, s.std, low, high))
    return rows


def mean_of(data: dict[int, list[float]], config_id: int) -> float | None:
    """Mean over repetitions, None without data."""
    ys = data.get(config_id)
    return sum(ys) / len(ys) if ys else None


def interactive_rows(
    configs: list[Config], runs: list[RunMetrics], think_time_s: float | None
) -> tuple[float, bool, list[dict[str, Any]]]:
    """Interactive law per configuration: N from the grid, R and X measured by the clients.

    Z is estimated from the data (least squares, clipped at 0) unless given.
    """
    xs = by_configuration(runs, "throughput_per_s")
    rs = by_configuration(runs, "response_time_us")
    points = [(c, total_clients(c.params), mean_of(xs, c.id), mean_of(rs, c.id)) for c in configs]
    measured = [(c, n, x, r) for c, n, x, r in points if x is not None and r is not None]
    require(len(measured) > 0, "experiment", "no succeeded runs with client measurements")
    estimated = think_time_s is None
    if think_time_s is None:
        think_time_s = estimate_think_time(
            [n for _, n, _, _ in measured],
            [x for _, _, x, _ in measured],
            [r / 1e6 for _, _, _, r in measured],
        )
    rows = []
    for c, n, x, r in measured:
        assert x is not None and r is not None
        expected = interactive_throughput(n, r / 1e6, think_time_s)
        rows.append(
            {
                "configuration_id": c.id,
                "index": c.index,
                "values": c.values,
                "clients": n,
                "response_time_s": r / 1e6,
                "measured_throughput_per_s": x,
                "expected_throughput_per_s": expected,
                "deviation_percent": 100.0 * (x - expected) / expected,
            }
        )
    return think_time_s, estimated, rows


def saturation_series(
    configs: list[Config],
    runs: list[RunMetrics],
    series_factor: str,
    load_factor: str,
    metric: str,
) -> list[Series]:
    """One series per level of `series_factor`, load = `load_factor` ("clients": total)."""
    data = by_configuration(runs, metric)
    groups: dict[Any, list[tuple[float, float]]] = {}
    for c in configs:
        y = mean_of(data, c.id)
        if y is None:
            continue
        if series_factor not in c.params:
            raise AnalysisError("series_factor", f"unknown parameter {series_factor!r}")
        load = total_clients(c.params) if load_factor == "clients" else c.params.get(load_factor)
        if not isinstance(load, int | float) or isinstance(load, bool):
            raise AnalysisError("load_factor", f"{load_factor!r} is not a numeric parameter")
        groups.setdefault(c.params[series_factor], []).append((float(load), y))
    require(len(groups) > 0, "experiment", "no succeeded runs with this metric")
    series: list[Series] = []
    for level, pts in sorted(groups.items(), key=lambda kv: str(kv[0])):
        resource = float(level) if isinstance(level, int | float) else float(len(series))
        series.append(
            Series(str(level), resource, tuple(p[0] for p in pts), tuple(p[1] for p in pts))
        )
    return series


def relative_rows(
    configs: list[Config], runs: list[RunMetrics], metric: str, factor: str, base: Any
) -> list[dict[str, Any]]:
    """Each configuration against the one equal to it except `factor` = `base`."""
    data = by_configuration(runs, metric)
    require(any(factor in c.values for c in configs), "factor", f"{factor!r} is not a factor")

    def others(c: Config) -> tuple[tuple[str, str], ...]:
        return tuple(sorted((k, repr(v)) for k, v in c.values.items() if k != factor))

    bases = {others(c): c for c in configs if str(c.values.get(factor)) == str(base)}
    require(len(bases) > 0, "base", f"no configuration has {factor} = {base!r}")
    rows = []
    for c in configs:
        ref = bases.get(others(c))
        y, x = mean_of(data, c.id), mean_of(data, ref.id) if ref else None
        if y is None or x is None:
            continue
        require(x != 0, "base", "the base case value is zero: relative difference undefined")
        rows.append(
            {
                "configuration_id": c.id,
                "index": c.index,
                "values": c.values,
                "value": y,
                "base_value": x,
                "difference_percent": 100.0 * (y - x) / x,
            }
        )
    return rows


def factorial_from_experiment(
    configs: list[Config],
    runs: list[RunMetrics],
    metric: str,
    factors: tuple[str, ...] | None,
    confidence: float | None,
    multiplicative: bool,
) -> tuple[FactorialResult, dict[str, tuple[Any, Any]]]:
    """2^k r analysis of one metric over the experiment's grid (repetitions = replications)."""
    data = by_configuration(runs, metric)
    missing = [c.index for c in configs if not data.get(c.id)]
    if missing:
        raise AnalysisError("experiment", f"configurations {missing} have no succeeded runs")
    design = design_from_grid([c.values for c in configs], [data[c.id] for c in configs], factors)
    result = factorial(design.factors, design.y, confidence, multiplicative)
    return result, design.levels
