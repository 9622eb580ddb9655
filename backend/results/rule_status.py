"""The repetition rule of a stored experiment, applied to its stored results: per
configuration, the verdict the worker acts on and the results show ("target met at n=3").
A design with a factorial analysis has its configurations stop together
(`repetition_rule.decide_together`), any other each on its own (`repetition_rule.decide`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy.orm import Session

from backend.analysis.factorial import is_two_level
from backend.crud.repetitions import PENDING, run_counts
from backend.models import Experiment, RequestType, RunStatus
from backend.results.aggregate import by_configuration
from backend.results.read import run_values
from backend.results.repetition_rule import CellRuns, RuleVerdict, decide, decide_together
from backend.schemas.repetition_rule import RepetitionRuleSpec


def rule_of(experiment: Experiment) -> RepetitionRuleSpec | None:
    """The experiment's stored rule, or None for fixed repetitions."""
    stored = experiment.repetition_rule
    return None if stored is None else RepetitionRuleSpec.model_validate(stored)


def stops_together(factors: Mapping[str, Sequence[Any]], fraction: object) -> bool:
    """Whether the rule keeps a design's configurations balanced: a design with a
    factorial analysis (a 2^k grid, or a 2^(k-p) `fraction`) needs the same n in every
    cell."""
    return bool(fraction) or is_two_level(factors)


def verdicts(
    *,
    session: Session,
    experiment: Experiment,
    rule: RepetitionRuleSpec,
    configuration_ids: list[int] | None = None,
) -> dict[int, RuleVerdict]:
    """Per configuration (those given, or every one with runs), the rule's verdict on the
    rule's metric over each succeeded run's stored stable window, request type all. When
    the configurations stop together every one is read, whichever are asked for."""
    together = stops_together(experiment.factors, experiment.fraction)
    counts = run_counts(
        session=session,
        experiment_id=experiment.id,
        configuration_ids=None if together else configuration_ids,
    )
    runs = run_values(
        session=session,
        experiment_id=experiment.id,
        source=rule.source,
        request_type=RequestType.ALL,
        metrics=[rule.metric],
    )
    values = by_configuration(runs, rule.metric)
    cells = {
        config_id: CellRuns(
            values.get(config_id, []),
            runs=sum(by_status.values()),
            pending=sum(by_status.get(s, 0) for s in PENDING),
            cancelled=by_status.get(RunStatus.CANCELLED, 0) > 0,
        )
        for config_id, by_status in counts.items()
    }
    if together:
        found = decide_together(cells, rule)
        wanted = found.keys() if configuration_ids is None else set(configuration_ids)
        return {k: v for k, v in found.items() if k in wanted}
    return {
        k: decide(c.values, runs=c.runs, pending=c.pending, rule=rule, cancelled=c.cancelled)
        for k, c in cells.items()
    }


def reasons(*, session: Session, experiment: Experiment) -> dict[int, str]:
    """Per configuration with runs, why it has its n (empty for fixed repetitions)."""
    rule = rule_of(experiment)
    if rule is None:
        return {}
    found = verdicts(session=session, experiment=experiment, rule=rule)
    return {config_id: v.reason(rule) for config_id, v in found.items()}
