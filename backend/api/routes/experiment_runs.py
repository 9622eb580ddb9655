"""Running an experiment: start or resume, cancel, list its runs, read results and run series."""

from typing import Literal

from fastapi import APIRouter, HTTPException, Query, status
from pydantic import BaseModel

from backend.analysis.series import InstanceSeries, combine_instances, offset_s
from backend.api.deps import SessionDep
from backend.api.errors import unprocessable
from backend.core.queue import enqueue_runs
from backend.crud.results import aggregate_by_configuration, aggregate_window_by_configuration
from backend.crud.run import cancel_runs, list_runs, queue_runs
from backend.crud.series import list_run_series, read_load_start_unix, read_stored_window
from backend.models import Experiment, RequestType, Run, RunStatus
from backend.schemas.run import RunPublic, RunsPublic, StartResult
from backend.schemas.series import (
    SERIES_UNITS,
    CombinedSeriesPublic,
    InstanceSeriesPublic,
    RunSeriesPublic,
)

router = APIRouter(prefix="/experiments", tags=["experiment-runs"])
runs_router = APIRouter(prefix="/runs", tags=["runs"])


def _load(session: SessionDep, experiment_id: int) -> Experiment:
    exp = session.get(Experiment, experiment_id)
    if exp is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Experiment not found")
    return exp


@router.post("/{experiment_id}/start", response_model=StartResult)
def start_experiment(session: SessionDep, experiment_id: int) -> StartResult:
    """Queue every run not yet done; a second start resumes failed or cancelled runs."""
    exp = _load(session, experiment_id)
    # Row lock: two concurrent starts must not create the same runs twice.
    session.refresh(exp, with_for_update=True)
    run_ids, untouched = queue_runs(session=session, experiment=exp)
    session.commit()
    enqueue_runs(run_ids)
    return StartResult(queued=len(run_ids), already_done=untouched)


class CancelResult(BaseModel):
    cancelled: int
    stopping: int


@router.post("/{experiment_id}/cancel", response_model=CancelResult)
def cancel_experiment(session: SessionDep, experiment_id: int) -> CancelResult:
    """Cancel queued runs and ask running ones to stop."""
    _load(session, experiment_id)
    cancelled, stopping = cancel_runs(session=session, experiment_id=experiment_id)
    session.commit()
    return CancelResult(cancelled=cancelled, stopping=stopping)


@router.get("/{experiment_id}/runs", response_model=RunsPublic)
def read_runs(
    session: SessionDep,
    experiment_id: int,
    status_: RunStatus | None = Query(default=None, alias="status"),
    skip: int = Query(default=0, ge=0),
    limit: int = Query(default=100, ge=1, le=1000),
) -> RunsPublic:
    """List an experiment's runs, optionally by status."""
    _load(session, experiment_id)
    rows, count = list_runs(
        session=session, experiment_id=experiment_id, status=status_, skip=skip, limit=limit
    )
    return RunsPublic(data=[RunPublic.model_validate(r) for r in rows], count=count)


class ConfigurationResultPublic(BaseModel):
    configuration_id: int
    index: int
    values: dict[str, object]
    repetitions: int
    throughput_mean: float | None
    throughput_std: float | None
    response_time_us_mean: float | None
    response_time_us_std: float | None
    keys_per_s_mean: float | None


class ResultsPublic(BaseModel):
    source: str
    request_type: RequestType
    units: dict[str, str]
    data: list[ConfigurationResultPublic]


@router.get("/{experiment_id}/results", response_model=ResultsPublic)
def read_results(
    session: SessionDep,
    experiment_id: int,
    source: Literal["client", "middleware"] = "client",
    request_type: RequestType = RequestType.ALL,
    window_start_s: int | None = Query(default=None, ge=0, description="re-cut window start"),
    window_end_s: int | None = Query(default=None, ge=1, description="re-cut window end"),
) -> ResultsPublic:
    """Throughput and response time per configuration, mean and std over repetitions.

    By default over each run's stable window; with window_start_s/window_end_s, over that
    window of seconds instead (computed from the stored per-second series).
    """
    _load(session, experiment_id)
    if (window_start_s is None) != (window_end_s is None):
        raise unprocessable(
            ("window_end_s",),
            "give both window_start_s and window_end_s, or neither",
            window_end_s,
            location="query",
        )
    if window_start_s is not None and window_end_s is not None:
        if window_end_s <= window_start_s:
            raise unprocessable(
                ("window_end_s",),
                "must be greater than window_start_s",
                window_end_s,
                location="query",
            )
        rows = aggregate_window_by_configuration(
            session=session,
            experiment_id=experiment_id,
            source=source,
            request_type=request_type,
            start_s=window_start_s,
            end_s=window_end_s,
        )
    else:
        rows = aggregate_by_configuration(
            session=session,
            experiment_id=experiment_id,
            source=source,
            request_type=request_type,
        )
    return ResultsPublic(
        source=source,
        request_type=request_type,
        units={"throughput": "ops/s", "response_time": "us", "keys_per_s": "keys/s"},
        data=[ConfigurationResultPublic(**r.__dict__) for r in rows],
    )


@router.get("/{experiment_id}/runs/{run_id}/series", response_model=RunSeriesPublic)
def read_run_series(
    session: SessionDep,
    experiment_id: int,
    run_id: int,
    source: Literal["client", "middleware"] = "client",
    request_type: RequestType = RequestType.ALL,
) -> RunSeriesPublic:
    """Per-second throughput and response time of one run, with its stable window."""
    exp = _load(session, experiment_id)
    run = session.get(Run, run_id)
    if run is None or run.experiment_id != experiment_id:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Run not found")
    rows = list_run_series(session=session, run_id=run_id, source=source, request_type=request_type)
    instances = [
        InstanceSeries(
            r.source,
            r.start_unix,
            r.throughput,
            r.response_time_us,
            r.queue_time_us,
            r.server_time_us,
            r.queue_length,
        )
        for r in rows
    ]
    # Windows count from the load generators' start; a middleware-only run falls back to its own.
    t0 = read_load_start_unix(session=session, run_id=run_id)
    if t0 is None and instances:
        t0 = min(i.start_unix for i in instances)
    stored = read_stored_window(session=session, run_id=run_id)
    lo, hi = stored or (exp.warmup_s, exp.run_time_s - exp.cooldown_s)
    combined = combine_instances(instances, t0 if t0 is not None else 0.0)
    return RunSeriesPublic(
        run_id=run.id,
        experiment_id=experiment_id,
        configuration_id=run.configuration_id,
        repetition=run.repetition,
        source=source,
        request_type=request_type,
        start_unix=t0,
        window_start_s=lo,
        window_end_s=hi,
        window_stored=stored is not None,
        units=SERIES_UNITS,
        combined=CombinedSeriesPublic(
            time_s=combined.time_s,
            throughput=combined.throughput,
            response_time_us=combined.response_time_us,
        ),
        instances=[
            InstanceSeriesPublic(
                source=i.source,
                offset_s=offset_s(i, t0 if t0 is not None else i.start_unix),
                throughput=list(i.throughput),
                response_time_us=list(i.response_time_us),
                queue_time_us=i.queue_time_us,
                server_time_us=i.server_time_us,
                queue_length=i.queue_length,
            )
            for i in instances
        ],
    )


@runs_router.get("/{run_id}", response_model=RunPublic)
def read_run(session: SessionDep, run_id: int) -> RunPublic:
    """Get one run with its hosts, tool versions and command lines."""
    run = session.get(Run, run_id)
    if run is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Run not found")
    return RunPublic.model_validate(run)
