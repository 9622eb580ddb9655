"""Closed queueing network description shared by the MVA solvers and the network builder."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from backend.analysis.errors import AnalysisError, require, require_non_negative

MAX_STATIONS = 200


class StationKind(StrEnum):
    """Delay (infinite servers), single-server queue, or m-server (load-dependent) station."""

    DELAY = "delay"
    QUEUE = "queue"
    MULTI = "multi"


@dataclass(frozen=True)
class Station:
    """One service center. Demand per system visit D = visits x service_time_s."""

    name: str
    kind: StationKind
    service_time_s: float  # per visit, per server
    visits: float = 1.0
    servers: int = 1  # m of a MULTI station; a DELAY or QUEUE must leave it at 1

    @property
    def demand_s(self) -> float:
        """Service demand per job cycle, in seconds."""
        return self.visits * self.service_time_s

    @property
    def capacity_servers(self) -> int:
        """Servers that limit throughput: m for MULTI, 1 for QUEUE (DELAY never saturates)."""
        return self.servers if self.kind is StationKind.MULTI else 1


def validate_stations(stations: tuple[Station, ...], think_time_s: float) -> None:
    """Reject networks the solvers cannot give finite answers for."""
    require(len(stations) >= 1, "stations", "the network needs at least one station")
    require(len(stations) <= MAX_STATIONS, "stations", f"at most {MAX_STATIONS} stations")
    require_non_negative(think_time_s, "think_time_s")
    names = [s.name for s in stations]
    require(len(set(names)) == len(names), "stations", "station names must be unique")
    for i, s in enumerate(stations):
        require_non_negative(s.service_time_s, f"stations[{i}].service_time_s")
        require_non_negative(s.visits, f"stations[{i}].visits")
        check_servers(i, s)
    total = think_time_s + sum(s.demand_s for s in stations)
    require(
        total > 0,
        "stations",
        "all service demands and the think time are zero: throughput would be infinite",
    )


def check_servers(index: int, station: Station) -> None:
    """m >= 1 for a multi-server station; exactly 1 otherwise, never silently ignored.

    A queue given 64 servers would otherwise be solved as one server (X = 1/S) while the
    caller believes it modelled 64: the request must say "multi" to mean m servers.
    """
    field = f"stations[{index}].servers"
    if station.kind is StationKind.MULTI:
        require(station.servers >= 1, field, "must be at least 1")
    elif station.servers != 1:
        raise AnalysisError(field, SERVERS_ONLY_MULTI.format(kind=station.kind.value))


SERVERS_ONLY_MULTI = (
    'a "{kind}" station has no server count (it must be 1); use kind "multi" for an '
    "m-server (load-dependent) station"
)
