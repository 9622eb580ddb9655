"""Per-configuration aggregation of stored run summaries (mean and std over repetitions).

Within one run, client instances are combined as the reports do: throughput is summed
and response time is the throughput-weighted mean. Repetitions are then averaged.
"""

from dataclasses import dataclass
from typing import Literal

from sqlalchemy import text
from sqlalchemy.orm import Session

from backend.models import RequestType

SourceKind = Literal["client", "middleware"]

_AGGREGATE_SQL = text(
    """
    WITH per_run AS (
        SELECT r.configuration_id,
               sum(s.throughput) AS tp,
               sum(s.throughput * s.response_time_us) / nullif(sum(s.throughput), 0) AS rt,
               sum(coalesce(s.keys_per_s, s.throughput)) AS kps
        FROM runs r
        JOIN run_summaries s ON s.run_id = r.id
        WHERE r.experiment_id = :experiment_id
          AND r.status = 'succeeded'
          AND s.request_type = CAST(:request_type AS request_type)
          AND s.source LIKE :source_pattern
        GROUP BY r.configuration_id, r.id
    )
    SELECT c.id, c.index, c."values",
           count(p.tp) AS n,
           avg(p.tp), stddev_samp(p.tp),
           avg(p.rt), stddev_samp(p.rt),
           avg(p.kps)
    FROM configurations c
    LEFT JOIN per_run p ON p.configuration_id = c.id
    WHERE c.experiment_id = :experiment_id
    GROUP BY c.id
    ORDER BY c.index
    """
)


# The same aggregation over any window [lo, hi) of seconds, read from the prefix sums of the
# per-second arrays: a few reads of in-row arrays per (run, source), whatever the window.
# Only the cumsum columns are touched: they are stored in the row, the raw arrays are not.
_WINDOW_SQL = text(
    """
    WITH per_source AS (
        SELECT r.configuration_id, r.id AS run_id,
               least(:hi, cardinality(s.throughput_cumsum) - 1) - :lo AS n,
               s.throughput_cumsum[least(:hi, cardinality(s.throughput_cumsum) - 1) + 1]
                 - s.throughput_cumsum[:lo + 1] AS tp_sum,
               s.weighted_latency_cumsum[least(:hi, cardinality(s.throughput_cumsum) - 1) + 1]
                 - s.weighted_latency_cumsum[:lo + 1] AS w_sum
        FROM runs r
        JOIN run_series s ON s.run_id = r.id
        WHERE r.experiment_id = :experiment_id
          AND r.status = 'succeeded'
          AND s.request_type = CAST(:request_type AS request_type)
          AND s.source LIKE :source_pattern
          AND cardinality(s.throughput_cumsum) - 1 > :lo
    ), per_run AS (
        SELECT configuration_id,
               sum(tp_sum / n) AS tp,
               sum(w_sum) / nullif(sum(tp_sum), 0) AS rt
        FROM per_source
        GROUP BY configuration_id, run_id
    )
    SELECT c.id, c.index, c."values",
           count(p.tp), avg(p.tp), stddev_samp(p.tp), avg(p.rt), stddev_samp(p.rt), NULL
    FROM configurations c
    LEFT JOIN per_run p ON p.configuration_id = c.id
    WHERE c.experiment_id = :experiment_id
    GROUP BY c.id
    ORDER BY c.index
    """
)


@dataclass(frozen=True)
class ConfigurationResult:
    configuration_id: int
    index: int
    values: dict[str, object]
    repetitions: int
    throughput_mean: float | None  # ops/s
    throughput_std: float | None
    response_time_us_mean: float | None
    response_time_us_std: float | None
    keys_per_s_mean: float | None


def aggregate_by_configuration(
    *, session: Session, experiment_id: int, source: SourceKind, request_type: RequestType
) -> list[ConfigurationResult]:
    rows = session.execute(
        _AGGREGATE_SQL,
        {
            "experiment_id": experiment_id,
            "request_type": request_type.value,
            "source_pattern": f"{source}:%",
        },
    ).all()
    return [ConfigurationResult(*row) for row in rows]


def aggregate_window_by_configuration(
    *,
    session: Session,
    experiment_id: int,
    source: SourceKind,
    request_type: RequestType,
    start_s: int,
    end_s: int,
) -> list[ConfigurationResult]:
    """Like aggregate_by_configuration, over seconds [start_s, end_s) of the stored series.

    Response time is request-weighted (each second weighted by its throughput); runs shorter
    than end_s contribute what they have; keys/s is not computed for custom windows.
    """
    rows = session.execute(
        _WINDOW_SQL,
        {
            "experiment_id": experiment_id,
            "request_type": request_type.value,
            "source_pattern": f"{source}:%",
            "lo": start_s,
            "hi": end_s,
        },
    ).all()
    return [ConfigurationResult(*row) for row in rows]
