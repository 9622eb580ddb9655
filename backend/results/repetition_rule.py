"""The repetition rule's decision for one configuration: add a run, or why it has its n.

Pure (numbers in, a verdict out). The worker asks it after each run of a configuration ends,
and the results ask it again to say why each configuration has its n, so both read the same
decision from the same stored values. The interval is the results core's ordinary Student t
interval (`aggregate.confidence_interval`); README "Repetitions by a rule" argues why the rule
does not bias it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from backend.results.aggregate import confidence_interval
from backend.schemas.repetition_rule import RepetitionRuleSpec

Outcome = Literal["waiting", "more", "target_met", "maximum", "no_mean", "cancelled"]


@dataclass(frozen=True)
class RuleVerdict:
    """What the rule says of one configuration, and the numbers behind it."""

    outcome: Outcome
    n: int  # repetitions with a value of the metric
    runs: int  # runs made (any status): what the cap counts
    half_width_pct: float | None  # half-width of the interval, % of the mean

    @property
    def add_run(self) -> bool:
        """Whether the worker adds a repetition now."""
        return self.outcome == "more"

    def reason(self, rule: RepetitionRuleSpec) -> str:
        """Why the configuration has its n, for the results and the report."""
        hw = "" if self.half_width_pct is None else f"{self.half_width_pct:.1f} %"
        target = f"{rule.half_width_pct:g} %"
        if self.outcome == "target_met":
            return f"target met at n={self.n}, half-width {hw} <= {target}"
        if self.outcome == "maximum":
            tail = f", half-width {hw}" if hw else ""
            return f"stopped at maximum {rule.max_repetitions}{tail} (target {target})"
        if self.outcome == "waiting":
            return f"waiting for runs: n={self.n} of minimum {rule.min_repetitions}"
        if self.outcome == "cancelled":
            return f"cancelled at n={self.n}: the rule adds no runs to a cancelled experiment"
        if self.outcome == "no_mean":
            return f"stopped at n={self.n}: the mean is 0, so no relative half-width"
        if not hw:
            return f"adding repetitions: n={self.n}, an interval needs 2 values"
        return f"adding repetitions: n={self.n}, half-width {hw} > {target}"


def decide(
    values: Sequence[float],
    *,
    runs: int,
    pending: int,
    rule: RepetitionRuleSpec,
    cancelled: bool = False,
) -> RuleVerdict:
    """The rule applied to a configuration's repetition values (succeeded runs, in
    repetition order). `runs` counts every run made, failed ones too, so failures cannot
    exceed the cap; `pending` counts its queued or running runs: the rule judges a
    configuration only when none is left, after its first `min_repetitions`. A configuration
    with a cancelled run (the user stopped the experiment) gets no more."""
    n = len(values)
    half_pct = _half_width_pct(values, rule.confidence) if n >= 2 else None
    if cancelled and pending == 0:
        met = half_pct is not None and half_pct <= rule.half_width_pct
        return RuleVerdict("target_met" if met else "cancelled", n, runs, half_pct)
    if runs >= rule.max_repetitions and pending == 0:
        met = half_pct is not None and half_pct <= rule.half_width_pct
        return RuleVerdict("target_met" if met else "maximum", n, runs, half_pct)
    if pending > 0 or runs < rule.min_repetitions:
        return RuleVerdict("waiting", n, runs, half_pct)
    if half_pct is None:
        # Fewer than two values after the minimum (failed runs): more runs, up to the cap;
        # a zero mean has no relative half-width, and more runs would not give it one.
        return RuleVerdict("more" if n < 2 else "no_mean", n, runs, None)
    if half_pct <= rule.half_width_pct:
        return RuleVerdict("target_met", n, runs, half_pct)
    return RuleVerdict("more", n, runs, half_pct)


def _half_width_pct(values: Sequence[float], confidence: float) -> float | None:
    """Half-width of the t interval as a percent of |mean|; None when the mean is 0."""
    ci = confidence_interval(values, confidence)
    if ci.mean == 0.0:
        return None
    return 100.0 * ci.half_width / abs(ci.mean)
