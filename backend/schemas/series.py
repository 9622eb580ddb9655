"""Per-second series of one run, as served to the time-series view."""

from pydantic import BaseModel

from backend.domain.metrics import METRICS, SourceKind
from backend.models.enums import RequestType


class InstanceSeriesPublic(BaseModel):
    """One source instance; element i covers [offset_s + i, offset_s + i + 1)."""

    source: str
    offset_s: float
    throughput: list[float | None]
    response_time_us: list[float | None]
    queue_time_us: list[float | None] | None
    server_time_us: list[float | None] | None
    queue_length: list[float | None] | None
    # Every per-second metric of the metric table this source reports, by metric name: how
    # the monitor's host, net and process sources are read (their throughput is empty).
    metrics: dict[str, list[float | None]] = {}


class CombinedSeriesPublic(BaseModel):
    """Instances combined per second: throughput summed, response time throughput-weighted."""

    time_s: list[float]
    throughput: list[float]
    response_time_us: list[float | None]


class RunSeriesPublic(BaseModel):
    run_id: int
    experiment_id: int
    configuration_id: int
    repetition: int
    source: SourceKind
    request_type: RequestType
    # Unix time of second 0 (the load generators' start); None when nothing was stored.
    start_unix: float | None
    # The stable window [start, end) in seconds after start_unix.
    window_start_s: int
    window_end_s: int
    # True when read from the run's stored summaries, False when from the experiment's design.
    window_stored: bool
    units: dict[str, str]
    combined: CombinedSeriesPublic
    instances: list[InstanceSeriesPublic]


SERIES_UNITS = dict.fromkeys(("time_s", "offset_s", "window_start_s", "window_end_s"), "s") | {
    m.column: m.unit for m in METRICS.values() if m.column in InstanceSeriesPublic.model_fields
}
"""Units of the served fields: the metric columns' from the metric table."""
