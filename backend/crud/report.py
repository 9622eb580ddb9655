"""The report of an experiment (keyword-only, no HTTP errors)."""

from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from backend.models import Experiment, Report, Run
from backend.models.base import utcnow
from backend.schemas.report import ReportItem, ReportUpdate


def get_report(*, session: Session, experiment: Experiment) -> Report | None:
    return session.scalar(select(Report).where(Report.experiment_id == experiment.id))


def first_run_started(*, session: Session, experiment: Experiment) -> datetime | None:
    """When the experiment's first run started (None before any)."""
    return session.scalar(
        select(func.min(Run.started_at)).where(Run.experiment_id == experiment.id)
    )


def written_before_runs(report: Report | None, first_run: datetime | None) -> bool:
    """A hypothesis counts as written before the runs only if it was, by the clock."""
    if report is None or not report.hypothesis or report.hypothesis_at is None:
        return False
    return first_run is None or report.hypothesis_at < first_run


def update_report(
    *,
    session: Session,
    experiment: Experiment,
    update: ReportUpdate,
    default_items: list[ReportItem],
) -> Report:
    """Create or change the report; the hypothesis gets a new timestamp when its text changes."""
    report = get_report(session=session, experiment=experiment)
    if report is None:
        report = Report(
            experiment_id=experiment.id,
            hypothesis="",
            notes="",
            items=[i.model_dump() for i in default_items],
        )
        session.add(report)
    if update.hypothesis is not None and update.hypothesis != report.hypothesis:
        report.hypothesis = update.hypothesis
        report.hypothesis_at = utcnow()
    if update.notes is not None:
        report.notes = update.notes
    if update.items is not None:
        report.items = [i.model_dump() for i in update.items]
    return report
