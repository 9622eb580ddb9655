"""Experiment design endpoints: create, preview, list, read, update, delete, duplicate."""

import logging
from dataclasses import replace
from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query, status
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ValidationError
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from backend.analysis.errors import AnalysisError
from backend.api.deps import SessionDep
from backend.api.design_route import DesignRoute
from backend.api.paging import Page, paging
from backend.core.config import settings
from backend.core.run_files import remove_run_files
from backend.crud import experiment as crud
from backend.crud.costs import estimate
from backend.crud.dispatch import unsent_count
from backend.crud.overhead import RunOverhead, run_overhead
from backend.crud.results import in_factor_order
from backend.crud.run import has_runs, run_ids
from backend.domain.design import Design, DesignErrors, check_design
from backend.domain.design_fields import planned_time_problem
from backend.domain.grid import GridPreview, grid_size, preview
from backend.domain.metrics import MetricName
from backend.domain.slo_design import search_problems
from backend.domain.templates import Template
from backend.models import Experiment, RunStatus, Testbed
from backend.results.design_plan import (
    fraction_public,
    noise,
    power_plan,
    rule_range,
    stored_fraction,
)
from backend.results.duplicates import same_system_public
from backend.results.rule_status import rule_of
from backend.results.slo_preview import search_preview
from backend.schemas.experiment import (
    ConfigurationPublic,
    ConfigurationsPublic,
    ElapsedPublic,
    ExperimentBase,
    ExperimentCreate,
    ExperimentDuplicate,
    ExperimentPublic,
    ExperimentsPublic,
    ExperimentUpdate,
    GridPreviewPublic,
    GridPreviewWithPoints,
    RunOverheadPublic,
    served_window,
)
from backend.schemas.fraction import PowerQuery
from backend.schemas.limits import DbText
from backend.schemas.problems import problem, unprocessable
from backend.schemas.served import served
from backend.schemas.slo import SloPreviewPublic, SloSearchSpec

router = APIRouter(prefix="/experiments", tags=["experiments"], route_class=DesignRoute)
logger = logging.getLogger(__name__)

NOT_FOUND = "Experiment not found"
HAS_RUNS = "Experiment has runs; duplicate it to change its design"
IS_RUNNING = "Experiment has running runs; cancel it first"


def _design(spec: ExperimentBase, also: list[dict[str, Any]] | None = None) -> Design:
    """The checked design, or one 422 with every problem of it and the `also` problems."""
    also = [*(also or []), *_rule_problems(spec)]
    if spec.slo_search is not None:
        also = [
            *(
                problem(d.loc, d.reason, _echo(spec, d.loc))
                for d in search_problems(
                    spec.factors,
                    spec.fixed,
                    ruled=spec.repetition_rule is not None,
                    fractional=spec.fraction is not None,
                )
            ),
            *also,
        ]
    try:
        design = check_design(
            spec.factors,
            spec.fixed,
            spec.repetitions,
            max_configurations=settings.GRID_MAX_CONFIGURATIONS,
            max_runs=settings.GRID_MAX_RUNS,
            memory_limit_mb=settings.MEMCACHED_MAX_MEMORY_MB,
            fraction=spec.fraction.model_dump(exclude_none=True) if spec.fraction else None,
        )
    except DesignErrors as e:
        raise RequestValidationError(
            [*(problem(d.loc, d.reason, _echo(spec, d.loc)) for d in e.errors), *also]
        ) from e
    also += _planned_time_problems(spec, design)
    if also:
        raise RequestValidationError(also)
    return design


def _planned_time_problems(spec: ExperimentBase, design: Design) -> list[dict[str, Any]]:
    """The plan's run time in all against its limit: every run a search may probe, or each
    configuration's repetitions (a rule's cap: what it may come to)."""
    if spec.slo_search is not None:
        runs = spec.slo_search.max_probes
    else:
        each = spec.repetition_rule.max_repetitions if spec.repetition_rule else spec.repetitions
        runs = len(design.points) * each
    reason = planned_time_problem(runs, spec.run_time_s)
    return [] if reason is None else [problem(("run_time_s",), reason, spec.run_time_s)]


