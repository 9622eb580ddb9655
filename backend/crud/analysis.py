"""Stored-result queries for the analysis endpoints (keyword-only, no HTTP errors)."""

from typing import Literal

from sqlalchemy import Select, select
from sqlalchemy.orm import Session

from backend.analysis.experiment import SourceRow
from backend.analysis.percentiles import Histogram, make_histogram
from backend.models import (
    Configuration,
    HistogramMetric,
    RequestType,
    Run,
    RunHistogram,
    RunStatus,
    RunSummary,
)

SourceKind = Literal["client", "middleware"]


def read_configurations(*, session: Session, experiment_id: int) -> list[Configuration]:
    """The experiment's grid points in index order."""
    stmt = (
        select(Configuration)
        .where(Configuration.experiment_id == experiment_id)
        .order_by(Configuration.index)
    )
    return list(session.scalars(stmt))


def read_source_rows(
    *, session: Session, experiment_id: int, source: SourceKind, request_type: RequestType
) -> list[SourceRow]:
    """Stable-window summaries of every succeeded run, one row per run x matching source."""
    stmt = (
        select(Run.id, Run.configuration_id, Run.repetition, RunSummary)
        .join(RunSummary, RunSummary.run_id == Run.id)
        .where(
            Run.experiment_id == experiment_id,
            Run.status == RunStatus.SUCCEEDED,
            RunSummary.request_type == request_type,
            RunSummary.source.like(f"{source}:%"),
        )
        .order_by(Run.id, RunSummary.source)
    )
    return [
        SourceRow(
            run_id=run_id,
            configuration_id=config_id,
            repetition=rep,
            source=s.source,
            throughput_per_s=s.throughput,
            keys_per_s=s.keys_per_s,
            response_time_us=s.response_time_us,
            p50_us=s.p50_us,
            p90_us=s.p90_us,
            p99_us=s.p99_us,
            queue_time_us=s.queue_time_us,
            server_time_us=s.server_time_us,
            processing_time_us=s.processing_time_us,
            queue_length=s.queue_length,
        )
        for run_id, config_id, rep, s in session.execute(stmt)
    ]


def read_histograms(
    *,
    session: Session,
    experiment_id: int,
    configuration_id: int,
    source: SourceKind,
    request_type: RequestType,
    metric: HistogramMetric,
) -> list[Histogram]:
    """Histograms of every succeeded run of one configuration, all matching sources."""
    stmt = _succeeded_histograms(experiment_id, source, request_type, metric).where(
        Run.configuration_id == configuration_id
    )
    return [_as_histogram(h) for h in session.scalars(stmt)]


def read_histograms_by_configuration(
    *,
    session: Session,
    experiment_id: int,
    source: SourceKind,
    request_type: RequestType,
    metric: HistogramMetric,
) -> dict[int, list[Histogram]]:
    """Per configuration id, the histograms of its succeeded runs (one query for the grid)."""
    stmt = _succeeded_histograms(experiment_id, source, request_type, metric).add_columns(
        Run.configuration_id
    )
    out: dict[int, list[Histogram]] = {}
    for h, config_id in session.execute(stmt):
        out.setdefault(config_id, []).append(_as_histogram(h))
    return out


def _succeeded_histograms(
    experiment_id: int, source: SourceKind, request_type: RequestType, metric: HistogramMetric
) -> Select[tuple[RunHistogram]]:
    """Stored histograms of an experiment's succeeded runs for one source kind, type and metric."""
    return (
        select(RunHistogram)
        .join(Run, Run.id == RunHistogram.run_id)
        .where(
            Run.experiment_id == experiment_id,
            Run.status == RunStatus.SUCCEEDED,
            RunHistogram.request_type == request_type,
            RunHistogram.metric == metric,
            RunHistogram.source.like(f"{source}:%"),
        )
        .order_by(RunHistogram.id)
    )


def _as_histogram(h: RunHistogram) -> Histogram:
    return make_histogram(h.upper_bounds_us, h.counts, float(h.overflow))
