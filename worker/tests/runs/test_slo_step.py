"""The search step against PostgreSQL (no testbed): one probe at a time, idempotent, a lost
step found by recovery, a cancelled probe stopping the search."""

from datetime import UTC, datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from backend.crud.dispatch import Message
from backend.models import Configuration, Run, RunStatus
from backend.schemas.slo import SloSearchSpec
from worker.runs.slo_search import advance_search, stalled_searches
from worker.tests.utils.experiments import create_experiment

SENT: list[Message] = []


def _enqueue(messages: list[Message]) -> None:
    SENT.extend(messages)


def _runs(db: Session, experiment_id: int) -> list[Run]:
    db.expire_all()
    return list(db.scalars(select(Run).where(Run.experiment_id == experiment_id).order_by(Run.id)))


def test_step_queues_one_probe_at_a_time_and_resumes_after_a_lost_step(db: Session) -> None:
    exp = create_experiment(db, factors={}, fixed={"servers": 1, "load_generator": "memtier"})
    db.query(Configuration).filter_by(experiment_id=exp.id).delete()
    exp.slo_search = SloSearchSpec(target_us=2000, start_rate=64).model_dump()
    db.commit()

    first = advance_search(exp.id, _enqueue)
    assert first is not None and SENT[-1][0] == first
    # A second step (redelivered message) while the probe is queued adds nothing.
    assert advance_search(exp.id, _enqueue) is None
    (run,) = _runs(db, exp.id)
    assert run.configuration.values == {"rate_limit": 64} and run.repetition == 0
    assert exp.id not in stalled_searches(db)  # a probe is queued

    # The probe ended a minute ago and its step message was lost: recovery finds the search.
    db.execute(
        update(Run)
        .where(Run.id == first)
        .values(status=RunStatus.SUCCEEDED, finished_at=datetime.now(UTC) - timedelta(minutes=1))
    )
    db.commit()
    assert exp.id in stalled_searches(db)
    # No latency was stored for it: not shown to meet, so the search brackets down.
    second = advance_search(exp.id, _enqueue)
    assert second is not None
    assert [r.configuration.values["rate_limit"] for r in _runs(db, exp.id)] == [64, 32]
    db.refresh(exp)
    assert exp.factors == {"rate_limit": [32, 64]}

    # A cancelled probe stops the search until Start resumes it.
    db.execute(update(Run).where(Run.id == second).values(status=RunStatus.CANCELLED))
    db.commit()
    assert advance_search(exp.id, _enqueue) is None
    assert len(_runs(db, exp.id)) == 2
