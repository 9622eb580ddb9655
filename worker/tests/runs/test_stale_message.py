"""A run message whose dispatch number is not the run's any more (the run was re-sent after its
worker was judged dead) is dropped: not run, and not retried even when the testbed is busy, so
an old message never starts a second lineage of retries."""

from sqlalchemy.orm import Session

from backend.crud.dispatch import claim_unsent, resend
from backend.models import RunStatus
from worker.runs import lock as testbed
from worker.runs.execute import BUSY_RETRY_S
from worker.runs.testbed import local_testbed
from worker.tasks.runs import _execute_run
from worker.tests.utils.experiments import LOCAL_FIXED, create_queued_experiment, runs_of


def test_a_stale_message_is_dropped_and_the_current_one_retried(db: Session) -> None:
    exp, (run_id,) = create_queued_experiment(
        db, factors={"clients_per_thread": [1]}, fixed=LOCAL_FIXED
    )
    assert claim_unsent(db, experiment_id=exp.id, limit=10, older_than_s=None) == [(run_id, 1)]
    assert resend(db, [(run_id, 1)], lambda messages: None) == [run_id]  # now message 2
    with testbed.testbed_lock(local_testbed().lock_key) as lock:
        assert lock.acquired  # the testbed is busy for the messages below
        assert _execute_run(run_id, 1) is None  # stale: dropped, no retry
        assert _execute_run(run_id, 2) == BUSY_RETRY_S  # current: retried later
    (run,) = runs_of(db, exp.id)
    assert (run.status, run.attempt, run.dispatch) == (RunStatus.QUEUED, 0, 2)
