"""Running an experiment: start or resume, cancel, list its runs, read results and run series."""

import logging
from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Query, status
from fastapi.responses import StreamingResponse
from pydantic import BaseModel
from zipstream import ZipStream

from backend.api.broker import nothing_queued_without_broker
from backend.api.deps import SessionDep
from backend.api.paging import Page, paging
from backend.api.routes.experiments import counted, design_problem, stored_search
from backend.api.window import (
    RunSelectionDep,
    SelectionDep,
    WindowSelectionDep,
)
from backend.core.queue import (
    BrokerUnavailable,
    enqueue_dispatch,
    enqueue_runs,
    enqueue_slo_step,
    waiting_messages,
    withdraw_runs,
)
from backend.core.run_files import has_run_files, run_archive_dir
from backend.crud.costs import over_budget
from backend.crud.dispatch import release, send_unsent, stuck_runs, unsent_count
from backend.crud.experiment import configuration_counts, run_counts
from backend.crud.overhead import run_overhead
from backend.crud.rehearsals import gone_rehearsal
from backend.crud.results import in_factor_order
from backend.crud.run import cancel_runs, list_runs, queue_runs, resume_runs
from backend.domain.grid import preview
from backend.domain.imported import not_runnable_reason
from backend.models import Experiment, Run, RunStatus
from backend.results import machines, series, table
from backend.results.slo import search_state
from backend.schemas.experiment import ConfigurationPublic
from backend.schemas.machines import MachinesPublic
from backend.schemas.problems import unprocessable
from backend.schemas.results import ResultsPublic
from backend.schemas.run import RunDetailPublic, RunPublic, RunsPublic, StartResult
from backend.schemas.series import (
    RunSeriesPublic,
)
from backend.schemas.slo import SloSearchPublic

logger = logging.getLogger(__name__)
router = APIRouter(prefix="/experiments", tags=["experiment-runs"])
runs_router = APIRouter(prefix="/runs", tags=["runs"])

NOT_A_SEARCH = "Experiment is not a latency-SLO search"
INVALID_DESIGN = "Experiment design is invalid; correct it (PUT) before starting"


def _load(session: SessionDep, experiment_id: int) -> Experiment:
    exp = session.get(Experiment, experiment_id)
    if exp is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Experiment not found")
    return exp


def _check_budget(session: SessionDep, exp: Experiment) -> None:
    """422 with the numbers when the runs not yet succeeded would cost more than what is
    left of the Azure testbed's budget; 422 when the testbed is a torn-down rehearsal."""
    if exp.testbed_id is None:
        return  # the local testbed costs nothing
    gone = gone_rehearsal(session, exp.testbed_id)
    if gone is not None:
        raise unprocessable(("testbed_id",), gone, exp.testbed_id)
    counts = run_counts(session=session, experiment_ids=[exp.id])[exp.id]
    configurations = configuration_counts(session=session, experiment_ids=[exp.id])
    # A search's runs are at most its bound, which counts what it may still add.
    total = counted(
        configurations.get(exp.id, 0), exp.repetitions, exp.run_time_s, 0, stored_search(exp)
    )[0].runs
    left = max(0, total - counts[RunStatus.SUCCEEDED])
    overhead = run_overhead(session, testbed_id=exp.testbed_id).seconds
    seconds = preview(left, 1, exp.run_time_s, overhead).estimated_seconds
    refusal = over_budget(session, exp.testbed_id, seconds)
    if refusal is not None:
        msg, numbers = refusal
        raise unprocessable(("testbed_id",), msg, numbers)


# Start sends this many messages itself; a larger grid's are sent by the maintenance worker.
START_SENDS_INLINE = 200


@router.post(
    "/{experiment_id}/start",
    response_model=StartResult,
    status_code=status.HTTP_202_ACCEPTED,
    responses={503: {"description": "The message broker (Redis) is not reachable"}},
)
def start_experiment(session: SessionDep, experiment_id: int) -> StartResult:
    """Queue every run not yet done; a second start resumes failed or cancelled runs and
    re-sends queued runs whose message was lost or whose worker died."""
    exp = _load(session, experiment_id)
    elsewhere = not_runnable_reason(exp.kind)
    if elsewhere is not None:
        raise HTTPException(status.HTTP_409_CONFLICT, elsewhere)
    problem = design_problem(exp)
    if problem is not None:
        # A design stored before its rules (a warm-up longer than the run) measures nothing.
        raise HTTPException(status.HTTP_409_CONFLICT, f"{INVALID_DESIGN}: {problem}")
    _check_budget(session, exp)
    # The broker first: nothing is committed (no run queued) without a message.
    with nothing_queued_without_broker("start", session):
        # Row lock: two concurrent starts (or a cancel) wait for each other.
        session.refresh(exp, with_for_update=True)
        if exp.slo_search is None:
            run_ids, untouched = queue_runs(session=session, experiment=exp)
        else:  # a search queues its probes one at a time (worker.runs.slo_search)
            run_ids = resume_runs(session=session, experiment_id=exp.id)
            untouched = 0
        released = release(session, stuck_runs(session, waiting_messages, experiment_id=exp.id))
    session.commit()
    queued = len(run_ids) + released
    try:
        send_unsent(
            session,
            enqueue_runs,
            experiment_id=exp.id,
            limit=START_SENDS_INLINE,
            withdraw=withdraw_runs,
        )
        unsent = unsent_count(session, [exp.id])[exp.id]
        if unsent:
            enqueue_dispatch(exp.id)
        if exp.slo_search is not None:
            enqueue_slo_step(exp.id)
    except BrokerUnavailable as exc:
        # Committed but not sent: the recovery task sends them once the broker is back.
        raise HTTPException(
            status.HTTP_503_SERVICE_UNAVAILABLE,
            f"{exc}; {queued} run(s) are queued and will be sent when it is back",
        ) from exc
    return StartResult(queued=queued, already_done=untouched - released, unsent=unsent)


