"""The raw numbers behind a report: one row per run and source, as stored."""

from typing import get_args

from sqlalchemy.orm import Session

from backend.crud.results import read_configurations, read_summaries
from backend.domain.labels import format_level, parameter_title, sentence_case
from backend.domain.metrics import METRICS, SourceKind
from backend.figures.labels import printed_unit
from backend.models import Experiment, RequestType
from backend.tables.catalog import ExperimentInfo
from backend.tables.table import Cell, Column, Table


def runs_table(session: Session, exp: Experiment) -> Table:
    """Every succeeded run's stable-window summary per source (clients, middlewares and the
    monitor's hosts, interfaces and processes)."""
    info = ExperimentInfo.of(exp)
    configs = {c.id: c for c in read_configurations(session=session, experiment_id=exp.id)}
    factors = list(info.factors)
    rows: list[list[Cell]] = []
    for kind in get_args(SourceKind):
        for ref, summary in read_summaries(
            session=session, experiment_id=exp.id, source=kind, request_type=RequestType.ALL
        ):
            config = configs[ref.configuration_id]
            rows.append(
                [
                    config.index,
                    *(format_level(config.values.get(f)) for f in factors),
                    ref.repetition,
                    ref.run_id,
                    summary.source,
                    *(getattr(summary, m.column) for m in METRICS.values()),
                ]
            )
    rows.sort(key=lambda row: (row[0], row[len(factors) + 1], str(row[len(factors) + 3])))
    return Table(
        [
            Column("Configuration", decimals=0),
            *(Column(parameter_title(f)) for f in factors),
            Column("Repetition", decimals=0),
            Column("Run", decimals=0),
            Column("Source"),
            *(Column(sentence_case(m.label), printed_unit(m.unit), 3) for m in METRICS.values()),
        ],
        rows,
        f"Per-run, per-source results of experiment {info.name} (stable window).",
        info.label("runs"),
    )
