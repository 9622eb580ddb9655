"""Runs: creating them for a start or resume, cancelling, listing."""

from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, literal, literal_column, select, true, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from backend.models import Configuration, Experiment, Run, RunAttempt, RunStatus

RESTARTABLE = (RunStatus.FAILED, RunStatus.CANCELLED)
# A run queued again: unsent (Start's or re-run's sender sends it), no error, no times.
_REQUEUED = {
    "status": RunStatus.QUEUED,
    "error": None,
    "cancel_requested": False,
    "started_at": None,
    "finished_at": None,
    "sent_at": None,
    "held_by": None,
    "due_at": None,
}


def insert_run(
    *, session: Session, experiment_id: int, configuration_id: int, repetition: int
) -> int | None:
    """One new queued, unsent run (a rule's extra repetition, a search's probe); its id, or
    None when that (configuration, repetition) exists: the unique pair makes two callers
    deciding at once add one run. Not committed."""
    created: int | None = session.scalar(
        pg_insert(Run)
        .values(
            experiment_id=experiment_id,
            configuration_id=configuration_id,
            repetition=repetition,
            status=RunStatus.QUEUED,
            attempt=0,
            cancel_requested=False,
            hosts={},
            tool_versions={},
            commands=[],
        )
        .on_conflict_do_nothing()
        .returning(Run.id)
    )
    return created


def queue_runs(*, session: Session, experiment: Experiment) -> tuple[list[int], int]:
    """Create every missing run and re-queue failed or cancelled ones (resume), all unsent:
    Start's sender sends them (backend.crud.dispatch). Two statements whatever the grid's size.

    Returns the ids now queued and how many runs had already succeeded or are in flight.
    """
    rep = func.generate_series(0, experiment.repetitions - 1).table_valued("n").render_derived()
    # Repetition-major order (ids ascend in it, and runs are sent by id): every configuration
    # gets its first repetition before any its second, so a partial experiment is already a
    # complete (if noisier) picture.
    missing = (
        select(
            literal(experiment.id),
            Configuration.id,
            rep.c.n,
            literal(RunStatus.QUEUED, Run.status.type),
            literal(0),
            literal(False),
            literal_column("'{}'::jsonb"),
            literal_column("'{}'::jsonb"),
            literal_column("'[]'::jsonb"),
        )
        .select_from(Configuration)
        .join(rep, true())
        .where(Configuration.experiment_id == experiment.id)
        .order_by(rep.c.n, Configuration.index)
    )
    columns = [
        "experiment_id",
        "configuration_id",
        "repetition",
        "status",
        "attempt",
        "cancel_requested",
        "hosts",
        "tool_versions",
        "commands",
    ]
    created = session.scalars(
        pg_insert(Run)
        .from_select(columns, missing, include_defaults=False)
        .on_conflict_do_nothing()
        .returning(Run.id)
    ).all()
    resumed = resume_runs(session=session, experiment_id=experiment.id)
    total = session.scalar(
        select(func.count()).select_from(Run).where(Run.experiment_id == experiment.id)
    )
    queued = sorted([*created, *resumed])
    return queued, int(total or 0) - len(queued)


def resume_runs(*, session: Session, experiment_id: int) -> list[int]:
    """Re-queue the experiment's failed or cancelled runs, unsent; their ids."""
    resumed = session.scalars(
        update(Run)
        .where(Run.experiment_id == experiment_id, Run.status.in_(RESTARTABLE))
        .values(**_REQUEUED)
        .returning(Run.id)
    ).all()
    return list(resumed)


def requeue_runs(*, session: Session, experiment_id: int, run_ids: Sequence[int]) -> list[int]:
    """Queue a new attempt of each of these runs that is not queued or running (re-run
    flagged); their stored results stay in use until an attempt stores new ones."""
    if not run_ids:
        return []
    done = (RunStatus.SUCCEEDED, *RESTARTABLE)
    return sorted(
        session.scalars(
            update(Run)
            .where(Run.experiment_id == experiment_id, Run.id.in_(run_ids), Run.status.in_(done))
            .values(**_REQUEUED)
            .returning(Run.id)
        ).all()
    )