class CancelResult(BaseModel):
    cancelled: int
    stopping: int


@router.post("/{experiment_id}/cancel", response_model=CancelResult)
def cancel_experiment(session: SessionDep, experiment_id: int) -> CancelResult:
    """Cancel queued runs and ask running ones to stop."""
    exp = _load(session, experiment_id)
    # After a start in progress has committed its runs (the same row lock), so none escapes.
    session.refresh(exp, with_for_update=True)
    cancelled, stopping = cancel_runs(session=session, experiment_id=experiment_id)
    session.commit()
    # After the commit: a sender that sends one of these runs later finds it cancelled and
    # withdraws that message itself (backend.crud.dispatch.send_unsent).
    try:
        withdraw_runs(cancelled)
    except BrokerUnavailable:
        # Cancelled all the same: the worker drops those messages as it takes them.
        logger.warning("experiment.withdraw_failed", extra={"experiment_id": experiment_id})
    return CancelResult(cancelled=len(cancelled), stopping=stopping)


@router.get("/{experiment_id}/runs", response_model=RunsPublic)
def read_runs(
    session: SessionDep,
    experiment_id: int,
    page: Annotated[Page, Depends(paging())],
    status_: RunStatus | None = Query(default=None, alias="status"),
) -> RunsPublic:
    """List an experiment's runs, optionally by status."""
    _load(session, experiment_id)
    rows, count = list_runs(
        session=session,
        experiment_id=experiment_id,
        status=status_,
        skip=page.skip,
        limit=page.limit,
    )
    return RunsPublic(data=[RunPublic.model_validate(r) for r in rows], count=count)


@router.get("/{experiment_id}/slo", response_model=SloSearchPublic)
def read_slo_search(session: SessionDep, experiment_id: int) -> SloSearchPublic:
    """A latency-SLO search as it stands: its probes with their verdicts, and the answer."""
    exp = _load(session, experiment_id)
    if exp.slo_search is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, NOT_A_SEARCH)
    return search_state(session, exp).public


@router.get("/{experiment_id}/machines", response_model=MachinesPublic)
def read_machines(session: SessionDep, selection: WindowSelectionDep) -> MachinesPublic:
    """Per configuration, its hosts' whole CPU (user, system, iowait, steal) against their
    cores, mcscope's processes' CPU per role and the network, over each run's stable window
    (or the re-cut one), with the saturated resource in words."""
    return machines.machines_public(session=session, selection=selection)


@router.get("/{experiment_id}/results", response_model=ResultsPublic)
def read_results(session: SessionDep, selection: SelectionDep) -> ResultsPublic:
    """Throughput and response time per configuration, mean and std over repetitions.

    By default over each run's stable window; with window_start_s/window_end_s, over that
    window of seconds instead (re-cut from the stored per-second series).
    """
    return table.results_public(session=session, selection=selection)


@router.get("/{experiment_id}/runs/{run_id}/series", response_model=RunSeriesPublic)
def read_run_series(
    session: SessionDep, selection: RunSelectionDep, run_id: int
) -> RunSeriesPublic:
    """Per-second throughput and response time of one run, with its stable window."""
    return series.run_series_public(session=session, selection=selection, run_id=run_id)


@runs_router.get("/{run_id}", response_model=RunDetailPublic)
def read_run(session: SessionDep, run_id: int) -> RunDetailPublic:
    """Get one run with its configuration, hosts, tool versions and command lines."""
    run = session.get(Run, run_id)
    if run is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Run not found")
    exp = session.get_one(Experiment, run.experiment_id)
    (config,) = in_factor_order([run.configuration], list(exp.factors))
    return RunDetailPublic(
        **RunPublic.model_validate(run).model_dump(),
        configuration=ConfigurationPublic.of(config, exp.fixed),
    )


@runs_router.get(
    "/{run_id}/files",
    response_class=StreamingResponse,
    responses={200: {"content": {"application/zip": {}}, "description": "the run's raw files"}},
)
def read_run_files(session: SessionDep, run_id: int) -> StreamingResponse:
    """Download every raw file the run archived (all hosts, all attempts) as one zip, streamed."""
    if session.get(Run, run_id) is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Run not found")
    if not has_run_files(run_id):
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Run has no raw files")
    # Stored, not deflated: the size is known up front and nothing is held in memory.
    archive = ZipStream.from_path(run_archive_dir(run_id), arcname=f"run-{run_id}")
    return StreamingResponse(
        archive,
        media_type="application/zip",
        headers={
            "Content-Disposition": f'attachment; filename="run-{run_id}.zip"',
            "Content-Length": str(len(archive)),
        },
    )
