"""The network between roles as served (backend.domain.round_trip stores it): TCP connect
round trips per path and iperf3 uploads per role host."""

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field, computed_field

from backend.domain.round_trip import bandwidths_mbit_s, leg_rtts_us
from backend.schemas.base import RequestModel

NetworkStatus = Literal["measuring", "measured", "failed"]


class RoundTripPublic(BaseModel):
    from_role: str = Field(description="the role of the host the connect was made from")
    from_host: str = Field(description="the host the connect was made from")
    to_role: str = Field(description="the role connected to")
    to_host: str = Field(description="the host connected to")
    address: str
    port: int = Field(description="the port connected to: the service's at a run, SSH's else")
    samples_us: list[float] = Field(description="each TCP connect's round trip, us")
    rtt_us: float | None = Field(description="median of the samples, us; null: none answered")
    error: str | None = None


class BandwidthPublic(BaseModel):
    role: str = Field(description="the role whose host sent (its upload was measured)")
    from_host: str = Field(description="the host that sent")
    to_host: str = Field(description="the peer that received")
    mbit_s: float = Field(description="iperf3's receiver throughput, Mbit/s (10^6 bit/s)")


class NetworkPublic(BaseModel):
    """Round trips of each path between roles and, if measured, each role host's upload."""

    status: NetworkStatus | None = Field(
        default=None, description="the testbed's measurement under way or its outcome"
    )
    error: str | None = None
    method: str | None = Field(default=None, description="tcp_connect: SYN / SYN-ACK time")
    measured_at: datetime | None = Field(
        default=None, description="when the round trips were taken"
    )
    paths: list[RoundTripPublic] = Field(
        default_factory=list, description="round trips of each path between roles"
    )
    bandwidth: list[BandwidthPublic] = Field(
        default_factory=list, description="iperf3 upload of each role host (on request)"
    )
    bandwidth_measured_at: datetime | None = Field(
        default=None, description="when the bandwidths were measured; null: never"
    )

    @computed_field(  # type: ignore[prop-decorator]
        description="median client -> middleware round trip over the paths, us"
    )
    @property
    def client_middleware_rtt_us(self) -> float | None:
        return _median(leg_rtts_us(self.model_dump(include={"paths"}), "client", "middleware"))

    @computed_field(  # type: ignore[prop-decorator]
        description="median middleware -> server round trip over the paths, us"
    )
    @property
    def middleware_server_rtt_us(self) -> float | None:
        return _median(leg_rtts_us(self.model_dump(include={"paths"}), "middleware", "server"))

    @computed_field(  # type: ignore[prop-decorator]
        description="per role, the slowest host's upload, Mbit/s"
    )
    @property
    def bandwidth_by_role_mbit_s(self) -> dict[str, float]:
        return bandwidths_mbit_s(self.model_dump(include={"bandwidth"}))


def _median(values: list[float]) -> float | None:
    if not values:
        return None
    s = sorted(values)
    mid = len(s) // 2
    return s[mid] if len(s) % 2 else (s[mid - 1] + s[mid]) / 2


def network_public(stored: dict[str, Any] | None) -> NetworkPublic | None:
    """A stored probe as served; None when nothing was measured."""
    return NetworkPublic.model_validate(stored) if stored else None


class NetworkMeasure(RequestModel):
    """Measure a testbed's network now."""

    bandwidth: bool = Field(
        default=False,
        description="also measure each role host's upload with iperf3 (a few seconds per "
        "host; iperf3 must be installed on the hosts)",
    )
