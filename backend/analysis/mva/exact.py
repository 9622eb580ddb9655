"""Exact single-class MVA (Jain Box 34.2) with stable load-dependent m-server stations (36.1)."""

from __future__ import annotations

import numpy as np

from backend.analysis.errors import AnalysisError, require_finite
from backend.analysis.mva.logconv import convolve_multi, log_factor_multi, marginal_stats_multi
from backend.analysis.mva.network import Station, StationKind, validate_stations
from backend.analysis.mva.result import FloatArray, MvaResult, StationCurves

MAX_POPULATION = 100_000


def _classic(
    demands: FloatArray, is_delay: np.ndarray, think_time_s: float, n_max: int
) -> tuple[FloatArray, FloatArray]:
    """Box 34.2 recursion; returns X(n) and Q_k(n) for n = 1..n_max (rows)."""
    queue = np.zeros(len(demands))
    xs = np.empty(n_max)
    qs = np.empty((n_max, len(demands)))
    for n in range(1, n_max + 1):
        resid = np.where(is_delay, demands, demands * (1.0 + queue))
        x = n / (think_time_s + resid.sum())
        queue = x * resid
        xs[n - 1] = x
        qs[n - 1] = queue
    return xs, qs


def _log_g_rest(
    demands: FloatArray, is_delay: np.ndarray, think_s: float, n_max: int
) -> FloatArray:
    """log G(n) of the stations without load dependence, from X(n) = G(n-1)/G(n)."""
    out = np.full(n_max + 1, -np.inf)
    out[0] = 0.0
    if think_s + demands.sum() == 0.0:
        return out  # no such stations: G is 1 at n = 0 and 0 elsewhere
    xs, _ = _classic(demands, is_delay, think_s, n_max)
    out[1:] = -np.cumsum(np.log(xs))
    return out


def solve_mva(
    stations: tuple[Station, ...], population: int, think_time_s: float = 0.0
) -> MvaResult:
    """Solve a closed single-class network for every population 1..`population`.

    Inputs whose answers leave the double range (e.g. a 1e-308 s think time, so X overflows)
    raise AnalysisError instead of returning inf or NaN.
    """
    validate_stations(stations, think_time_s)
    if not 1 <= population <= MAX_POPULATION:
        raise AnalysisError("population", f"must be between 1 and {MAX_POPULATION}")
    with np.errstate(all="ignore"):
        res = _solve(stations, population, think_time_s)
    arrays: list[FloatArray | None] = [res.throughput_per_s, res.response_time_s]
    for c in res.stations:
        arrays += [c.throughput_per_s, c.queue_length, c.residence_time_s]
        arrays += [c.utilization_per_server, c.prob_busy]
    require_finite(
        arrays, "stations", "service times or think time too extreme: results leave double range"
    )
    return res


def _solve(stations: tuple[Station, ...], n_max: int, think_time_s: float) -> MvaResult:
    """solve_mva without the input and output checks."""
    demands = np.array([s.demand_s for s in stations], dtype=np.float64)
    # An m-server station with m = 1 is an ordinary queue: solve it with the cheap recursion.
    multi = [i for i, s in enumerate(stations) if s.kind is StationKind.MULTI and s.servers > 1]
    is_delay = np.array([s.kind is StationKind.DELAY for s in stations])
    if not multi:
        xs, qs = _classic(demands, is_delay, think_time_s, n_max)
        return _assemble(
            stations, think_time_s, xs, qs, {i: xs * demands[i] for i in range(len(stations))}
        )
    rest = np.array([i not in multi for i in range(len(stations))])
    log_rest = _log_g_rest(demands[rest], is_delay[rest], think_time_s, n_max)
    factors = [log_factor_multi(demands[i], stations[i].servers, n_max) for i in multi]
    servers = [stations[i].servers for i in multi]
    log_g = log_rest
    for f, m in zip(factors, servers, strict=True):
        log_g = convolve_multi(log_g, f, m)
    xs = np.exp(log_g[:-1] - log_g[1:])
    if not np.all(np.isfinite(xs)):
        raise AnalysisError("stations", "the network has no finite solution at this population")
    qs = np.empty((n_max, len(stations)))
    busy: dict[int, FloatArray] = {}
    for pos, i in enumerate(multi):
        # G without station i: the rest convolved with every other pool (few pools: cheap).
        without = log_rest
        for other, (f, m) in enumerate(zip(factors, servers, strict=True)):
            if other != pos:
                without = convolve_multi(without, f, m)
        qs[:, i], busy[i] = marginal_stats_multi(factors[pos], without, log_g, servers[pos])
    # Given the exact X(n), single-server and delay stations follow the ordinary MVA relations.
    others = [int(i) for i in np.flatnonzero(rest)]
    grows = ~is_delay[others]
    prev = np.zeros(len(others))
    for n in range(n_max):
        prev = xs[n] * demands[others] * (1.0 + np.where(grows, prev, 0.0))
        qs[n, others] = prev
    for i in others:
        busy[i] = xs * demands[i]
    return _assemble(stations, think_time_s, xs, qs, busy)


def _assemble(
    stations: tuple[Station, ...],
    think_time_s: float,
    xs: FloatArray,
    qs: FloatArray,
    busy: dict[int, FloatArray],
) -> MvaResult:
    """Package per-station curves; a delay's utilization is X V S, its mean busy servers."""
    populations = np.arange(1, len(xs) + 1, dtype=np.int64)
    curves = []
    for i, s in enumerate(stations):
        util = xs * s.demand_s / (s.servers if s.kind is StationKind.MULTI else 1)
        curves.append(
            StationCurves(
                station=s,
                throughput_per_s=xs * s.visits,
                utilization_per_server=util,
                prob_busy=None if s.kind is StationKind.DELAY else np.minimum(busy[i], 1.0),
                residence_time_s=qs[:, i] / xs,
                queue_length=qs[:, i].copy(),
            )
        )
    return MvaResult(
        populations=populations,
        think_time_s=think_time_s,
        throughput_per_s=xs,
        # The sum of the residence times, which equals n / X(n) - Z without its cancellation:
        # with Z = 1e6 s and R = 1e-9 s that difference keeps no correct digit (and can be < 0).
        response_time_s=qs.sum(axis=1) / xs,
        stations=tuple(curves),
    )
