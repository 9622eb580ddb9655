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
