"""Runs per configuration as the repetition rule counts them, and adding one repetition."""

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from backend.crud.run import insert_run
from backend.models import Run, RunStatus

PENDING = (RunStatus.QUEUED, RunStatus.RUNNING)


def run_counts(
    *, session: Session, experiment_id: int, configuration_ids: list[int] | None = None
) -> dict[int, dict[RunStatus, int]]:
    """Per configuration id, its runs per status (statuses without runs left out)."""
    query = (
        select(Run.configuration_id, Run.status, func.count())
        .where(Run.experiment_id == experiment_id)
        .group_by(Run.configuration_id, Run.status)
    )
    if configuration_ids is not None:
        query = query.where(Run.configuration_id.in_(configuration_ids))
    out: dict[int, dict[RunStatus, int]] = {}
    for config_id, status, n in session.execute(query).all():
        out.setdefault(int(config_id), {})[RunStatus(status)] = int(n)
    return out


def add_repetition(*, session: Session, experiment_id: int, configuration_id: int) -> int | None:
    """Queue the configuration's next repetition (unsent); its id, or None when another
    caller added that repetition first (the unique (configuration, repetition) pair makes
    two workers deciding at once add one run). Not committed."""
    last = session.scalar(
        select(func.max(Run.repetition)).where(Run.configuration_id == configuration_id)
    )
    return insert_run(
        session=session,
        experiment_id=experiment_id,
        configuration_id=configuration_id,
        repetition=(-1 if last is None else int(last)) + 1,
    )
