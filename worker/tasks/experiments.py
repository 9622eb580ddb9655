"""Start's background sender: the messages of an experiment's queued runs beyond the few the
API sent itself (a 20,000-run grid), in batches, with progress on the experiment's live
stream. Idempotent: it sends only runs still unsent, so a redelivery or two at once (they
take different rows) never send a run twice; recovery sends whatever a dead sender left."""

import logging

from backend.core.db import SessionLocal
from backend.core.queue import DISPATCH_TASK, MAINTENANCE_QUEUE, enqueue_runs, withdraw_runs
from backend.crud.dispatch import send_unsent, unsent_count
from worker.live import publish
from worker.tasks.base import instrumented_task

logger = logging.getLogger(__name__)


def dispatch_experiment(experiment_id: int) -> int:
    """Send every unsent queued run of the experiment; how many this call sent."""
    with SessionLocal() as session:

        def progress(sent: int) -> None:
            left = unsent_count(session, [experiment_id])[experiment_id]
            publish.publish(experiment_id, {"type": "sending", "sent": sent, "unsent": left})

        sent = send_unsent(
            session,
            enqueue_runs,
            experiment_id=experiment_id,
            progress=progress,
            withdraw=withdraw_runs,
        )
    logger.info("experiment.dispatched", extra={"experiment_id": experiment_id, "sent": sent})
    return sent


@instrumented_task(name=DISPATCH_TASK, queue=MAINTENANCE_QUEUE, soft_time_limit=900, time_limit=960)
def dispatch(experiment_id: int) -> None:
    dispatch_experiment(experiment_id)
