"""Creating and queueing experiments straight in the database (the API has its own tests)."""

import time
import uuid
from collections.abc import Callable
from typing import Any, TypedDict, Unpack

from sqlalchemy import select
from sqlalchemy.orm import Session

from backend.core.config import settings
from backend.crud.run import queue_runs
from backend.domain.design_fields import RUN_TIME
from backend.domain.grid import expand, normalize_factors, normalize_fixed
from backend.domain.templates import Template
from backend.models import Configuration, Experiment, Run, RunStatus


class ExperimentSpec(TypedDict, total=False):
    """The experiment's settings besides its grid; missing ones take create_experiment's."""

    repetitions: int
    run_time_s: int
    warmup_s: int
    cooldown_s: int
    testbed_id: int | None
    name_prefix: str


def create_experiment(
    db: Session,
    *,
    factors: dict[str, list[Any]],
    fixed: dict[str, Any],
    **spec: Unpack[ExperimentSpec],
) -> Experiment:
    """An experiment with its configurations (flushed, not committed; no runs)."""
    factors, fixed = normalize_factors(factors), normalize_fixed(fixed)
    exp = Experiment(
        name=f"{spec.get('name_prefix', 'exec')}-{uuid.uuid4().hex[:10]}",
        description="",
        template=Template.CUSTOM,
        factors=factors,
        fixed=fixed,
        repetitions=spec.get("repetitions", 1),
        run_time_s=spec.get("run_time_s", 5),
        warmup_s=spec.get("warmup_s", 1),
        cooldown_s=spec.get("cooldown_s", 1),
        testbed_id=spec.get("testbed_id"),
    )
    db.add(exp)
    db.flush()
    for i, values in enumerate(
        expand(factors, fixed, memory_limit_mb=settings.MEMCACHED_MAX_MEMORY_MB)
    ):
        db.add(Configuration(experiment_id=exp.id, index=i, values=values))
    db.flush()
    return exp


def create_queued_experiment(
    db: Session,
    *,
    factors: dict[str, list[Any]],
    fixed: dict[str, Any],
    **spec: Unpack[ExperimentSpec],
) -> tuple[Experiment, list[int]]:
    """An experiment with its configurations and queued runs; returns it and the run ids."""
    exp = create_experiment(db, factors=factors, fixed=fixed, **spec)
    run_ids, _ = queue_runs(session=db, experiment=exp)
    db.commit()
    return exp, run_ids


# The shortest run the API takes, which still goes through every phase of a run (preflight,
# start, populate, load, stop, fetch, parse, store): for tests whose claim is the lifecycle,
# recovery, dispatch or bookkeeping, not the load. All of its load is measured (no warm-up or
# cool-down cut).
class RunTimes(TypedDict):
    run_time_s: int
    warmup_s: int
    cooldown_s: int


SHORTEST_RUN: RunTimes = {"run_time_s": RUN_TIME.minimum, "warmup_s": 0, "cooldown_s": 0}

# A small local-testbed configuration: one server, clients straight to it, memaslap.
LOCAL_FIXED: dict[str, Any] = {
    "servers": 1,
    "middlewares": 0,
    "ratio": "1:9",
    "value_size": 128,
    "key_maximum": 1000,
    "load_generator": "memaslap",
}


def runs_of(db: Session, experiment_id: int) -> list[Run]:
    db.expire_all()
    return list(db.scalars(select(Run).where(Run.experiment_id == experiment_id).order_by(Run.id)))


FINAL = {RunStatus.SUCCEEDED, RunStatus.FAILED, RunStatus.CANCELLED}


def wait_for(
    db: Session, experiment_id: int, done: Callable[[list[Run]], bool], timeout_s: float
) -> list[Run]:
    """Poll the experiment's runs until `done(runs)`; fails with their states on timeout."""
    deadline = time.monotonic() + timeout_s
    while True:
        runs = runs_of(db, experiment_id)
        if done(runs):
            return runs
        if time.monotonic() > deadline:
            states = [(r.id, r.status.value, r.attempt, r.error) for r in runs]
            raise AssertionError(f"timed out after {timeout_s} s; runs: {states}")
        time.sleep(0.5)


def all_final(runs: list[Run]) -> bool:
    return bool(runs) and all(r.status in FINAL for r in runs)


def in_load_phase(runs: list[Run]) -> Run | None:
    """A running run whose load generators have started."""
    for r in runs:
        if r.status == RunStatus.RUNNING and any(c["role"] == "client" for c in r.commands):
            return r
    return None
