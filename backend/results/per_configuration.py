"""Per-configuration tables over a stored experiment (pure: configurations and runs in)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from backend.analysis.breakdown import breakdown
from backend.analysis.errors import AnalysisError, require
from backend.analysis.experiment import total_clients
from backend.analysis.factorial import FactorialResult, factorial
from backend.analysis.factorial_grid import design_from_grid
from backend.analysis.fractional import fractional_factorial
from backend.analysis.laws import estimate_think_time, interactive_throughput, little_check
from backend.analysis.network_builder import SystemConfig, model_vs_measurement
from backend.analysis.plain import plain
from backend.analysis.request_mix import design_mix
from backend.analysis.saturation import Series
from backend.domain.fraction import Fraction
from backend.domain.metrics import MetricName
from backend.domain.parameters import CLIENT_COUNT_PARAMETERS, resolve_replication
from backend.results.aggregate import (
    RunValues,
    by_configuration,
    confidence_interval,
    summarize,
)


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
    configs: list[Config], runs: list[RunValues], metric: str, confidence: float | None
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
    configs: list[Config], runs: list[RunValues], think_time_s: float | None
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
    runs: list[RunValues],
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
    configs: list[Config], runs: list[RunValues], metric: str, factor: str, base: Any
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
        if ref is None or ref.id == c.id:  # a base case against itself says nothing
            continue
        y, x = mean_of(data, c.id), mean_of(data, ref.id)
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
    # No pair is a view with nothing in it: say why (a fraction never holds two configurations
    # that differ in one factor alone; nor does a grid whose other runs have no results).
    require(
        len(rows) > 0,
        "factor",
        f"no configuration with measured results differs from one with {factor} = {base!r} "
        f"in {factor} alone (a fractional design never pairs them)",
    )
    return rows


def factorial_from_experiment(
    configs: list[Config],
    runs: list[RunValues],
    metric: str,
    factors: tuple[str, ...] | None,
    confidence: float | None,
    multiplicative: bool,
    t_critical: float | None = None,
    fraction: tuple[dict[str, list[Any]], Fraction] | None = None,
    order: dict[str, list[Any]] | None = None,
) -> tuple[FactorialResult, dict[str, tuple[Any, Any]]]:
    """2^k r analysis of one metric over the experiment's grid (repetitions = replications),
    factors and levels in `order` (the design's, as entered: its first level is -1); with
    `fraction` (the design's factors and its 2^(k-p) fraction) the 2^(k-p) r analysis,
    effects named by their aliases."""
    data = by_configuration(runs, metric)
    missing = [c.index for c in configs if not data.get(c.id)]
    if missing:
        raise AnalysisError("experiment", f"configurations {missing} have no succeeded runs")
    if fraction is not None:
        levels, frac = fraction
        if factors is not None:
            raise AnalysisError(
                "factors", "a fractional experiment is analysed over all its factors"
            )
        result = fractional_factorial(
            levels,
            frac,
            [c.values for c in configs],
            [data[c.id] for c in configs],
            confidence,
            multiplicative,
            t_critical,
        )
        return result, {n: (v[0], v[1]) for n, v in levels.items()}
    design = design_from_grid(
        [c.values for c in configs], [data[c.id] for c in configs], factors, order
    )
    result = factorial(
        design.factors, design.y, confidence, multiplicative, t_critical, design.levels
    )
    return result, design.levels


BREAKDOWN_MW: tuple[MetricName, ...] = ("response_time_us", "queue_time_us", "server_time_us")
LITTLE_METRICS: tuple[MetricName, ...] = ("queue_length", "throughput_per_s", "queue_time_us")


def breakdown_table(
    configs: list[Config],
    client: list[RunValues],
    middleware: list[RunValues],
    round_trips_us: dict[int, float] | None = None,
) -> list[dict[str, Any]]:
    """Response-time breakdown per configuration measured on both sides; the network part
    split by the configuration's measured client -> middleware round trip where given."""
    r_client = by_configuration(client, "response_time_us")
    mw = {k: by_configuration(middleware, k) for k in BREAKDOWN_MW}
    rows = []
    for c in configs:
        parts = [mean_of(r_client, c.id)] + [mean_of(mw[k], c.id) for k in BREAKDOWN_MW]
        if any(p is None for p in parts):
            continue
        r_c, r_mw, queue, server = (float(p) for p in parts if p is not None)
        b = breakdown(r_c, r_mw, queue, server, (round_trips_us or {}).get(c.id))
        rows.append({"configuration_id": c.id, "index": c.index, "values": c.values, **plain(b)})
    if not rows:
        raise AnalysisError(
            "experiment",
            "no configuration has both client and middleware "
            "measurements with queue and server times",
        )
    return rows


def little_table(configs: list[Config], middleware: list[RunValues]) -> list[dict[str, Any]]:
    """Little's law in the middleware per configuration: L against X x queue time."""
    data = {k: by_configuration(middleware, k) for k in LITTLE_METRICS}
    rows = []
    for c in configs:
        length, x, w = (mean_of(data[k], c.id) for k in LITTLE_METRICS)
        if length is None or x is None or w is None:
            continue
        check = little_check(length, x, w / 1e6)
        rows.append(
            {"configuration_id": c.id, "index": c.index, "values": c.values, **plain(check)}
        )
    if not rows:
        raise AnalysisError("experiment", "no middleware queue length and queue time stored")
    return rows


def network_model_table(
    configs: list[Config], client: list[RunValues], service_times: dict[str, Any]
) -> list[dict[str, Any]]:
    """MVA of DOMAIN.md's network per group of configurations differing only in clients."""
    xs = by_configuration(client, "throughput_per_s")
    rs = by_configuration(client, "response_time_us")
    groups: dict[str, tuple[dict[str, Any], list[tuple[int, float, float | None]]]] = {}
    for c in configs:
        x = mean_of(xs, c.id)
        if x is None:
            continue
        key = {k: v for k, v in c.values.items() if k not in CLIENT_COUNT_PARAMETERS}
        r = mean_of(rs, c.id)
        point = (total_clients(c.params), x, r / 1e6 if r is not None else None)
        groups.setdefault(repr(sorted(key.items())), (key, []))[1].append(point)
    if not groups:
        raise AnalysisError("experiment", "no succeeded runs with client measurements")
    out = []
    for key, points in groups.values():
        params = next(c.params for c in configs if {k: c.values.get(k) for k in key} == key)
        if params["middlewares"] < 1:
            raise AnalysisError("middlewares", "the network model needs a middleware")
        cfg = SystemConfig(
            servers=params["servers"],
            middlewares=params["middlewares"],
            workers=params["workers"],
            replication=resolve_replication(params["replication"], params["servers"]),
            write_fraction=design_mix(params).write_fraction,  # of requests: a multi-get is one
            **service_times,
        )
        points.sort()
        _, rows = model_vs_measurement(
            cfg,
            tuple(p[0] for p in points),
            tuple(p[1] for p in points),
            tuple(p[2] for p in points),
        )
        out.append({"group": key, "rows": rows})
    return out
