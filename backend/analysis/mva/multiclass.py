"""Exact multi-class MVA (Jain Box 34.2 for C classes, 36.1 for m-server stations).

The recursion visits the population lattice level by level (total jobs 0, 1, 2, ...): every
point of a level depends only on the previous level, so each level is one vectorised step.
An m-server station keeps its marginal p_k(j|n) (j = jobs there in total). The textbook gets
p_k(0|n) as 1 - sum_j p_k(j|n), which cancels catastrophically; here it comes from the exact
ratio p_k(0|n) = p_k(0|n - e_c) X_c(n) / X_c^{-k}(n), where X^{-k} is the throughput of the
network without station k (solved the same way): products of positive numbers only.
Those complement networks are shared: the network without stations {a, b} serves both the
network without a and the one without b, so L m-server stations cost 2^L lattice passes (memo
by the set of stations kept), bounded by a work budget instead of a fixed station count. For
larger models `backend.analysis.mva.approximate` offers Bard-Schweitzer.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from backend.analysis.errors import require
from backend.analysis.mva.network import Station, StationKind, check_servers
from backend.analysis.mva.result import FloatArray

# Bounds memory: one float per population vector and station (20M cells = 160 MB).
MAX_LATTICE_CELLS = 20_000_000
# Bounds time: lattice cells x stations summed over the 2^L complement networks solved.
MAX_EXACT_WORK = 200_000_000


@dataclass(frozen=True)
class ClassSpec:
    """One job class: population, think time and per-station demands (visits x service)."""

    name: str
    population: int
    think_time_s: float
    demands_s: tuple[float, ...]  # one per station, in seconds per job cycle


@dataclass(frozen=True)
class MultiClassResult:
    """Per class and per station results at the full population (rows: classes)."""

    class_names: tuple[str, ...]
    station_names: tuple[str, ...]
    throughput_per_s: FloatArray  # X_c
    response_time_s: FloatArray  # R_c = sum_k R_ck
    residence_time_s: FloatArray  # R_ck, shape (C, K)
    queue_length: FloatArray  # Q_ck, shape (C, K)
    utilization: FloatArray  # U_ck = X_c D_ck / m_k (per server), shape (C, K)
    prob_busy: tuple[float | None, ...]  # P(station not empty); None for delays
    method: str = "exact"  # or "approximate" (Bard-Schweitzer, see mva.approximate)
    iterations: int | None = None  # fixed-point iterations of the approximate method


def validate_classes(
    stations: tuple[Station, ...], classes: tuple[ClassSpec, ...], lattice: bool = True
) -> None:
    """Reject class specs the solvers cannot use; `lattice` adds the exact solver's limits."""
    require(len(classes) >= 1, "classes", "at least one job class is needed")
    for i, s in enumerate(stations):
        check_servers(i, s)
    points = 1
    for c, spec in enumerate(classes):
        require(spec.population >= 0, f"classes[{c}].population", "must be >= 0")
        require(spec.think_time_s >= 0, f"classes[{c}].think_time_s", "must be >= 0")
        require(
            len(spec.demands_s) == len(stations),
            f"classes[{c}].demands_s",
            f"needs one demand per station ({len(stations)})",
        )
        require(all(d >= 0 for d in spec.demands_s), f"classes[{c}].demands_s", "must be >= 0")
        require(
            spec.population == 0 or spec.think_time_s + sum(spec.demands_s) > 0,
            f"classes[{c}].demands_s",
            "all demands and the think time are zero: throughput would be infinite",
        )
        points *= spec.population + 1
    if not lattice:
        return
    require(
        points * max(len(stations), 1) <= MAX_LATTICE_CELLS,
        "classes",
        f"population lattice too large ({points:,} vectors x {len(stations)} stations); "
        'use method "approximate"',
    )
    multi = sum(1 for s in stations if s.kind is StationKind.MULTI and s.servers > 1)
    require(
        exact_work(points, len(stations), multi) <= MAX_EXACT_WORK,
        "stations",
        f"{multi} multi-server stations need 2^{multi} lattice passes of {points:,} vectors: "
        'too much work for the exact solution; use method "approximate"',
    )


