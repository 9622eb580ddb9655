"""Result storage, designed for fast aggregation over thousands of runs.

Per-second samples are stored as one row per (run, source, request type) holding
float8[] arrays, not one row per second: 2,000 runs x 10 sources is 20k rows, not 6M.
Summaries over the stable window are computed once at ingest, so the main per-configuration
aggregation reads one small row per run and source; prefix-sum columns let a user re-cut the
window without re-reading every second.
"""

from sqlalchemy import (
    BigInteger,
    Computed,
    Float,
    ForeignKey,
    Integer,
    LargeBinary,
    String,
    UniqueConstraint,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Mapped, mapped_column

from backend.models.base import Base
from backend.models.enums import (
    HistogramMetric,
    RequestType,
    histogram_metric_enum,
    request_type_enum,
)

FloatArray = ARRAY(Float(precision=53), dimensions=1)


class RunSeries(Base):
    """Per-second samples of one source (e.g. "client:0", "middleware:1") for one request type."""

    __tablename__ = "run_series"
    __table_args__ = (UniqueConstraint("run_id", "source", "request_type"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), index=True)
    source: Mapped[str] = mapped_column(String(64))
    request_type: Mapped[RequestType] = mapped_column(request_type_enum)
    # Unix time of element 0; element i covers [start_unix + i, start_unix + i + 1).
    start_unix: Mapped[float] = mapped_column(Float(precision=53))
    throughput: Mapped[list[float]] = mapped_column(FloatArray)  # ops/s
    response_time_us: Mapped[list[float]] = mapped_column(FloatArray)
    keys_per_s: Mapped[list[float] | None] = mapped_column(FloatArray)
    misses_per_s: Mapped[list[float] | None] = mapped_column(FloatArray)
    # Middleware sources only.
    queue_time_us: Mapped[list[float] | None] = mapped_column(FloatArray)
    server_time_us: Mapped[list[float] | None] = mapped_column(FloatArray)
    processing_time_us: Mapped[list[float] | None] = mapped_column(FloatArray)
    queue_length: Mapped[list[float] | None] = mapped_column(FloatArray)
    # The tool's own per-second percentiles (memtier's Time-Serie; migration 0011).
    p50_us: Mapped[list[float] | None] = mapped_column(FloatArray)
    p90_us: Mapped[list[float] | None] = mapped_column(FloatArray)
    p99_us: Mapped[list[float] | None] = mapped_column(FloatArray)
    # Prefix sums (leading 0) of the metric table's `fast` metrics, computed by PostgreSQL
    # (migration 0003; NaN counts as 0 in sums and is left out of time means): any window of
    # a source is then two array reads per row instead of an unnest. See
    # backend/results/fast_path.py for the names and backend/results/aggregate.py for the rules.
    throughput_cumsum: Mapped[list[float]] = mapped_column(
        FloatArray, Computed("mcscope_cumsum(throughput)", persisted=True)
    )
    keys_per_s_cumsum: Mapped[list[float] | None] = mapped_column(
        FloatArray, Computed("mcscope_cumsum(keys_per_s)", persisted=True)
    )
    response_time_us_wcumsum: Mapped[list[float]] = mapped_column(
        FloatArray,
        Computed("mcscope_weighted_cumsum(throughput, response_time_us)", persisted=True),
    )
    response_time_us_weight_cumsum: Mapped[list[float]] = mapped_column(
        FloatArray,
        Computed("mcscope_weight_cumsum(throughput, response_time_us)", persisted=True),
    )
    # Migration 0008: the other per-second metrics.
    misses_per_s_cumsum: Mapped[list[float] | None] = mapped_column(
        FloatArray, Computed("mcscope_cumsum(misses_per_s)", persisted=True)
    )
    queue_length_cumsum: Mapped[list[float] | None] = mapped_column(
        FloatArray, Computed("mcscope_cumsum(queue_length)", persisted=True)
    )
    queue_time_us_wcumsum: Mapped[list[float] | None] = mapped_column(
        FloatArray, Computed("mcscope_weighted_cumsum(throughput, queue_time_us)", persisted=True)
    )
    queue_time_us_weight_cumsum: Mapped[list[float] | None] = mapped_column(
        FloatArray, Computed("mcscope_weight_cumsum(throughput, queue_time_us)", persisted=True)
    )
    server_time_us_wcumsum: Mapped[list[float] | None] = mapped_column(
        FloatArray, Computed("mcscope_weighted_cumsum(throughput, server_time_us)", persisted=True)
    )
    server_time_us_weight_cumsum: Mapped[list[float] | None] = mapped_column(
        FloatArray, Computed("mcscope_weight_cumsum(throughput, server_time_us)", persisted=True)
    )
    processing_time_us_wcumsum: Mapped[list[float] | None] = mapped_column(
        FloatArray,
        Computed("mcscope_weighted_cumsum(throughput, processing_time_us)", persisted=True),
    )
    processing_time_us_weight_cumsum: Mapped[list[float] | None] = mapped_column(
        FloatArray,
        Computed("mcscope_weight_cumsum(throughput, processing_time_us)", persisted=True),
    )
    # Migration 0011: the per-second percentiles.
    p50_us_wcumsum: Mapped[list[float] | None] = mapped_column(
        FloatArray, Computed("mcscope_weighted_cumsum(throughput, p50_us)", persisted=True)
    )
    p50_us_weight_cumsum: Mapped[list[float] | None] = mapped_column(
        FloatArray, Computed("mcscope_weight_cumsum(throughput, p50_us)", persisted=True)
    )
    p90_us_wcumsum: Mapped[list[float] | None] = mapped_column(
        FloatArray, Computed("mcscope_weighted_cumsum(throughput, p90_us)", persisted=True)
    )
    p90_us_weight_cumsum: Mapped[list[float] | None] = mapped_column(
        FloatArray, Computed("mcscope_weight_cumsum(throughput, p90_us)", persisted=True)
    )
    p99_us_wcumsum: Mapped[list[float] | None] = mapped_column(
        FloatArray, Computed("mcscope_weighted_cumsum(throughput, p99_us)", persisted=True)
    )
    p99_us_weight_cumsum: Mapped[list[float] | None] = mapped_column(
        FloatArray, Computed("mcscope_weight_cumsum(throughput, p99_us)", persisted=True)
    )
    # Migration 0021: the monitor's series (host, interface and process sources; their
    # throughput is NaN: no requests are measured there, it only gives the series' length).
    host_cpu_user_pct: Mapped[list[float] | None] = mapped_column(FloatArray)
    host_cpu_system_pct: Mapped[list[float] | None] = mapped_column(FloatArray)
    host_cpu_iowait_pct: Mapped[list[float] | None] = mapped_column(FloatArray)
    host_cpu_steal_pct: Mapped[list[float] | None] = mapped_column(FloatArray)
    host_cpu_busy_pct: Mapped[list[float] | None] = mapped_column(FloatArray)
    host_cpus: Mapped[list[float] | None] = mapped_column(FloatArray)
    host_mem_used_bytes: Mapped[list[float] | None] = mapped_column(FloatArray)
    net_rx_bytes_per_s: Mapped[list[float] | None] = mapped_column(FloatArray)
    net_tx_bytes_per_s: Mapped[list[float] | None] = mapped_column(FloatArray)
    net_rx_packets_per_s: Mapped[list[float] | None] = mapped_column(FloatArray)
    net_tx_packets_per_s: Mapped[list[float] | None] = mapped_column(FloatArray)
    process_cpu_pct: Mapped[list[float] | None] = mapped_column(FloatArray)
    host_cpu_user_pct_cumsum: Mapped[list[float] | None] = mapped_column(
        FloatArray, Computed("mcscope_cumsum(host_cpu_user_pct)", persisted=True)
    )
    host_cpu_system_pct_cumsum: Mapped[list[float] | None] = mapped_column(
        FloatArray, Computed("mcscope_cumsum(host_cpu_system_pct)", persisted=True)
    )
    host_cpu_iowait_pct_cumsum: Mapped[list[float] | None] = mapped_column(
        FloatArray, Computed("mcscope_cumsum(host_cpu_iowait_pct)", persisted=True)
    )
    host_cpu_steal_pct_cumsum: Mapped[list[float] | None] = mapped_column(
        FloatArray, Computed("mcscope_cumsum(host_cpu_steal_pct)", persisted=True)
    )
    host_cpu_busy_pct_cumsum: Mapped[list[float] | None] = mapped_column(
        FloatArray, Computed("mcscope_cumsum(host_cpu_busy_pct)", persisted=True)
    )
    host_cpus_cumsum: Mapped[list[float] | None] = mapped_column(
        FloatArray, Computed("mcscope_cumsum(host_cpus)", persisted=True)
    )
    host_mem_used_bytes_cumsum: Mapped[list[float] | None] = mapped_column(
        FloatArray, Computed("mcscope_cumsum(host_mem_used_bytes)", persisted=True)
    )
    net_rx_bytes_per_s_cumsum: Mapped[list[float] | None] = mapped_column(
        FloatArray, Computed("mcscope_cumsum(net_rx_bytes_per_s)", persisted=True)
    )
    net_tx_bytes_per_s_cumsum: Mapped[list[float] | None] = mapped_column(
        FloatArray, Computed("mcscope_cumsum(net_tx_bytes_per_s)", persisted=True)
    )
    net_rx_packets_per_s_cumsum: Mapped[list[float] | None] = mapped_column(
        FloatArray, Computed("mcscope_cumsum(net_rx_packets_per_s)", persisted=True)
    )
    net_tx_packets_per_s_cumsum: Mapped[list[float] | None] = mapped_column(
        FloatArray, Computed("mcscope_cumsum(net_tx_packets_per_s)", persisted=True)
    )
    process_cpu_pct_cumsum: Mapped[list[float] | None] = mapped_column(
        FloatArray, Computed("mcscope_cumsum(process_cpu_pct)", persisted=True)
    )


class RunSummary(Base):
    """Means over the stable window (warm-up and cool-down cut) of one source and type."""

    __tablename__ = "run_summaries"
    __table_args__ = (UniqueConstraint("run_id", "source", "request_type"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), index=True)
    source: Mapped[str] = mapped_column(String(64))
    request_type: Mapped[RequestType] = mapped_column(request_type_enum)
    window_start_s: Mapped[int] = mapped_column(Integer)
    window_end_s: Mapped[int] = mapped_column(Integer)
    count: Mapped[int] = mapped_column(BigInteger)
    throughput: Mapped[float] = mapped_column(Float(precision=53))  # ops/s
    keys_per_s: Mapped[float | None] = mapped_column(Float(precision=53))
    misses_per_s: Mapped[float | None] = mapped_column(Float(precision=53))
    response_time_us: Mapped[float] = mapped_column(Float(precision=53))
    response_time_std_us: Mapped[float | None] = mapped_column(Float(precision=53))
    p50_us: Mapped[float | None] = mapped_column(Float(precision=53))
    p90_us: Mapped[float | None] = mapped_column(Float(precision=53))
    p99_us: Mapped[float | None] = mapped_column(Float(precision=53))
    queue_time_us: Mapped[float | None] = mapped_column(Float(precision=53))
    server_time_us: Mapped[float | None] = mapped_column(Float(precision=53))
    processing_time_us: Mapped[float | None] = mapped_column(Float(precision=53))
    queue_length: Mapped[float | None] = mapped_column(Float(precision=53))
    # Completions with a measured response time in the window: the weight of this source's
    # time means when instances are combined (backend/results/aggregate.py, rule 3).
    weight: Mapped[float | None] = mapped_column(Float(precision=53))
    # Migration 0021: the monitor's window means (metric table, backend/results/metrics.py).
    host_cpu_user_pct: Mapped[float | None] = mapped_column(Float(precision=53))
    host_cpu_system_pct: Mapped[float | None] = mapped_column(Float(precision=53))
    host_cpu_iowait_pct: Mapped[float | None] = mapped_column(Float(precision=53))
    host_cpu_steal_pct: Mapped[float | None] = mapped_column(Float(precision=53))
    host_cpu_busy_pct: Mapped[float | None] = mapped_column(Float(precision=53))
    host_cpus: Mapped[float | None] = mapped_column(Float(precision=53))
    host_mem_used_bytes: Mapped[float | None] = mapped_column(Float(precision=53))
    net_rx_bytes_per_s: Mapped[float | None] = mapped_column(Float(precision=53))
    net_tx_bytes_per_s: Mapped[float | None] = mapped_column(Float(precision=53))
    net_rx_packets_per_s: Mapped[float | None] = mapped_column(Float(precision=53))
    net_tx_packets_per_s: Mapped[float | None] = mapped_column(Float(precision=53))
    process_cpu_pct: Mapped[float | None] = mapped_column(Float(precision=53))


class RunHistogram(Base):
    """A latency histogram; buckets may be uneven (memaslap's log2), so bounds are stored."""

    __tablename__ = "run_histograms"
    __table_args__ = (UniqueConstraint("run_id", "source", "request_type", "metric"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), index=True)
    source: Mapped[str] = mapped_column(String(64))
    request_type: Mapped[RequestType] = mapped_column(request_type_enum)
    metric: Mapped[HistogramMetric] = mapped_column(histogram_metric_enum)
    upper_bounds_us: Mapped[list[float]] = mapped_column(FloatArray)
    counts: Mapped[list[int]] = mapped_column(ARRAY(BigInteger, dimensions=1))
    overflow: Mapped[int] = mapped_column(BigInteger, default=0)


class RunWindowHistogram(Base):
    """Per-window latency histograms of one middleware source, stored for fast window re-cuts.

    `cum` holds `windows` rows of `width` little-endian int32 counts (int64 when a count
    does not fit: the item size is len(cum) / (windows * width)): row w is the count of
    buckets first_bucket .. first_bucket + width - 1 over windows 0..w (cumulative), in the
    log-linear layout (sub_buckets, bucket_count; backend/results/log_buckets.py; index
    bucket_count is the overflow bucket). Window w covers [start_unix + w, start_unix + w + 1),
    like element w of the source's RunSeries. Any window's histogram is row b-1 minus row a-1:
    the column is stored uncompressed (STORAGE EXTERNAL), so PostgreSQL reads just those two
    slices (substring), not the whole run. Request type "all" is not stored: it is the sum of
    the types' rows.
    """

    __tablename__ = "run_window_histograms"
    __table_args__ = (UniqueConstraint("run_id", "source", "request_type", "metric"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), index=True)
    source: Mapped[str] = mapped_column(String(64))
    request_type: Mapped[RequestType] = mapped_column(request_type_enum)
    metric: Mapped[HistogramMetric] = mapped_column(histogram_metric_enum)
    start_unix: Mapped[float] = mapped_column(Float(precision=53))
    sub_buckets: Mapped[int] = mapped_column(Integer)
    bucket_count: Mapped[int] = mapped_column(Integer)
    first_bucket: Mapped[int] = mapped_column(Integer)
    width: Mapped[int] = mapped_column(Integer)
    windows: Mapped[int] = mapped_column(Integer)
    cum: Mapped[bytes] = mapped_column(LargeBinary)
