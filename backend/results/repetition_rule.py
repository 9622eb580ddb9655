"""The repetition rule's decision for one configuration (`decide`), or for every cell of a
factorial design at once (`decide_together`): add a run, or why it has its n.

Pure (numbers in, a verdict out). The worker asks it after each run of a configuration ends,
and the results ask it again to say why each configuration has its n, so both read the same
decision from the same stored values. The interval is the results core's ordinary Student t
interval (`aggregate.confidence_interval`); README "Repetitions by a rule" argues why the rule
does not bias it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, TypeVar

from backend.results.aggregate import confidence_interval
from backend.schemas.repetition_rule import RepetitionRuleSpec

Outcome = Literal[
    "waiting",
    "more",
    "target_met",
    "maximum",
    "no_mean",
    "cancelled",
    # Only when the cells stop together (decide_together):
    "held",  # settled, waiting for the other cells' runs to end
    "with_others",  # target met here, a run more because another cell misses it
    "catching_up",  # a run failed: a run more to reach the other cells' n
    "stopped_with_others",  # another cell reached the cap (or cannot catch up): all stop
]
# The outcomes on which the worker adds a repetition.
ADDS_RUN: frozenset[Outcome] = frozenset({"more", "with_others", "catching_up"})


@dataclass(frozen=True)
class RuleVerdict:
    """What the rule says of one configuration, and the numbers behind it."""

    outcome: Outcome
    n: int  # repetitions with a value of the metric
    runs: int  # runs made (any status): what the cap counts
    half_width_pct: float | None  # half-width of the interval, % of the mean
    group_n: int | None = None  # when cells stop together: the n they are brought to

    @property
    def add_run(self) -> bool:
        """Whether the worker adds a repetition now."""
        return self.outcome in ADDS_RUN

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
        if self.outcome == "held":
            return (
                f"n={self.n}, waiting for the other configurations' runs: a factorial's "
                "configurations stop together"
            )
        if self.outcome == "with_others":
            return (
                f"adding repetitions with the other configurations: n={self.n}, half-width "
                f"{hw} <= {target} here, not yet in every configuration"
            )
        if self.outcome == "catching_up":
            return (
                f"adding a repetition to reach the other configurations' n={self.group_n} "
                f"(n={self.n} after a failed run)"
            )
        if self.outcome == "stopped_with_others":
            tail = f", half-width {hw}" if hw else ""
            return (
                f"stopped at n={self.n} with the other configurations{tail} (target "
                f"{target}): another configuration reached the maximum {rule.max_repetitions}"
            )
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


K = TypeVar("K")


@dataclass(frozen=True)
class CellRuns:
    """One configuration's runs as the rule reads them (the arguments of `decide`)."""

    values: Sequence[float]
    runs: int
    pending: int
    cancelled: bool = False


def decide_together(cells: Mapping[K, CellRuns], rule: RepetitionRuleSpec) -> dict[K, RuleVerdict]:
    """The rule for the cells of a factorial design: they stop together, at the first n
    where every cell meets the target, or when a cell reaches the cap.

    Why: the 2^k r (and 2^(k-p) r) analysis takes r replications in every cell; effects
    are then orthogonal contrasts of cell means and the error has 2^k (r - 1) degrees of
    freedom. A cell stopped alone at its own n would leave the cells unequal, and the
    analysis would have to become a least-squares fit with unequal weights (README
    "Repetitions by a rule"). So a cell that meets the target still gets a run while
    another misses it ("with_others"), a cell behind after a failed run catches up
    first ("catching_up"), and nothing is judged while a cell has runs in flight
    ("held"). The group's cost is the noisiest cell's n in every cell, bounded by the cap
    as before. A cell that cannot reach the others' n (at the cap after failures) or a
    cancelled experiment stops the group where it is: the analysis then names the
    unequal n.
    """
    alone = {
        k: decide(c.values, runs=c.runs, pending=c.pending, rule=rule, cancelled=c.cancelled)
        for k, c in cells.items()
    }
    if not alone:
        return {}
    if any(v.outcome == "cancelled" for v in alone.values()):
        return {k: _stop(v, "cancelled") for k, v in alone.items()}
    if any(v.outcome == "waiting" for v in alone.values()):
        return {k: v if v.outcome == "waiting" else _as(v, "held") for k, v in alone.items()}
    # Every cell settled: bring the cells behind (failed runs) to the others' n first.
    top = max(v.n for v in alone.values())
    behind = {k for k, v in alone.items() if v.n < top}
    can_catch_up = {k for k in behind if cells[k].runs < rule.max_repetitions}
    if can_catch_up:
        return {
            k: _as(v, "catching_up", top) if k in can_catch_up else _as(v, "held")
            for k, v in alone.items()
        }
    if behind:  # behind and at the cap: the group cannot be balanced; all stop here
        return {k: _stop(v, "stopped_with_others") for k, v in alone.items()}
    # Equal n: all stop when every cell met the target (or has no relative half-width).
    missing = [k for k, v in alone.items() if v.outcome == "more"]
    if not missing:
        return alone
    if any(cells[k].runs >= rule.max_repetitions for k in cells):
        return {k: _stop(v, "stopped_with_others") for k, v in alone.items()}
    return {k: v if v.outcome == "more" else _as(v, "with_others", top) for k, v in alone.items()}


def _as(v: RuleVerdict, outcome: Outcome, group_n: int | None = None) -> RuleVerdict:
    return RuleVerdict(outcome, v.n, v.runs, v.half_width_pct, group_n)


def _stop(v: RuleVerdict, instead: Outcome) -> RuleVerdict:
    """A cell's final verdict when the group stops: its own, unless that asked for more."""
    return _as(v, instead) if v.add_run else v
