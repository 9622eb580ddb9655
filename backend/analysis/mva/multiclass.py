"""Exact multi-class MVA (Jain Box 34.2 extended to C classes, as JMT's JMVA solves it).

The recursion visits the population lattice level by level (total jobs 0, 1, 2, ...): every
point of a level depends only on the previous level, so each level is one vectorised step.
Stations are delay centers or single-server queues; m-server stations are refused because
the exact multi-class load-dependent recursion is not implemented.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from backend.analysis.errors import AnalysisError, require
from backend.analysis.mva.network import Station, StationKind
from backend.analysis.mva.result import FloatArray

# Bounds memory: one float per population vector and station (20M cells = 160 MB).
MAX_LATTICE_CELLS = 20_000_000


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
    utilization: FloatArray  # U_ck = X_c D_ck, shape (C, K)


def _validate(stations: tuple[Station, ...], classes: tuple[ClassSpec, ...]) -> None:
    require(len(classes) >= 1, "classes", "at least one job class is needed")
    for i, s in enumerate(stations):
        if s.kind is StationKind.MULTI and s.servers > 1:
            raise AnalysisError(
                f"stations[{i}].servers",
                "multi-server stations are only supported in single-class models",
            )
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
    require(
        points * max(len(stations), 1) <= MAX_LATTICE_CELLS,
        "classes",
        f"population lattice too large ({points:,} vectors x {len(stations)} stations)",
    )


def solve_multiclass(
    stations: tuple[Station, ...], classes: tuple[ClassSpec, ...]
) -> MultiClassResult:
    """Exact MVA over the whole population lattice; results at the full population vector."""
    _validate(stations, classes)
    shape = tuple(spec.population + 1 for spec in classes)
    n_classes, n_stations = len(classes), len(stations)
    demands = np.array([spec.demands_s for spec in classes], dtype=np.float64)  # (C, K)
    think = np.array([spec.think_time_s for spec in classes])
    is_delay = np.array([s.kind is StationKind.DELAY for s in stations])
    coords = np.indices(shape).reshape(n_classes, -1)  # (C, P)
    levels = coords.sum(axis=0)
    strides = np.array([int(np.prod(shape[c + 1 :])) for c in range(n_classes)])
    total_q = np.zeros((coords.shape[1], n_stations))  # sum over classes of Q_ck(n)
    # Only the queue lengths of the previous level are needed; X and R are kept for the last.
    x = np.zeros((1, n_classes))
    resid = np.zeros((1, n_classes, n_stations))
    # Group the lattice by level once (stable sort keeps each level's indices increasing).
    order = np.argsort(levels, kind="stable")
    ends = np.cumsum(np.bincount(levels))
    for level in range(1, len(ends)):
        idx = order[ends[level - 1] : ends[level]]
        n = coords[:, idx]  # (C, P_level)
        resid = np.zeros((len(idx), n_classes, n_stations))
        for c in range(n_classes):
            has = n[c] > 0
            prev = idx[has] - strides[c]
            grow = np.where(is_delay[None, :], 1.0, 1.0 + total_q[prev])
            resid[has, c] = demands[c][None, :] * grow
        cycle = think[None, :] + resid.sum(axis=2)  # (P_level, C)
        x = np.where(n.T > 0, n.T / np.where(cycle > 0, cycle, 1.0), 0.0)
        total_q[idx] = np.einsum("pc,pck->pk", x, resid)
    # The last level holds one point, the full population (if any class has jobs).
    x_last = x[-1]
    r_last = resid[-1]
    return MultiClassResult(
        class_names=tuple(spec.name for spec in classes),
        station_names=tuple(s.name for s in stations),
        throughput_per_s=x_last,
        response_time_s=r_last.sum(axis=1),
        residence_time_s=r_last,
        queue_length=x_last[:, None] * r_last,
        utilization=x_last[:, None] * demands,
    )


def lattice_size(classes: tuple[ClassSpec, ...]) -> int:
    """Number of population vectors the exact recursion visits."""
    return int(np.prod([c.population + 1 for c in classes]))


IntArray = npt.NDArray[np.int64]