def exact_work(points: int, stations: int, multi_server: int) -> int:
    """Cells the exact recursion visits: one lattice pass per subset of m-server stations."""
    return int(points * max(stations, 1) * 2**multi_server)


@dataclass(frozen=True)
class _Lattice:
    """Population vectors grouped by level, with each vector's position inside its level."""

    coords: np.ndarray  # (C, P)
    strides: np.ndarray  # index offset of one job of class c
    order: np.ndarray  # lattice indices sorted by level
    ends: np.ndarray  # order[ends[l-1]:ends[l]] is level l
    pos: np.ndarray  # position of an index within its level

    @staticmethod
    def of(shape: tuple[int, ...]) -> _Lattice:
        coords = np.indices(shape).reshape(len(shape), -1)
        levels = coords.sum(axis=0)
        order = np.argsort(levels, kind="stable")
        ends = np.cumsum(np.bincount(levels))
        pos = np.empty(coords.shape[1], dtype=np.int64)
        starts = np.concatenate(([0], ends[:-1]))
        for start, end in zip(starts, ends, strict=True):
            pos[order[start:end]] = np.arange(end - start)
        strides = np.array([int(np.prod(shape[c + 1 :])) for c in range(len(shape))])
        return _Lattice(coords, strides, order, ends, pos)


@dataclass(frozen=True)
class _Solved:
    xs: FloatArray  # (P, C) throughput at every lattice point
    resid: FloatArray  # (C, K) residence times at the full population
    busy: dict[int, float]  # P(not empty) at the full population, m-server stations


def _rows(arr: FloatArray, positions: np.ndarray) -> FloatArray:
    """arr[positions]; a view when the positions are one contiguous run (always for 2 classes).

    Positions are strictly increasing (predecessors of a level keep the level's order), so
    equal span and length means contiguous; the view avoids copying (points x level) arrays.
    """
    if len(positions) and positions[-1] - positions[0] == len(positions) - 1:
        first = int(positions[0])
        return arr[first : first + len(positions)]
    return np.asarray(arr[positions], dtype=np.float64)


def _solve(
    kinds: list[StationKind],
    servers: list[int],
    demands: FloatArray,
    think: FloatArray,
    lat: _Lattice,
    memo: dict[frozenset[int], FloatArray] | None = None,
    ids: tuple[int, ...] | None = None,
) -> _Solved:
    """The level-by-level recursion; m-server stations recurse on their complement network.

    `ids` names the stations of this (sub)network in the full one; `memo` keeps the
    throughput of every complement network solved so far, keyed by the stations it keeps.
    """
    n_classes, n_stations = demands.shape
    memo = {} if memo is None else memo
    ids = tuple(range(n_stations)) if ids is None else ids
    ld = [k for k in range(n_stations) if kinds[k] is StationKind.MULTI and servers[k] > 1]
    comp: dict[int, FloatArray] = {}
    for k in ld:
        keep = [i for i in range(n_stations) if i != k]
        key = frozenset(ids[i] for i in keep)
        if key not in memo:
            memo[key] = _solve(
                [kinds[i] for i in keep],
                [servers[i] for i in keep],
                demands[:, keep],
                think,
                lat,
                memo,
                tuple(ids[i] for i in keep),
            ).xs
        comp[k] = memo[key]
    is_delay = np.array([kd is StationKind.DELAY for kd in kinds])
    total_q = np.zeros((lat.coords.shape[1], n_stations))
    xs = np.zeros((lat.coords.shape[1], n_classes))
    probs = {k: np.ones((1, 1)) for k in ld}  # p_k(j | level-0 point): one job count, j = 0
    resid = np.zeros((1, n_classes, n_stations))
    for level in range(1, len(lat.ends)):
        idx = lat.order[lat.ends[level - 1] : lat.ends[level]]
        n = lat.coords[:, idx]
        resid = np.zeros((len(idx), n_classes, n_stations))
        j = np.arange(1, level + 1)
        for c in range(n_classes):
            has = n[c] > 0
            prev = idx[has] - lat.strides[c]
            grow = np.where(is_delay[None, :], 1.0, 1.0 + total_q[prev])
            resid[has, c] = demands[c][None, :] * grow
            for k in ld:
                # R_ck = D_ck sum_j j / min(j, m) p_k(j - 1 | n - e_c)
                weights = j / np.minimum(j, servers[k])
                resid[has, c, k] = demands[c, k] * (_rows(probs[k], lat.pos[prev]) @ weights)
        cycle = think[None, :] + resid.sum(axis=2)
        with np.errstate(divide="ignore", invalid="ignore"):
            x = np.where(n.T > 0, n.T / cycle, 0.0)  # inf only in complement networks
        finite_x = np.where(np.isfinite(x), x, 0.0)
        xs[idx] = x
        total_q[idx] = np.einsum("pc,pck->pk", finite_x, resid)
        for k in ld:
            probs[k] = _next_marginal(
                probs[k], k, servers[k], demands, finite_x, comp[k], n, idx, lat
            )
    busy = {k: float(1.0 - probs[k][-1, 0]) for k in ld}
    return _Solved(xs, resid[-1], busy)


