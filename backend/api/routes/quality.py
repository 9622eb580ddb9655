"""Quality flags of an experiment's runs, re-running exactly the flagged runs, a run's attempts."""

from fastapi import APIRouter, HTTPException, status

from backend.api.broker import nothing_queued_without_broker
from backend.api.deps import SessionDep
from backend.api.routes.experiment_runs import START_SENDS_INLINE
from backend.api.window import WindowSelectionDep
from backend.core.config import settings
from backend.core.queue import (
    BrokerUnavailable,
    enqueue_dispatch,
    enqueue_runs,
    withdraw_runs,
)
from backend.crud.dispatch import send_unsent, unsent_count
from backend.crud.run import read_attempts, requeue_runs
from backend.domain.imported import not_runnable_reason
from backend.models import Run
from backend.quality.service import experiment_quality
from backend.schemas.quality import (
    ConfigurationQualityPublic,
    ExperimentQualityPublic,
    FlagPublic,
    RerunResult,
    RunAttemptPublic,
    RunAttemptsPublic,
    RunQualityPublic,
    outcome_public,
)

router = APIRouter(prefix="/experiments", tags=["quality"])
runs_router = APIRouter(prefix="/runs", tags=["quality"])


def _thresholds() -> dict[str, float]:
    return {k: float(v) for k, v in settings.model_dump().items() if k.startswith("QUALITY_")}


@router.get("/{experiment_id}/quality", response_model=ExperimentQualityPublic)
def read_quality(session: SessionDep, selection: WindowSelectionDep) -> ExperimentQualityPublic:
    """Quality flags per run and per configuration, over the stable or a re-cut window."""
    q = experiment_quality(session=session, selection=selection)
    window = selection.window
    return ExperimentQualityPublic(
        window_start_s=window.start_s if window else None,
        window_end_s=window.end_s if window else None,
        thresholds=_thresholds(),
        runs=[
            RunQualityPublic.of(r.run_id, r.configuration_id, r.repetition, r.quality)
            for r in q.runs
        ],
        configurations=[
            ConfigurationQualityPublic(
                configuration_id=c.configuration_id,
                flags=[FlagPublic.of(f) for f in c.flags],
                flagged_runs=c.flagged_runs,
            )
            for c in q.configurations
        ],
        flagged_run_ids=q.flagged_run_ids(),
    )


@router.post(
    "/{experiment_id}/rerun-flagged",
    response_model=RerunResult,
    status_code=status.HTTP_202_ACCEPTED,
    responses={503: {"description": "The message broker (Redis) is not reachable"}},
)
def rerun_flagged(session: SessionDep, selection: WindowSelectionDep) -> RerunResult:
    """Queue a new attempt of exactly the runs flagged over the window (queued or running
    ones excepted); results keep the older attempt until the new one succeeds."""
    experiment = selection.experiment
    elsewhere = not_runnable_reason(experiment.kind)
    if elsewhere is not None:
        raise HTTPException(status.HTTP_409_CONFLICT, elsewhere)
    flagged = experiment_quality(session=session, selection=selection).flagged_run_ids()
    with nothing_queued_without_broker("re-run", session):
        session.refresh(experiment, with_for_update=True)  # as Start: one at a time
        run_ids = requeue_runs(session=session, experiment_id=experiment.id, run_ids=flagged)
    session.commit()
    try:
        send_unsent(
            session,
            enqueue_runs,
            experiment_id=experiment.id,
            limit=START_SENDS_INLINE,
            withdraw=withdraw_runs,
        )
        if unsent_count(session, [experiment.id])[experiment.id]:
            enqueue_dispatch(experiment.id)
    except BrokerUnavailable as exc:
        raise HTTPException(
            status.HTTP_503_SERVICE_UNAVAILABLE,
            f"{exc}; {len(run_ids)} run(s) are queued and will be sent when it is back",
        ) from exc
    return RerunResult(queued=len(run_ids), run_ids=run_ids)


@runs_router.get("/{run_id}/attempts", response_model=RunAttemptsPublic)
def read_run_attempts(session: SessionDep, run_id: int) -> RunAttemptsPublic:
    """Every attempt of a run, oldest first, with each successful one's means and flags."""
    run = session.get(Run, run_id)
    if run is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Run not found")
    rows = read_attempts(session=session, run_id=run_id)
    data = [
        RunAttemptPublic(
            attempt=a.attempt,
            worker=a.worker,
            started_at=a.started_at,
            finished_at=a.finished_at,
            outcome=outcome_public(a.outcome),
            in_use=a.attempt == run.results_attempt,
        )
        for a in rows
    ]
    return RunAttemptsPublic(data=data, count=len(data))