def _rule_problems(spec: ExperimentBase) -> list[dict[str, Any]]:
    """A rule's cap counts against the run limit as fixed repetitions do (checked only when
    the grid itself is within the limits: its size is then known)."""
    rule = spec.repetition_rule
    if rule is None:
        return []
    size = grid_size(spec.factors)
    if size > settings.GRID_MAX_CONFIGURATIONS or size * rule.max_repetitions <= (
        settings.GRID_MAX_RUNS
    ):
        return []
    runs = size * rule.max_repetitions
    reason = (
        f"{size} configurations x {rule.max_repetitions} repetitions at most = {runs} runs; "
        f"the limit is {settings.GRID_MAX_RUNS}"
    )
    return [problem(("repetition_rule", "max_repetitions"), reason, rule.max_repetitions)]


def _echo(spec: ExperimentBase, loc: tuple[str, ...]) -> Any:
    """The request value a design error names: one parameter's, or a whole section's."""
    value: Any = getattr(spec, loc[0])
    if len(loc) == 1:
        return value
    return getattr(value, loc[1]) if isinstance(value, BaseModel) else value.get(loc[1])


def _testbed_problems(session: Session, spec: ExperimentBase) -> list[dict[str, Any]]:
    if spec.testbed_id is not None and session.get(Testbed, spec.testbed_id) is None:
        return [
            problem(("testbed_id",), f"testbed {spec.testbed_id} does not exist", spec.testbed_id)
        ]
    return []


def _ref_problems(
    session: Session, spec: ExperimentBase, exclude_id: int | None = None
) -> list[dict[str, Any]]:
    out = _testbed_problems(session, spec)
    other = crud.get_by_name(session=session, name=spec.name)
    if other is not None and other.id != exclude_id:
        out.append(
            problem(("name",), f"an experiment named {spec.name!r} already exists", spec.name)
        )
    return out


def _overhead_public(o: RunOverhead) -> RunOverheadPublic:
    return RunOverheadPublic(
        seconds=round(o.seconds, 3),
        source="measured" if o.measured else "default",
        runs=o.runs,
        testbed_id=o.testbed_id,
        testbed=o.testbed,
    )


def counted(
    configurations: int,
    repetitions: int,
    run_time_s: int,
    overhead_s: float,
    slo: SloSearchSpec | None,
) -> tuple[GridPreview, SloPreviewPublic | None]:
    """A grid's counts, or a search's bound (its runs are decided one by one)."""
    if slo is None:
        return preview(configurations, repetitions, run_time_s, overhead_s), None
    return search_preview(slo.limits(), run_time_s, overhead_s), SloPreviewPublic.of(slo)


def stored_search(e: Experiment) -> SloSearchSpec | None:
    """The stored search, or None for a grid or a stored search that breaks a rule (its
    preview then counts its probes so far; design_problem names the rule)."""
    try:
        return None if e.slo_search is None else SloSearchSpec.model_validate(e.slo_search)
    except ValidationError:
        return None


def _public(session: Session, experiments: list[Experiment]) -> list[ExperimentPublic]:
    ids = [e.id for e in experiments]
    runs = crud.run_counts(session=session, experiment_ids=ids)
    unsent = unsent_count(session, ids)
    configs = crud.configuration_counts(session=session, experiment_ids=ids)
    times = crud.run_times(session=session, experiment_ids=ids)
    overheads = {
        t: run_overhead(session, testbed_id=t) for t in {e.testbed_id for e in experiments}
    }
    out = []
    for e in experiments:
        overhead = overheads[e.testbed_id]
        p, bound = counted(
            configs.get(e.id, 0), e.repetitions, e.run_time_s, overhead.seconds, stored_search(e)
        )
        if bound is not None:  # a stored search's configurations are the rates probed so far
            p = replace(p, configurations=configs.get(e.id, 0))
        stored = {k: getattr(e, k) for k in ExperimentPublic.model_fields if hasattr(e, k)}
        problem = design_problem(e)
        if problem is not None:
            logger.warning(
                "experiment.invalid_design", extra={"experiment_id": e.id, "problem": problem}
            )
        out.append(
            served(
                ExperimentPublic,
                {
                    **stored,
                    "status": crud.derive_status(runs[e.id]),
                    "run_counts": runs[e.id],
                    "runs_unsent": unsent[e.id],
                    "preview": GridPreviewPublic(
                        **p.__dict__,
                        overhead=_overhead_public(overhead),
                        stable_window=served_window(e.run_time_s, e.warmup_s, e.cooldown_s),
                        cost=estimate(session, e.testbed_id, p.estimated_seconds),
                        fraction=stored_fraction(e),
                        slo_search=bound,
                        rule_range=rule_range(
                            session,
                            rule=rule_of(e),
                            factors=e.factors,
                            fraction=e.fraction,
                            configurations=configs.get(e.id, 0),
                            run_time_s=e.run_time_s,
                            overhead_s=overhead.seconds,
                            testbed_id=e.testbed_id,
                        ),
                    ),
                    "elapsed": _elapsed(times.get(e.id)),
                },
                what="experiment",
                row_id=e.id,
            )
        )
    return out


