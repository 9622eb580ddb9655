"""The network bound per role of each configuration, beside its measured throughput."""

from pydantic import BaseModel, Field

from backend.schemas.analysis.common import Units
from backend.schemas.analysis.experiments import ConfigRef
from backend.schemas.analysis.model_fit import FitPublic


class RoleBoundPublic(BaseModel):
    role: str
    hosts: int = Field(description="machines of the role the configuration uses")
    bandwidth_mbit_s: float = Field(
        description="the role's slowest host's link cap when its hosts record caps, else its "
        "slowest iperf3 upload, Mbit/s"
    )
    bandwidth_source: str = Field(
        description="where the bandwidth comes from: 'link cap (<basis>)' or 'iperf3'"
    )
    sets_per_s_per_host: float = Field(description="one host's bound if all were sets")
    gets_per_s_per_host: float = Field(
        description="one host's bound if all were gets (of the design's keys; a server's "
        "own part of a sharded multi-get)"
    )
    bytes_per_request: float = Field(description="bytes the role sends per client request")
    bound_per_s: float = Field(description="hosts x bandwidth / bytes per request, requests/s")


class NetworkBoundRowPublic(ConfigRef):
    measured_throughput_per_s: float | None
    roles: list[RoleBoundPublic] = Field(description="each role's bound")
    bound_per_s: float = Field(description="the smallest role bound, requests/s")
    limiting_role: str = Field(description="the role whose bound is the smallest")
    fraction_of_bound: float | None = Field(description="measured / bound")
    fit: FitPublic | None = Field(
        description="the measured throughput against the network bound (flagged above it "
        "beyond the tolerance); null: not measured"
    )


class ExperimentNetworkBoundPublic(Units):
    """DOMAIN.md section 7's network bound from the testbed's link caps or iperf3 bandwidths."""

    data: list[NetworkBoundRowPublic]
    bandwidth_measured_at: str | None = Field(
        description="when the testbed's bandwidths were measured (iperf3)"
    )
    sizes_note: str = Field(description="how the request and reply sizes were derived")