def _next_marginal(
    prev_p: FloatArray,
    k: int,
    m: int,
    demands: FloatArray,
    x: FloatArray,
    comp_x: FloatArray,
    n: np.ndarray,
    idx: np.ndarray,
    lat: _Lattice,
) -> FloatArray:
    """p_k(j | n) for the points of one level from the previous level's marginals."""
    level = prev_p.shape[1]
    new = np.zeros((len(idx), level + 1))
    p0 = np.zeros(len(idx))
    done = np.zeros(len(idx), dtype=bool)
    for c in range(demands.shape[0]):
        has = n[c] > 0
        prev = _rows(prev_p, lat.pos[idx[has] - lat.strides[c]])
        rows = np.flatnonzero(has)
        if len(rows) and rows[-1] - rows[0] == len(rows) - 1:
            target = new[rows[0] : rows[-1] + 1, 1:]  # a view: update in place, no copy
            target += (demands[c, k] * x[has, c])[:, None] * prev
        else:
            new[has, 1:] += (demands[c, k] * x[has, c])[:, None] * prev
        # Any class with a job gives the same exact ratio; use the first one available.
        first = has & ~done
        xc = comp_x[idx[first], c]
        ok = np.isfinite(xc) & (xc > 0)
        prev0 = prev_p[lat.pos[idx[first] - lat.strides[c]], 0]
        p0[first] = np.where(ok, prev0 * x[first, c] / np.where(ok, xc, 1.0), 0.0)
        done |= has
    new[:, 1:] /= np.minimum(np.arange(1, level + 1), m)
    new[:, 0] = p0
    return new


def solve_multiclass(
    stations: tuple[Station, ...], classes: tuple[ClassSpec, ...]
) -> MultiClassResult:
    """Exact MVA over the whole population lattice; results at the full population vector."""
    validate_classes(stations, classes)
    shape = tuple(spec.population + 1 for spec in classes)
    demands = np.array([spec.demands_s for spec in classes], dtype=np.float64)  # (C, K)
    think = np.array([spec.think_time_s for spec in classes], dtype=np.float64)
    servers = [s.servers if s.kind is StationKind.MULTI else 1 for s in stations]
    solved = _solve([s.kind for s in stations], servers, demands, think, _Lattice.of(shape))
    x_last = solved.xs[-1]
    r_last = solved.resid
    util = x_last[:, None] * demands / np.array(servers, dtype=np.float64)[None, :]
    busy: list[float | None] = []
    for k, s in enumerate(stations):
        if s.kind is StationKind.DELAY:
            busy.append(None)
        else:
            busy.append(solved.busy.get(k, float(util[:, k].sum())))
    return MultiClassResult(
        class_names=tuple(spec.name for spec in classes),
        station_names=tuple(s.name for s in stations),
        throughput_per_s=x_last,
        response_time_s=r_last.sum(axis=1),
        residence_time_s=r_last,
        queue_length=x_last[:, None] * r_last,
        utilization=util,
        prob_busy=tuple(busy),
    )


def lattice_size(classes: tuple[ClassSpec, ...]) -> int:
    """Number of population vectors the exact recursion visits."""
    return math.prod(c.population + 1 for c in classes)  # Python ints: no overflow
