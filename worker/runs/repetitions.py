"""After a run ends: the experiment's repetition rule adds the configuration's next run when
its interval is still too wide, or for a factorial design the next run of every
configuration while one of them misses the target (README "Repetitions by a rule").

Idempotent: a redelivered message, or two workers ending runs of one configuration at once,
add one run at most (the next repetition number is unique per configuration)."""

import logging

from backend.core.db import SessionLocal
from backend.core.queue import BrokerUnavailable, enqueue_runs
from backend.crud.dispatch import mark_sent
from backend.crud.repetitions import add_repetition
from backend.models import Experiment, Run, RunStatus
from backend.results.rule_status import rule_of, stops_together, verdicts
from worker.live import publish

logger = logging.getLogger(__name__)

# A cancelled run means the user stopped the experiment: the rule adds nothing then.
ENDED = (RunStatus.SUCCEEDED, RunStatus.FAILED)


def follow_rule(run_id: int) -> list[int]:
    """Apply the rule after a run ended: to its configuration, or when the configurations
    stop together (a factorial design) to all of them; the ids of the runs added."""
    with SessionLocal() as session:
        run = session.get(Run, run_id)
        if run is None or run.status not in ENDED:
            return []
        # Locked until the commit: two runs ending at once are judged one after the other,
        # so the second sees the first's added runs as pending and adds none of its own.
        experiment = session.get(Experiment, run.experiment_id, with_for_update=True)
        assert experiment is not None
        rule = rule_of(experiment)
        if rule is None:
            return []
        scope = (
            None
            if stops_together(experiment.factors, experiment.fraction)
            else [run.configuration_id]
        )
        found = verdicts(session=session, experiment=experiment, rule=rule, configuration_ids=scope)
        mine = found.get(run.configuration_id)
        extra = {
            "run_id": run_id,
            "configuration_id": run.configuration_id,
            "reason": None if mine is None else mine.reason(rule),
        }
        adding = {config_id: v for config_id, v in found.items() if v.add_run}
        if not adding:
            logger.info("repetitions.settled", extra=extra)
            return []
        added = {
            config_id: add_repetition(
                session=session, experiment_id=experiment.id, configuration_id=config_id
            )
            for config_id in adding
        }
        session.commit()
        new = {config_id: run_id for config_id, run_id in added.items() if run_id is not None}
        if not new:
            return []
        try:  # sent like Start's runs
            enqueue_runs(mark_sent(session, list(new.values())))
        except BrokerUnavailable:  # marked sent, not there: recovery re-sends it
            logger.warning("repetitions.send_failed", extra={**extra, "added": list(new.values())})
        for config_id, added_id in new.items():
            reason = adding[config_id].reason(rule)
            publish.run_state(experiment.id, added_id, RunStatus.QUEUED.value, reason)
        logger.info("repetitions.added", extra={**extra, "added": list(new.values())})
        return list(new.values())
