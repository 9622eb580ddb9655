"""After a run ends: the experiment's repetition rule adds the configuration's next run when
its interval is still too wide (README "Repetitions by a rule").

Idempotent: a redelivered message, or two workers ending runs of one configuration at once,
add one run at most (the next repetition number is unique per configuration)."""

import logging

from backend.core.db import SessionLocal
from backend.core.queue import BrokerUnavailable, enqueue_runs
from backend.crud.dispatch import mark_sent
from backend.crud.repetitions import add_repetition
from backend.models import Experiment, Run, RunStatus
from backend.results.rule_status import rule_of, verdicts
from worker.live import publish

logger = logging.getLogger(__name__)

# A cancelled run means the user stopped the experiment: the rule adds nothing then.
ENDED = (RunStatus.SUCCEEDED, RunStatus.FAILED)


def follow_rule(run_id: int) -> int | None:
    """Apply the rule to the ended run's configuration; the id of the run added, or None."""
    with SessionLocal() as session:
        run = session.get(Run, run_id)
        if run is None or run.status not in ENDED:
            return None
        experiment = session.get(Experiment, run.experiment_id)
        assert experiment is not None
        rule = rule_of(experiment)
        if rule is None:
            return None
        config_id = run.configuration_id
        verdict = verdicts(
            session=session, experiment=experiment, rule=rule, configuration_ids=[config_id]
        )[config_id]
        extra = {"run_id": run_id, "configuration_id": config_id, "reason": verdict.reason(rule)}
        if not verdict.add_run:
            logger.info("repetitions.settled", extra=extra)
            return None
        added = add_repetition(
            session=session, experiment_id=experiment.id, configuration_id=config_id
        )
        session.commit()
        if added is None:
            return None
        try:  # sent like Start's runs
            enqueue_runs(mark_sent(session, [added]))
        except BrokerUnavailable:  # marked sent, not there: recovery re-sends it
            logger.warning("repetitions.send_failed", extra={**extra, "added_run_id": added})
        publish.run_state(experiment.id, added, RunStatus.QUEUED.value, verdict.reason(rule))
        logger.info("repetitions.added", extra={**extra, "added_run_id": added})
        return added
