"""The one function through which the model views read an experiment's measurements.

Clients and middlewares are read separately through the results service
(backend/results/read.py: each run's instances combined by the metric table's rules, over
the stored stable window or a re-cut window); mean and std over repetitions follow.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from backend.analysis.experiment import total_clients
from backend.crud.results import read_configurations
from backend.domain.grid import effective_parameters
from backend.domain.metrics import MIDDLEWARE_ONLY, MetricName
from backend.modelfit.fit import MeasuredConfig, Stat
from backend.results import read
from backend.results.aggregate import RunValues, by_configuration, summarize
from backend.results.selection import ResultsSelection

CLIENT_METRICS: tuple[MetricName, ...] = ("throughput_per_s", "response_time_us")
MIDDLEWARE_METRICS: tuple[MetricName, ...] = (
    *CLIENT_METRICS,
    *(m.name for m in MIDDLEWARE_ONLY),
)
"""The middleware's side: the clients' metrics and every metric only a middleware measures
(queue, server and processing time, queue length, ...: the metric table's)."""


def _stats(runs: list[RunValues], metrics: tuple[MetricName, ...]) -> dict[int, dict[str, Stat]]:
    out: dict[int, dict[str, Stat]] = {}
    for metric in metrics:
        for config_id, values in by_configuration(runs, metric).items():
            s = summarize(values)
            out.setdefault(config_id, {})[metric] = Stat(s.mean, s.std, s.n)
    return out


def _side(
    session: Session, selection: ResultsSelection, metrics: tuple[MetricName, ...]
) -> dict[int, dict[str, Stat]]:
    runs = read.selected_run_values(session=session, selection=selection, metrics=metrics)
    return _stats(runs, metrics)


def measured_configs(*, session: Session, selection: ResultsSelection) -> list[MeasuredConfig]:
    """Every configuration of the experiment with its client and middleware measurements."""
    experiment = selection.experiment
    client = _side(session, selection.on("client"), CLIENT_METRICS)
    middleware = _side(session, selection.on("middleware"), MIDDLEWARE_METRICS)
    out = []
    for c in read_configurations(session=session, experiment_id=experiment.id):
        params = effective_parameters(c.values, experiment.fixed)
        out.append(
            MeasuredConfig(
                configuration_id=c.id,
                index=c.index,
                values=c.values,
                params=params,
                clients=total_clients(params),
                client=client.get(c.id, {}),
                middleware=middleware.get(c.id, {}),
            )
        )
    return out
