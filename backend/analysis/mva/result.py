"""Result types of the single-class MVA solvers (all arrays indexed by population n = 1..N)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from backend.analysis.mva.network import Station, StationKind

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class StationCurves:
    """Per-station outputs for populations 1..N (index 0 is N = 1)."""

    station: Station
    throughput_per_s: FloatArray  # completions at the station: X(n) x visits
    utilization_per_server: FloatArray  # X V S / m (Octave's convention; X V S for a delay)
    prob_busy: FloatArray | None  # P(station not empty) (JMT's convention); None for delays
    residence_time_s: FloatArray  # time per job cycle spent at the station (all visits)
    queue_length: FloatArray  # mean jobs at the station, in service included


@dataclass(frozen=True)
class MvaResult:
    """System and per-station results of a single-class closed network for n = 1..N."""

    populations: npt.NDArray[np.int64]
    think_time_s: float
    throughput_per_s: FloatArray  # system throughput X(n)
    response_time_s: FloatArray  # R(n) = sum of residence times = n / X(n) - Z
    stations: tuple[StationCurves, ...]

    def bottleneck(self) -> str:
        """Name of the queueing station with the largest demand per server.

        Delay centers never saturate, so they are never the bottleneck (as in `bounds`); a
        network of delays only has none and answers "" (no station limits throughput).
        """
        queues = [c for c in self.stations if c.station.kind is not StationKind.DELAY]
        if not queues:
            return ""
        best = max(queues, key=lambda c: c.station.demand_s / c.station.capacity_servers)
        return best.station.name
