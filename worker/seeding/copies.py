"""Runs at scale: copies of runs that went through the real path (thousands of runs in a few
seconds, where the real path takes a fraction of a second each).

Each copy is a succeeded run of its own configuration whose result rows are those the worker
stored for a template run (same sources, series, summaries and histograms, copied in SQL):
the figures are the template's, never invented ones.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Table, func, insert, select
from sqlalchemy.orm import Session

from backend.models import (
    Configuration,
    Run,
    RunHistogram,
    RunSeries,
    RunStatus,
    RunSummary,
    RunWindowHistogram,
)

RESULT_MODELS = (RunSeries, RunSummary, RunHistogram, RunWindowHistogram)


def copy_runs(session: Session, pairs: Sequence[tuple[Configuration, int, int]]) -> list[int]:
    """One succeeded run per (configuration, repetition, template run id), with the template
    run's result rows; returns the new run ids."""
    templates = {
        r.id: r for r in session.scalars(select(Run).where(Run.id.in_({t for *_, t in pairs})))
    }
    runs = [
        Run(
            experiment_id=config.experiment_id,
            configuration_id=config.id,
            repetition=repetition,
            status=RunStatus.SUCCEEDED,
            attempt=1,
            started_at=templates[template].started_at,
            finished_at=templates[template].finished_at,
            hosts=templates[template].hosts,
            tool_versions=templates[template].tool_versions,
            commands=[],
        )
        for config, repetition, template in pairs
    ]
    session.add_all(runs)
    session.flush()
    new_ids = [r.id for r in runs]
    mapping = select(
        func.unnest(new_ids).label("new_id"),
        func.unnest([t for *_, t in pairs]).label("template_id"),
    ).subquery()
    for model in RESULT_MODELS:
        table = model.__table__
        assert isinstance(table, Table)
        # Generated columns (prefix sums) are computed by the database for the copies too.
        columns = [
            c for c in table.columns if c.name not in ("id", "run_id") and c.computed is None
        ]
        rows = select(mapping.c.new_id, *columns).join(
            mapping, mapping.c.template_id == table.c.run_id
        )
        session.execute(insert(table).from_select(["run_id", *(c.name for c in columns)], rows))
    session.commit()
    return new_ids
