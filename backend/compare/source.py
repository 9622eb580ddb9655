"""Where comparisons read their numbers: per configuration, (n, mean, std) over repetitions.

The one place that knows where comparison numbers come from: the results service
(`backend.results.read.run_values`), so a comparison's means are the results page's
means, over the same window, with the same instance rules. Everything in backend.compare goes
through `read_configurations`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from backend.compare.intervals import Sample
from backend.crud import results as crud
from backend.domain.compare import CompareMetric
from backend.domain.metrics import METRICS, SourceKind
from backend.models import RequestType
from backend.results.aggregate import Window, by_configuration, summarize
from backend.results.read import run_values


def metrics_of_source(source: SourceKind) -> list[CompareMetric]:
    """The metrics `source` reports, in table order (queue times are the middleware's)."""
    return [name for name, m in METRICS.items() if source in m.sources]


@dataclass(frozen=True)
class ConfigurationSamples:
    """One configuration's repetition statistics per metric (absent: no succeeded run)."""

    experiment_id: int
    configuration_id: int
    values: dict[str, Any]
    samples: dict[CompareMetric, Sample]


def read_configurations(
    *,
    session: Session,
    experiment_ids: Sequence[int],
    source: SourceKind,
    request_type: RequestType,
    window: tuple[int, int] | None,
    metrics: Sequence[CompareMetric],
    role: str | None = None,
) -> list[ConfigurationSamples]:
    """Every configuration of the experiments with `metrics`, in experiment then grid order
    (`role`: one role's processes of the process side).

    A metric that a re-cut window cannot give is an AnalysisError on `metric`.
    """
    out: list[ConfigurationSamples] = []
    for experiment_id in experiment_ids:
        runs = run_values(
            session=session,
            experiment_id=experiment_id,
            source=source,
            request_type=request_type,
            metrics=list(metrics),
            window=Window(*window) if window is not None else None,
            role=role,
        )
        per_metric = {m: by_configuration(runs, m) for m in metrics}
        for c in crud.read_configurations(session=session, experiment_id=experiment_id):
            samples = {
                m: Sample(s.n, s.mean, s.std)
                for m in metrics
                if (values := per_metric[m].get(c.id)) and (s := summarize(values))
            }
            out.append(ConfigurationSamples(experiment_id, c.id, dict(c.values), samples))
    return out
