"""What-if sweeps: re-solve the single-class model over a range of one parameter (JMT style)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

import numpy as np

from backend.analysis.errors import AnalysisError, require
from backend.analysis.mva.exact import solve_mva
from backend.analysis.mva.network import Station, StationKind
from backend.analysis.mva.result import FloatArray

MAX_SWEEP_POINTS = 200


class SweepParameter(StrEnum):
    """Which input varies across the sweep."""

    SERVICE_TIME = "service_time_s"
    VISITS = "visits"
    SERVERS = "servers"
    THINK_TIME = "think_time_s"
    POPULATION = "population"


@dataclass(frozen=True)
class WhatIfResult:
    """One row per swept value, outputs at the model's full population."""

    parameter: SweepParameter
    station: str | None
    values: FloatArray
    throughput_per_s: FloatArray
    response_time_s: FloatArray
    utilization_per_server: FloatArray  # shape (points, stations)
    queue_length: FloatArray  # shape (points, stations)
    station_names: tuple[str, ...]


def what_if(
    stations: tuple[Station, ...],
    population: int,
    think_time_s: float,
    parameter: SweepParameter,
    values: tuple[float, ...],
    station: str | None = None,
) -> WhatIfResult:
    """Solve once per value of `parameter` (for station parameters, of station `station`)."""
    require(1 <= len(values) <= MAX_SWEEP_POINTS, "values", f"1..{MAX_SWEEP_POINTS} values")
    names = tuple(s.name for s in stations)
    per_station = parameter not in (SweepParameter.THINK_TIME, SweepParameter.POPULATION)
    if per_station and station not in names:
        raise AnalysisError("station", f"must name one of the stations {list(names)}")
    if parameter is SweepParameter.POPULATION:
        require(all(v >= 1 and float(v).is_integer() for v in values), "values", "integers >= 1")
        full = solve_mva(stations, int(max(values)), think_time_s)
        rows = [int(v) - 1 for v in values]
        return WhatIfResult(
            parameter=parameter,
            station=None,
            values=np.array(values, dtype=np.float64),
            throughput_per_s=full.throughput_per_s[rows],
            response_time_s=full.response_time_s[rows],
            utilization_per_server=np.array(
                [[c.utilization_per_server[r] for c in full.stations] for r in rows]
            ),
            queue_length=np.array([[c.queue_length[r] for c in full.stations] for r in rows]),
            station_names=names,
        )
    xs, rs, us, qs = [], [], [], []
    for v in values:
        net, z = _apply(stations, think_time_s, parameter, v, station)
        res = solve_mva(net, population, z)
        xs.append(res.throughput_per_s[-1])
        rs.append(res.response_time_s[-1])
        us.append([c.utilization_per_server[-1] for c in res.stations])
        qs.append([c.queue_length[-1] for c in res.stations])
    return WhatIfResult(
        parameter=parameter,
        station=station if per_station else None,
        values=np.array(values, dtype=np.float64),
        throughput_per_s=np.array(xs),
        response_time_s=np.array(rs),
        utilization_per_server=np.array(us),
        queue_length=np.array(qs),
        station_names=names,
    )


def _apply(
    stations: tuple[Station, ...],
    think_time_s: float,
    parameter: SweepParameter,
    value: float,
    station: str | None,
) -> tuple[tuple[Station, ...], float]:
    if parameter is SweepParameter.THINK_TIME:
        return stations, value
    out = []
    for s in stations:
        if s.name != station:
            out.append(s)
        elif parameter is SweepParameter.SERVICE_TIME:
            out.append(replace(s, service_time_s=value))
        elif parameter is SweepParameter.VISITS:
            out.append(replace(s, visits=value))
        else:
            require(value >= 1 and float(value).is_integer(), "values", "servers: integers >= 1")
            out.append(replace(s, kind=StationKind.MULTI, servers=int(value)))
    return tuple(out), think_time_s
