"""The report's statement of the repetition rule: the rule as fixed before Start, and why
each configuration has its n (the results' reasons)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from backend.domain.metrics import METRICS
from backend.models import Experiment
from backend.report.latex import Paragraph, Section
from backend.results.rule_status import reasons, rule_of, stops_together


def rule_text(exp: Experiment) -> str | None:
    """The rule in one sentence, or None for fixed repetitions."""
    rule = rule_of(exp)
    if rule is None:
        return None
    metric = METRICS[rule.metric]
    return (
        f"Repetitions by a rule fixed before the runs: each configuration ran at least "
        f"{rule.min_repetitions} and at most {rule.max_repetitions} times, a repetition added "
        f"while the {rule.confidence:.0%} Student t interval of its mean {metric.label} "
        f"({rule.source}, {metric.unit}) had a half-width above {rule.half_width_pct:g} % of "
        f"the mean. The rule and its cap were fixed before the first run. The intervals "
        f"reported are these ordinary t intervals over all the repetitions run, not "
        f"sequential ones: the mean is all but unbiased, but where the noise is near or "
        f"above the target their coverage is a few points below the nominal level."
        + (TOGETHER if stops_together(exp.factors, exp.fraction) else "")
    )


TOGETHER = (
    " The configurations are the cells of a factorial design, so they stopped together: "
    "each got a repetition while any one missed the target (up to the cap), which gives the "
    "factorial analysis the same number of repetitions in every cell."
)


def rule_section(session: Session, exp: Experiment) -> Section | None:
    """A "Repetitions" section: the rule, then each configuration's n and its reason."""
    text = rule_text(exp)
    if text is None:
        return None
    why = reasons(session=session, experiment=exp)
    order = list(exp.factors)  # JSONB sorts a configuration's keys: the design's order
    lines = [
        f"Configuration {c.index + 1} ({_values(c.values, order)}): {why[c.id]}."
        for c in exp.configurations
        if c.id in why
    ]
    return Section("Repetitions", [Paragraph(text), *(Paragraph(line) for line in lines)])


def _values(values: dict[str, object], order: list[str]) -> str:
    return ", ".join(f"{k} = {values[k]}" for k in order if k in values)
