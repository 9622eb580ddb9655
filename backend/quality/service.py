"""The quality of an experiment's stored runs: flags per run and per configuration.

Over the stored stable window, a run's flags are those computed at ingest (runs.quality); a
re-cut window recomputes them from the stored per-second series (the results' own rules),
keeping the whole-run ones (tool errors). Configuration flags (outlier repetitions) compare
the repetitions' window means the results table shows, over the same window.
"""

from collections import defaultdict
from dataclasses import dataclass, replace

from sqlalchemy.orm import Session

from backend.crud import results as crud
from backend.domain.metrics import METRICS, THROUGHPUT, MetricName
from backend.domain.parameters import virtual_clients
from backend.domain.quality import WHOLE_RUN, Flag, RunQuality
from backend.domain.stored_quality import quality_of
from backend.models import Experiment, RequestType, RunSeries
from backend.quality.check import run_flags
from backend.quality.evidence import MEANS, STEAL_COLUMN, evidence_from_series
from backend.quality.model import Thresholds
from backend.quality.outliers import outlier_flags
from backend.results import read as results
from backend.results.aggregate import SourceSeries, Window
from backend.results.selection import ResultsSelection

OUTLIER_METRICS: tuple[MetricName, ...] = ("throughput_per_s", "response_time_us")
NOT_COMPUTED = "results stored before quality flags existed"


@dataclass(frozen=True)
class RunFlags:
    run_id: int
    configuration_id: int
    repetition: int
    quality: RunQuality


@dataclass(frozen=True)
class ConfigurationFlags:
    """A configuration's own flags (outlier repetitions) and its runs that carry flags."""

    configuration_id: int
    flags: list[Flag]
    flagged_runs: list[int]


@dataclass(frozen=True)
class ExperimentQuality:
    runs: list[RunFlags]
    configurations: list[ConfigurationFlags]

    def flagged_run_ids(self) -> list[int]:
        """Every run with a flag of its own or named as an outlier repetition."""
        ids = {r.run_id for r in self.runs if r.quality.flags}
        ids |= {f.run_id for c in self.configurations for f in c.flags if f.run_id is not None}
        return sorted(ids)


def _recut(
    session: Session, experiment: Experiment, window: Window, th: Thresholds
) -> dict[int, RunQuality]:
    """Every run's flags recomputed over `window` from its stored series."""
    columns = [THROUGHPUT.column, *(METRICS[m].column for m in MEANS)]
    if hasattr(RunSeries, STEAL_COLUMN):  # machine monitoring stores steal per host
        columns.append(STEAL_COLUMN)
    series: dict[int, list[SourceSeries]] = defaultdict(list)
    for row in crud.read_series(
        session=session,
        experiment_id=experiment.id,
        request_type=RequestType.ALL,
        columns=list(dict.fromkeys(columns)),
    ):
        series[row.ref.run_id].append(SourceSeries(row.source, row.start_unix, row.values))
    params = {
        c.id: c.params for c in results.configurations(session=session, experiment=experiment)
    }
    out: dict[int, RunQuality] = {}
    for run_id, config_id, _rep, stored in crud.read_quality_of_runs(
        session=session, experiment_id=experiment.id
    ):
        if stored is None or run_id not in series:
            continue
        ev = evidence_from_series(
            series[run_id],
            window,
            clients=virtual_clients(params[config_id]),
            expects_no_misses=bool(stored.get("expects_no_misses")),
            tool_errors=None,
        )
        fresh = run_flags(ev, th)
        whole = [f for f in quality_of(stored).flags if f.code in WHOLE_RUN]
        out[run_id] = RunQuality(fresh.flags + whole, fresh.not_measured)
    return out


def experiment_quality(*, session: Session, selection: ResultsSelection) -> ExperimentQuality:
    """Flags of every run with results and of every configuration, over the selection's window
    (flags cover every source and request type; outliers compare the clients' means)."""
    experiment, window = selection.experiment, selection.window
    th = Thresholds.from_settings()
    recut = _recut(session, experiment, window, th) if window is not None else {}
    runs = []
    for run_id, config_id, rep, stored in crud.read_quality_of_runs(
        session=session, experiment_id=experiment.id
    ):
        if window is not None and run_id in recut:
            quality = recut[run_id]
        elif stored is not None:
            quality = quality_of(stored)
        else:
            quality = RunQuality([], {"all": NOT_COMPUTED})
        runs.append(RunFlags(run_id, config_id, rep, quality))
    clients = replace(selection, source="client", request_type=RequestType.ALL)
    values = results.selected_run_values(
        session=session, selection=clients, metrics=list(OUTLIER_METRICS)
    )
    own: dict[int, list[Flag]] = defaultdict(list)
    for metric in OUTLIER_METRICS:
        reps: dict[int, list[tuple[int, float]]] = defaultdict(list)
        for v in values:
            x = v.values.get(metric)
            if x is not None:
                reps[v.configuration_id].append((v.run_id, x))
        for config_id, pairs in reps.items():
            own[config_id] += outlier_flags(metric, sorted(pairs), th)
    flagged: dict[int, list[int]] = defaultdict(list)
    for r in runs:
        if r.quality.flags:
            flagged[r.configuration_id].append(r.run_id)
    configs = sorted(set(own) | set(flagged))
    return ExperimentQuality(
        runs, [ConfigurationFlags(c, own.get(c, []), flagged.get(c, [])) for c in configs]
    )


def flagged_configurations(*, session: Session, experiment_ids: list[int]) -> set[int]:
    """Configurations (of these experiments) with a flag of their own or a flagged run, over
    the stored window: compare marks a difference whose inputs are among them."""
    out: set[int] = set()
    for exp_id in experiment_ids:
        experiment = session.get(Experiment, exp_id)
        if experiment is None:
            continue
        q = experiment_quality(session=session, selection=ResultsSelection(experiment))
        out |= {c.configuration_id for c in q.configurations if c.flags or c.flagged_runs}
    return out