def _elapsed(times: tuple[datetime, datetime | None] | None) -> ElapsedPublic | None:
    if times is None:
        return None
    start, end = times
    seconds = None if end is None else (end - start).total_seconds()
    return ElapsedPublic(started_at=start, ended_at=end, seconds=seconds)


def design_problem(exp: Experiment) -> str | None:
    """Why a stored design breaks a field rule a request is checked by, or None (its grid is
    stored, so it is not expanded again for every row of a list)."""
    try:
        _as_request(exp)
    except RequestValidationError as err:
        first = err.errors()[0]
        return f"{'.'.join(str(p) for p in first['loc'][1:])}: {first['msg']}"
    return None


def _as_request(exp: Experiment, **changes: Any) -> ExperimentCreate:
    """A stored design checked as a new request would be (422 naming the field)."""
    fields = {k: getattr(exp, k) for k in ExperimentCreate.model_fields} | changes
    try:
        return ExperimentCreate.model_validate(fields)
    except ValidationError as err:
        raise RequestValidationError(
            [{**e, "loc": ("body", *e["loc"])} for e in err.errors(include_url=False)]
        ) from err


def _load(session: Session, experiment_id: int) -> Experiment:
    exp = session.get(Experiment, experiment_id)
    if exp is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, NOT_FOUND)
    return exp


def _commit_named(session: Session, name: str) -> None:
    """Commit; a concurrent insert of the same name still yields a 422, not a 500."""
    try:
        session.commit()
    except IntegrityError as e:
        session.rollback()
        raise unprocessable(("name",), f"an experiment named {name!r} already exists", name) from e


@router.post("/preview", response_model=GridPreviewWithPoints)
def preview_experiment(
    session: SessionDep,
    spec: ExperimentCreate,
    alpha: float = Query(default=0.05, gt=0, lt=0.5, description="significance level"),
    power: float = Query(default=0.8, ge=0.5, lt=1, description="probability to detect"),
    noise_std: float | None = Query(
        default=None, ge=1e-9, le=1e12, description="std of one run's main metric, as typed"
    ),
    noise_experiment_id: int | None = Query(
        default=None, ge=1, le=2**31 - 1, description="take the std measured on this experiment"
    ),
    noise_metric: MetricName = Query(
        default="throughput_per_s", description="the metric whose std noise_experiment_id gives"
    ),
) -> GridPreviewWithPoints:
    """Expand a design without saving it: counts, duration estimate, its cost on an Azure
    testbed, the first points, its fraction's aliases and the smallest effect each two-level
    design detects given a noise estimate."""
    design = _design(spec, also=_testbed_problems(session, spec))
    overhead = run_overhead(session, testbed_id=spec.testbed_id)
    p, bound = counted(
        len(design.points), spec.repetitions, spec.run_time_s, overhead.seconds, spec.slo_search
    )
    q = PowerQuery(
        alpha=alpha,
        power=power,
        noise_std=noise_std,
        noise_experiment_id=noise_experiment_id,
        noise_metric=noise_metric,
    )
    try:
        plan = power_plan(
            factors=design.factors,
            chosen=design.fraction,
            repetitions=spec.repetitions,
            run_time_s=spec.run_time_s,
            overhead_s=overhead.seconds,
            q=q,
            measured=noise(session, q),
        )
    except AnalysisError as err:
        raise unprocessable((err.field,), err.reason, location="query") from err
    return GridPreviewWithPoints(
        **p.__dict__,
        overhead=_overhead_public(overhead),
        stable_window=served_window(spec.run_time_s, spec.warmup_s, spec.cooldown_s),
        cost=estimate(session, spec.testbed_id, p.estimated_seconds),
        fraction=None
        if design.fraction is None
        else fraction_public(design.fraction, list(design.factors)),
        slo_search=bound,
        points=[] if spec.slo_search is not None else design.points[:200],
        same_system=same_system_public(design.points, design.fixed),
        power=plan,
        rule_range=rule_range(
            session,
            rule=spec.repetition_rule,
            factors=design.factors,
            fraction=design.fraction,
            configurations=len(design.points),
            run_time_s=spec.run_time_s,
            overhead_s=overhead.seconds,
            testbed_id=spec.testbed_id,
        ),
    )


