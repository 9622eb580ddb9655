"""Result storage, designed for fast aggregation over thousands of runs.

Per-second samples are stored as one row per (run, source, request type) holding
float8[] arrays, not one row per second: 2,000 runs x 10 sources is 20k rows, not 6M.
Summaries over the stable window are computed once at ingest, so the main per-configuration
aggregation reads one small row per run and source; prefix-sum columns let a user re-cut the
window without re-reading every second.
"""

from typing import TYPE_CHECKING, Any

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
from sqlalchemy.orm.decl_api import DeclarativeAttributeIntercept

from backend.domain.stored_columns import StoredTable, all_stored_columns
from backend.models.base import Base
from backend.models.enums import (
    HistogramMetric,
    RequestType,
    histogram_metric_enum,
    request_type_enum,
)

FloatArray = ARRAY(Float(precision=53), dimensions=1)


class _MetricColumns(DeclarativeAttributeIntercept):
    """Metaclass of the tables whose metric columns are added from the metric table
    (add_metric_columns): to mypy, any other attribute of such a class is one of them."""

    if TYPE_CHECKING:

        def __getattr__(cls, name: str) -> Any: ...


class RunSeries(Base, metaclass=_MetricColumns):
    """Per-second samples of one source (e.g. "client:0", "middleware:1") for one request type."""

    __tablename__ = "run_series"
    __table_args__ = (UniqueConstraint("run_id", "source", "request_type"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), index=True)
    source: Mapped[str] = mapped_column(String(64))
    request_type: Mapped[RequestType] = mapped_column(request_type_enum)
    # Unix time of element 0; element i covers [start_unix + i, start_unix + i + 1).
    start_unix: Mapped[float] = mapped_column(Float(precision=53))
    # The metric columns (per-second arrays and their prefix sums) are built from the metric
    # table below the class (add_metric_columns).
    if TYPE_CHECKING:

        def __getattr__(self, name: str) -> Any: ...


class RunSummary(Base, metaclass=_MetricColumns):
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
    response_time_std_us: Mapped[float | None] = mapped_column(Float(precision=53))
    # Completions with a measured response time in the window: the weight of this source's
    # time means when instances are combined (backend/results/aggregate.py, rule 3).
    weight: Mapped[float | None] = mapped_column(Float(precision=53))
    # The metric columns (stable-window values) are built from the metric table below the
    # class (add_metric_columns).
    if TYPE_CHECKING:

        def __getattr__(self, name: str) -> Any: ...


def add_metric_columns(cls: type[Base], table: StoredTable) -> None:
    """Maps one column per stored column of the metric table (backend/domain/stored_columns.py):
    float8[] series and their PostgreSQL-computed prefix sums in run_series (migration 0003:
    NaN counts as 0 in sums and is left out of time means, so any window of a source is two
    array reads per row; see backend/crud/fast_path.py), float8 window values in
    run_summaries."""
    for c in all_stored_columns(table):
        kind = FloatArray if c.array else Float(precision=53)
        extra = (Computed(c.computed, persisted=True),) if c.computed else ()
        setattr(cls, c.name, mapped_column(c.name, kind, *extra, nullable=c.nullable))


add_metric_columns(RunSeries, "run_series")
add_metric_columns(RunSummary, "run_summaries")


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
