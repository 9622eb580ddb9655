"""The noise of an experiment already run: the pooled standard deviation of a metric over the
repetitions of each configuration (the error a later design's power is planned with)."""

import math

from sqlalchemy.orm import Session

from backend.analysis.errors import AnalysisError
from backend.domain.metrics import MetricName
from backend.models import Experiment, RequestType
from backend.results.aggregate import by_configuration
from backend.results.read import run_values


def pooled_std(
    *, session: Session, experiment: Experiment, metric: MetricName
) -> tuple[float, int]:
    """sqrt(sum (n_i - 1) s_i^2 / sum (n_i - 1)) over configurations with repetitions, and its
    degrees of freedom (runs minus configurations): the error variance of a one-way model,
    as Jain's s_e^2 pools the cells of a 2^k r design."""
    runs = run_values(
        session=session,
        experiment_id=experiment.id,
        source="client",
        request_type=RequestType.ALL,
        metrics=[metric],
    )
    squares, dof = 0.0, 0
    for values in by_configuration(runs, metric).values():
        n = len(values)
        if n >= 2:
            mean = sum(values) / n
            squares += sum((v - mean) ** 2 for v in values)
            dof += n - 1
    if dof == 0 or squares == 0:
        raise AnalysisError(
            "noise_experiment_id",
            f"experiment {experiment.id} has no configuration with two succeeded runs "
            f"measuring {metric} that differ",
        )
    return math.sqrt(squares / dof), dof