def cancel_runs(*, session: Session, experiment_id: int) -> tuple[list[int], int]:
    """Cancel queued runs at once (their ids, for withdrawing their messages); ask running
    ones to stop (the worker ends them; how many)."""
    cancelled = session.scalars(
        update(Run)
        .where(Run.experiment_id == experiment_id, Run.status == RunStatus.QUEUED)
        .values(status=RunStatus.CANCELLED, finished_at=func.now())
        .returning(Run.id)
    ).all()
    stopping = session.execute(
        update(Run)
        .where(Run.experiment_id == experiment_id, Run.status == RunStatus.RUNNING)
        .values(cancel_requested=True)
    ).rowcount  # type: ignore[attr-defined]  # UPDATE gives a CursorResult
    return list(cancelled), stopping


def latest_tool_versions(
    *, session: Session, scan: int = 1000
) -> list[tuple[int | None, str, str, int, Any]]:
    """(testbed id, tool, version, run id, when) of the newest run that recorded each tool per
    testbed (None: the built-in local one), looking at the last `scan` runs that recorded any."""
    rows = session.execute(
        select(Experiment.testbed_id, Run.id, Run.tool_versions, Run.started_at)
        .join(Experiment, Experiment.id == Run.experiment_id)
        .where(Run.tool_versions != {})
        .order_by(Run.started_at.desc().nulls_last(), Run.id.desc())
        .limit(scan)
    ).all()
    seen: dict[tuple[int | None, str], tuple[int | None, str, str, int, Any]] = {}
    for testbed_id, run_id, versions, started_at in rows:
        for tool, version in (versions or {}).items():
            seen.setdefault((testbed_id, tool), (testbed_id, tool, version, run_id, started_at))
    return sorted(seen.values(), key=lambda t: (t[0] or 0, t[1]))


def run_ids(*, session: Session, experiment_id: int) -> list[int]:
    return list(session.scalars(select(Run.id).where(Run.experiment_id == experiment_id)))


def has_runs(*, session: Session, experiment_id: int) -> bool:
    return (
        session.scalar(select(Run.id).where(Run.experiment_id == experiment_id).limit(1))
        is not None
    )


def list_runs(
    *, session: Session, experiment_id: int, status: RunStatus | None, skip: int, limit: int
) -> tuple[Sequence[Run], int]:
    stmt = select(Run).where(Run.experiment_id == experiment_id)
    if status:
        stmt = stmt.where(Run.status == status)
    count = session.scalar(select(func.count()).select_from(stmt.subquery())) or 0
    rows = session.scalars(stmt.order_by(Run.id).offset(skip).limit(limit)).all()
    return rows, count


def first_succeeded_run_id(*, session: Session, experiment_id: int) -> int | None:
    """The experiment's first succeeded run (the default run of the run views)."""
    return session.scalar(
        select(Run.id)
        .where(Run.experiment_id == experiment_id, Run.status == RunStatus.SUCCEEDED)
        .order_by(Run.id)
        .limit(1)
    )


def latest_running_run(*, session: Session, experiment_id: int) -> Run | None:
    """The experiment's most recently created running run (the live chart's default)."""
    return session.scalar(
        select(Run)
        .where(Run.experiment_id == experiment_id, Run.status == RunStatus.RUNNING)
        .order_by(Run.id.desc())
        .limit(1)
    )


def read_attempts(*, session: Session, run_id: int) -> list[RunAttempt]:
    """Every attempt of a run, oldest first."""
    return list(
        session.scalars(
            select(RunAttempt).where(RunAttempt.run_id == run_id).order_by(RunAttempt.attempt)
        )
    )
