"""A latency-SLO search's probes: a rate is a configuration ({rate_limit: r}), a probe a run of
it. Adding one is idempotent (the unique configuration values and run repetition), so a
search step that runs twice adds it once."""

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from backend.crud.run import insert_run
from backend.domain.slo_design import RATE
from backend.models import Configuration, Experiment, Run


def add_probe(*, session: Session, experiment: Experiment, rate: int, repetition: int) -> int:
    """The queued (unsent) run of `rate` x `repetition`, created when missing; flushes.
    The experiment's factors list the rates probed, so every grid view reads a search too."""
    values = {RATE: rate}
    config = session.scalar(
        select(Configuration).where(
            Configuration.experiment_id == experiment.id, Configuration.values == values
        )
    )
    if config is None:
        index = session.scalar(
            select(func.count())
            .select_from(Configuration)
            .where(Configuration.experiment_id == experiment.id)
        )
        config = Configuration(experiment_id=experiment.id, index=int(index or 0), values=values)
        session.add(config)
        session.flush()
        rates = sorted({*experiment.factors.get(RATE, []), rate})
        experiment.factors = {RATE: rates}
    insert_run(
        session=session,
        experiment_id=experiment.id,
        configuration_id=config.id,
        repetition=repetition,
    )
    session.flush()
    run_id = session.scalar(
        select(Run.id).where(Run.configuration_id == config.id, Run.repetition == repetition)
    )
    assert run_id is not None
    return int(run_id)


def read_probe_configurations(*, session: Session, experiment_id: int) -> list[Configuration]:
    """The search's rates so far, in the order they were added."""
    return list(
        session.scalars(
            select(Configuration)
            .where(Configuration.experiment_id == experiment_id)
            .order_by(Configuration.index)
        )
    )


def read_probe_runs(*, session: Session, experiment_id: int) -> list[Run]:
    """The search's probes (runs) so far, in the order they were added."""
    return list(
        session.scalars(select(Run).where(Run.experiment_id == experiment_id).order_by(Run.id))
    )