@router.post("", response_model=ExperimentPublic, status_code=status.HTTP_201_CREATED)
def create_experiment(session: SessionDep, spec: ExperimentCreate) -> ExperimentPublic:
    """Create an experiment and store its grid of configurations."""
    design = _design(spec, also=_ref_problems(session, spec))
    exp = crud.create_experiment(session=session, spec=spec, design=design)
    # The answer is built before the commit: nothing is stored that cannot be answered.
    out = _public(session, [exp])[0]
    _commit_named(session, spec.name)
    return out


@router.get("", response_model=ExperimentsPublic)
def read_experiments(
    session: SessionDep,
    page: Annotated[Page, Depends(paging(default=50, maximum=500))],
    q: DbText | None = Query(default=None, max_length=200, description="name contains"),
    template: Template | None = None,
) -> ExperimentsPublic:
    """List experiments, newest first."""
    rows, count = crud.list_experiments(
        session=session, skip=page.skip, limit=page.limit, q=q, template=template
    )
    return ExperimentsPublic(data=_public(session, list(rows)), count=count)


@router.get("/{experiment_id}", response_model=ExperimentPublic)
def read_experiment(session: SessionDep, experiment_id: int) -> ExperimentPublic:
    """Get one experiment with its run counts."""
    return _public(session, [_load(session, experiment_id)])[0]


@router.put("/{experiment_id}", response_model=ExperimentPublic)
def update_experiment(
    session: SessionDep, experiment_id: int, spec: ExperimentUpdate
) -> ExperimentPublic:
    """Replace the design; only allowed while nothing has run."""
    exp = _load(session, experiment_id)
    if has_runs(session=session, experiment_id=exp.id):
        raise HTTPException(status.HTTP_409_CONFLICT, HAS_RUNS)
    design = _design(spec, also=_ref_problems(session, spec, exclude_id=exp.id))
    crud.update_experiment(session=session, experiment=exp, spec=spec, design=design)
    out = _public(session, [exp])[0]
    _commit_named(session, spec.name)
    return out


@router.delete("/{experiment_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_experiment(session: SessionDep, experiment_id: int) -> None:
    """Delete an experiment with its runs, results and raw run files."""
    exp = _load(session, experiment_id)
    if crud.run_counts(session=session, experiment_ids=[exp.id])[exp.id][RunStatus.RUNNING]:
        raise HTTPException(status.HTTP_409_CONFLICT, IS_RUNNING)
    doomed = run_ids(session=session, experiment_id=exp.id)
    session.delete(exp)
    session.commit()
    # After the commit: a failed delete keeps its files.
    remove_run_files(doomed)


@router.post(
    "/{experiment_id}/duplicate",
    response_model=ExperimentPublic,
    status_code=status.HTTP_201_CREATED,
)
def duplicate_experiment(
    session: SessionDep, experiment_id: int, body: ExperimentDuplicate
) -> ExperimentPublic:
    """Copy an experiment's design (not its runs) under a new name."""
    source = _load(session, experiment_id)
    if crud.get_by_name(session=session, name=body.name) is not None:
        raise unprocessable(
            ("name",), f"an experiment named {body.name!r} already exists", body.name
        )
    # The copy is checked as a new design: a stored design that breaks a rule is a 422
    # naming the field (fix it with PUT while it has no runs), never a second broken row.
    _design(_as_request(source, name=body.name))
    copy = crud.duplicate_experiment(session=session, source=source, name=body.name)
    out = _public(session, [copy])[0]
    _commit_named(session, body.name)
    return out


@router.get("/{experiment_id}/configurations", response_model=ConfigurationsPublic)
def read_configurations(session: SessionDep, experiment_id: int) -> ConfigurationsPublic:
    """The expanded grid, with every point's effective parameters."""
    exp = _load(session, experiment_id)
    configs = in_factor_order(list(exp.configurations), list(exp.factors))
    data = [ConfigurationPublic.of(c, exp.fixed) for c in configs]
    return ConfigurationsPublic(data=data, count=len(data))
