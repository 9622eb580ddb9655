"""One step of a latency-SLO search: read its probes, then queue the next probe or stop.

Run after Start and after each probe finishes (worker.tasks.slo), and by recovery for a search
left without one. Safe to run twice or at once: the experiment row is locked for the step, a
step waits while a probe is queued or running, and adding a probe is idempotent.
"""

import logging
from datetime import timedelta

from sqlalchemy import exists, func, select
from sqlalchemy.orm import Session

from backend.core.db import SessionLocal
from backend.core.queue import enqueue_runs
from backend.crud.dispatch import Enqueue, send_unsent
from backend.crud.slo import add_probe
from backend.models import Experiment, Run
from backend.results.slo import ACTIVE, search_state
from worker.live import publish

logger = logging.getLogger(__name__)


def advance_search(experiment_id: int, enqueue: Enqueue = enqueue_runs) -> int | None:
    """Queue and send the search's next probe; its run id, or None (waiting, done, stopped).
    `enqueue` sends the run's message (the benchmark runs probes in-process instead)."""
    with SessionLocal() as session:
        exp = session.scalar(
            select(Experiment).where(Experiment.id == experiment_id).with_for_update()
        )
        if exp is None or exp.slo_search is None:
            session.rollback()
            return None
        state = search_state(session, exp)
        step = state.step
        if step is None or step.done:
            session.commit()
            logger.info(
                "slo.step",
                extra={"experiment_id": experiment_id, "state": state.public.state},
            )
            publish.publish(experiment_id, {"type": "slo", "state": state.public.state})
            return None
        assert step.rate is not None and step.repetition is not None
        run_id = add_probe(
            session=session, experiment=exp, rate=step.rate, repetition=step.repetition
        )
        session.commit()
        logger.info(
            "slo.probe",
            extra={"experiment_id": experiment_id, "run_id": run_id, "rate": step.rate},
        )
        publish.run_state(experiment_id, run_id, "queued")
        send_unsent(session, enqueue, experiment_id=experiment_id)
        return run_id


def is_search_run(run_id: int) -> int | None:
    """The experiment id when the run is a probe of a search, else None."""
    with SessionLocal() as session:
        row = session.execute(
            select(Experiment.id, Experiment.slo_search)
            .join(Run, Run.experiment_id == Experiment.id)
            .where(Run.id == run_id)
        ).first()
    return int(row[0]) if row is not None and row[1] is not None else None


# Recovery looks at searches whose last probe ended this recently (older ones have had their
# step; a finished search is not read again forever), and not sooner than the grace, which
# leaves the step sent after the probe to do its work.
STALL_LOOKBACK = timedelta(hours=1)
STALL_GRACE = timedelta(seconds=30)


def stalled_searches(session: Session) -> list[int]:
    """Searches with no probe queued or running whose last probe ended a while ago: the step
    after it may have been lost (a worker died between the probe and its message)."""
    active = exists().where(Run.experiment_id == Experiment.id, Run.status.in_(ACTIVE))
    last = (
        select(func.max(Run.finished_at))
        .where(Run.experiment_id == Experiment.id)
        .scalar_subquery()
    )
    now = func.now()
    stmt = select(Experiment.id).where(
        Experiment.slo_search.is_not(None),
        ~active,
        last > now - STALL_LOOKBACK,
        last < now - STALL_GRACE,
    )
    return [int(i) for i in session.scalars(stmt)]
