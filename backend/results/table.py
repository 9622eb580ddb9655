"""The results table (`/experiments/{id}/results`): throughput, response time and keys/s per
configuration, mean and std over repetitions, read through the results read path."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from backend.crud import results as crud
from backend.results import rule_status
from backend.results.aggregate import by_configuration, summarize
from backend.results.read import selected_run_values
from backend.results.selection import ResultsSelection
from backend.schemas.results import RESULTS_UNITS, ConfigurationResultPublic, ResultsPublic


@dataclass(frozen=True)
class ConfigurationResult:
    """Throughput and response time of one configuration, over repetitions (`/results`)."""

    configuration_id: int
    index: int
    values: dict[str, Any]
    repetitions: int
    throughput_mean: float | None  # ops/s
    throughput_std: float | None
    response_time_us_mean: float | None
    response_time_us_std: float | None
    keys_per_s_mean: float | None


def results_table(*, session: Session, selection: ResultsSelection) -> list[ConfigurationResult]:
    """The results table: throughput, response time and keys/s per configuration."""
    runs = selected_run_values(
        session=session,
        selection=selection,
        metrics=["throughput_per_s", "response_time_us", "keys_per_s"],
    )
    data = {n: by_configuration(runs, n) for n in ("throughput_per_s", "response_time_us")}
    keys = by_configuration(runs, "keys_per_s")
    out = []
    for c in crud.read_configurations(session=session, experiment_id=selection.experiment.id):
        x, r, k = (
            data["throughput_per_s"].get(c.id),
            data["response_time_us"].get(c.id),
            keys.get(c.id),
        )
        sx, sr, sk = (summarize(v) if v else None for v in (x, r, k))
        out.append(
            ConfigurationResult(
                c.id,
                c.index,
                c.values,
                sx.n if sx else 0,
                sx.mean if sx else None,
                sx.std if sx else None,
                sr.mean if sr else None,
                sr.std if sr else None,
                sk.mean if sk else None,
            )
        )
    return out


def results_public(*, session: Session, selection: ResultsSelection) -> ResultsPublic:
    """The results table as served, each configuration with why its repetitions stopped."""
    rows = results_table(session=session, selection=selection)
    why = rule_status.reasons(session=session, experiment=selection.experiment)
    window = selection.window
    return ResultsPublic(
        source=selection.source,
        request_type=selection.request_type,
        window_start_s=window.start_s if window else None,
        window_end_s=window.end_s if window else None,
        units=RESULTS_UNITS,
        data=[
            ConfigurationResultPublic(**r.__dict__, repetitions_reason=why.get(r.configuration_id))
            for r in rows
        ],
    )
