"""Asymptotic and balanced job bounds of a closed single-class network (Jain ch. 33)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from backend.analysis.errors import AnalysisError, require_finite
from backend.analysis.mva.network import Station, StationKind, validate_stations
from backend.analysis.mva.result import FloatArray


@dataclass(frozen=True)
class Bounds:
    """Bounds for n = 1..N; balanced job bounds are None when m-server stations exist."""

    populations: np.ndarray
    bottleneck: str
    total_demand_s: float  # D, queueing stations only
    max_demand_s: float  # D_max per server at the bottleneck
    think_time_s: float  # Z plus the demands of delay centers
    knee_population: float  # N* = (D + Z) / D_max
    aba_throughput_upper: FloatArray
    aba_throughput_lower: FloatArray
    aba_response_lower_s: FloatArray
    aba_response_upper_s: FloatArray
    bjb_throughput_upper: FloatArray | None
    bjb_throughput_lower: FloatArray | None
    bjb_response_lower_s: FloatArray | None
    bjb_response_upper_s: FloatArray | None


def bounds(stations: tuple[Station, ...], population: int, think_time_s: float = 0.0) -> Bounds:
    """ABA (Box 33.1) and BJB (Box 33.2); delay-center demands are folded into Z."""
    validate_stations(stations, think_time_s)
    if population < 1:
        raise AnalysisError("population", "must be at least 1")
    queues = [s for s in stations if s.kind is not StationKind.DELAY]
    z = think_time_s + sum(s.demand_s for s in stations if s.kind is StationKind.DELAY)
    d = sum(s.demand_s for s in queues)
    if d == 0.0:
        raise AnalysisError("stations", "no queueing station has a positive demand: no bottleneck")
    # An m-server station saturates at m / D: its demand per server is what limits throughput.
    neck = max(queues, key=lambda s: s.demand_s / s.capacity_servers)
    d_max = neck.demand_s / neck.capacity_servers
    n = np.arange(1, population + 1, dtype=np.float64)
    balanced = all(s.capacity_servers == 1 for s in queues)
    bjb: list[FloatArray | None] = [None, None, None, None]
    with np.errstate(all="ignore"):  # overflow is checked below, as a field-named error
        x_up = np.minimum(n / (d + z), 1.0 / np.float64(d_max))
        r_low = np.maximum(d, n * d_max - z)
        if balanced:
            d_avg = d / len(queues)
            bjb[0] = np.minimum(1.0 / d_max, n / (d + z + (n - 1.0) * d_avg / (1.0 + z / d)))
            bjb[1] = n / (d + z + (n - 1.0) * d_max / (1.0 + z / (n * d)))
            bjb[2] = np.maximum(n * d_max - z, d + (n - 1.0) * d_avg / (1.0 + z / d))
            bjb[3] = d + (n - 1.0) * d_max / (1.0 + z / (n * d))
        aba = (n / (n * d + z), n * d)
        knee = (d + z) / np.float64(d_max)
    require_finite(
        [d, z, knee, x_up, r_low, *aba, *bjb],
        "stations",
        "service demands or think time too extreme: the bounds leave double range",
    )
    return Bounds(
        populations=n.astype(np.int64),
        bottleneck=neck.name,
        total_demand_s=d,
        max_demand_s=d_max,
        think_time_s=z,
        knee_population=float(knee),
        aba_throughput_upper=x_up,
        aba_throughput_lower=aba[0],
        aba_response_lower_s=r_low,
        aba_response_upper_s=aba[1],
        bjb_throughput_upper=bjb[0],
        bjb_throughput_lower=bjb[1],
        bjb_response_lower_s=bjb[2],
        bjb_response_upper_s=bjb[3],
    )
