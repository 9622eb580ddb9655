"""Creating and queueing experiments straight in the database (the API has its own tests)."""

import uuid
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from backend.crud.run import queue_runs
from backend.domain.grid import expand, normalize_factors, normalize_fixed
from backend.domain.templates import Template
from backend.models import Configuration, Experiment, Run


def create_queued_experiment(
    db: Session,
    *,
    factors: dict[str, list[Any]],
    fixed: dict[str, Any],
    repetitions: int = 1,
    run_time_s: int = 5,
    warmup_s: int = 1,
    cooldown_s: int = 1,
    testbed_id: int | None = None,
) -> tuple[Experiment, list[int]]:
    """An experiment with its configurations and queued runs; returns it and the run ids."""
    factors, fixed = normalize_factors(factors), normalize_fixed(fixed)
    exp = Experiment(
        name=f"exec-{uuid.uuid4().hex[:10]}",
        description="",
        template=Template.CUSTOM,
        factors=factors,
        fixed=fixed,
        repetitions=repetitions,
        run_time_s=run_time_s,
        warmup_s=warmup_s,
        cooldown_s=cooldown_s,
        testbed_id=testbed_id,
    )
    db.add(exp)
    db.flush()
    for i, values in enumerate(expand(factors, fixed)):
        db.add(Configuration(experiment_id=exp.id, index=i, values=values))
    db.flush()
    run_ids, _ = queue_runs(session=db, experiment=exp)
    db.commit()
    return exp, run_ids


def runs_of(db: Session, experiment_id: int) -> list[Run]:
    db.expire_all()
    return list(db.scalars(select(Run).where(Run.experiment_id == experiment_id).order_by(Run.id)))
