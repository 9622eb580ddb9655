"""Experiment persistence: create/update with their grid, list, duplicate, status counts."""

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from backend.domain.design import Design
from backend.domain.templates import Template
from backend.models import Configuration, Experiment, Run, RunStatus
from backend.schemas.experiment import ExperimentBase, ExperimentStatus


def get_by_name(*, session: Session, name: str) -> Experiment | None:
    return session.scalar(select(Experiment).where(Experiment.name == name))


def create_experiment(*, session: Session, spec: ExperimentBase, design: Design) -> Experiment:
    exp = Experiment(
        **spec.model_dump(exclude={"factors", "fixed"}), factors=design.factors, fixed=design.fixed
    )
    session.add(exp)
    session.flush()
    _write_configurations(session=session, experiment=exp, points=_points(spec, design))
    return exp


def _points(spec: ExperimentBase, design: Design) -> list[dict[str, Any]]:
    """A grid stores its points; a latency-SLO search adds its probes' as it runs."""
    return design.points if spec.slo_search is None else []


def update_experiment(
    *, session: Session, experiment: Experiment, spec: ExperimentBase, design: Design
) -> Experiment:
    """Replace the design. Callers must have checked that no run exists."""
    for key, value in spec.model_dump(exclude={"factors", "fixed"}).items():
        setattr(experiment, key, value)
    experiment.factors = design.factors
    experiment.fixed = design.fixed
    session.execute(delete(Configuration).where(Configuration.experiment_id == experiment.id))
    session.flush()
    _write_configurations(session=session, experiment=experiment, points=_points(spec, design))
    return experiment


def _write_configurations(
    *, session: Session, experiment: Experiment, points: list[dict[str, Any]]
) -> None:
    session.add_all(
        Configuration(experiment_id=experiment.id, index=i, values=p) for i, p in enumerate(points)
    )
    session.flush()


def duplicate_experiment(*, session: Session, source: Experiment, name: str) -> Experiment:
    copy = Experiment(
        name=name,
        description=source.description,
        template=source.template,
        factors=source.factors,
        fixed=source.fixed,
        repetitions=source.repetitions,
        run_time_s=source.run_time_s,
        warmup_s=source.warmup_s,
        cooldown_s=source.cooldown_s,
        testbed_id=source.testbed_id,
        repetition_rule=source.repetition_rule,
        fraction=source.fraction,
        slo_search=source.slo_search,
    )
    session.add(copy)
    session.flush()
    # A search's configurations are its probes: the copy searches afresh.
    points = [] if source.slo_search else [c.values for c in source.configurations]
    _write_configurations(session=session, experiment=copy, points=points)
    return copy


def list_experiments(
    *, session: Session, skip: int, limit: int, q: str | None, template: Template | None
) -> tuple[Sequence[Experiment], int]:
    stmt = select(Experiment)
    if q:
        stmt = stmt.where(Experiment.name.ilike(f"%{_escape_like(q)}%", escape="\\"))
    if template:
        stmt = stmt.where(Experiment.template == template)
    count = session.scalar(select(func.count()).select_from(stmt.subquery())) or 0
    rows = session.scalars(stmt.order_by(Experiment.id.desc()).offset(skip).limit(limit)).all()
    return rows, count


def _escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def configuration_counts(*, session: Session, experiment_ids: list[int]) -> dict[int, int]:
    rows = session.execute(
        select(Configuration.experiment_id, func.count())
        .where(Configuration.experiment_id.in_(experiment_ids))
        .group_by(Configuration.experiment_id)
    ).all()
    return {eid: n for eid, n in rows}


def run_counts(*, session: Session, experiment_ids: list[int]) -> dict[int, dict[str, int]]:
    """Runs per status for each experiment, every status present (zeros included)."""
    out = {eid: {s.value: 0 for s in RunStatus} for eid in experiment_ids}
    rows = session.execute(
        select(Run.experiment_id, Run.status, func.count())
        .where(Run.experiment_id.in_(experiment_ids))
        .group_by(Run.experiment_id, Run.status)
    ).all()
    for eid, status, n in rows:
        out[eid][status.value] = n
    return out


def run_times(
    *, session: Session, experiment_ids: list[int]
) -> dict[int, tuple[datetime, datetime | None]]:
    """Per experiment with a started run: its first run's start, and its last run's end
    once no run is queued or running (None before)."""
    pending = func.count().filter(Run.status.in_((RunStatus.QUEUED, RunStatus.RUNNING)))
    rows = session.execute(
        select(Run.experiment_id, func.min(Run.started_at), func.max(Run.finished_at), pending)
        .where(Run.experiment_id.in_(experiment_ids))
        .group_by(Run.experiment_id)
    ).all()
    return {
        eid: (start, None if n_pending or end is None else end)
        for eid, start, end, n_pending in rows
        if start is not None
    }


def derive_status(counts: dict[str, int]) -> ExperimentStatus:
    if sum(counts.values()) == 0:
        return "draft"
    for status in ("running", "queued", "failed", "cancelled"):
        if counts[status]:
            return status
    return "finished"


def present_run_counts(*, session: Session, experiment_id: int) -> dict[str, int]:
    """Runs per status of one experiment, only the statuses it has (the live stream's
    snapshot)."""
    rows = session.execute(
        select(Run.status, func.count())
        .where(Run.experiment_id == experiment_id)
        .group_by(Run.status)
    ).all()
    return {s.value: int(n) for s, n in rows}
