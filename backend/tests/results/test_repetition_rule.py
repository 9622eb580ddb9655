"""The repetition rule's decision on seeded samples: more runs until the interval's
half-width meets the target, never past the cap, and the reason each n is given."""

import numpy as np
import pytest

from backend.results.aggregate import confidence_interval
from backend.results.repetition_rule import CellRuns, decide, decide_together
from backend.schemas.repetition_rule import RepetitionRuleSpec

RULE = RepetitionRuleSpec(
    half_width_pct=5.0, confidence=0.95, min_repetitions=3, max_repetitions=10
)


def _run_rule(samples: list[float], rule: RepetitionRuleSpec = RULE) -> int:
    """Repetitions the rule asks for when the k-th run measures samples[k]."""
    n = rule.min_repetitions
    while decide(samples[:n], runs=n, pending=0, rule=rule).add_run:
        n += 1
    return n


def test_waits_for_the_minimum_and_for_pending_runs() -> None:
    assert decide([100.0, 100.5], runs=2, pending=0, rule=RULE).outcome == "waiting"
    assert decide([100.0, 100.5, 99.7], runs=4, pending=1, rule=RULE).outcome == "waiting"


def test_target_met_at_the_minimum_on_quiet_noise() -> None:
    samples = list(np.random.default_rng(1).normal(10_000.0, 100.0, size=10))  # 1 %
    v = decide(samples[:3], runs=3, pending=0, rule=RULE)
    ci = confidence_interval(samples[:3], 0.95)
    assert v.outcome == "target_met" and not v.add_run
    assert v.half_width_pct == pytest.approx(100.0 * ci.half_width / ci.mean)
    assert v.reason(RULE) == f"target met at n=3, half-width {v.half_width_pct:.1f} % <= 5 %"


def test_adds_runs_until_the_target_on_seeded_noise() -> None:
    # 6 % noise: 3 repetitions cannot meet 5 % (t(0.975, 2) = 4.30), about 7 can.
    samples = list(np.random.default_rng(5).normal(10_000.0, 600.0, size=10))
    n = _run_rule(samples)
    assert 3 < n < 10
    # Every smaller n missed the target; n met it, by the results core's own interval.
    for k in range(3, n):
        ci = confidence_interval(samples[:k], 0.95)
        assert 100.0 * ci.half_width / ci.mean > 5.0
    ci = confidence_interval(samples[:n], 0.95)
    assert 100.0 * ci.half_width / ci.mean <= 5.0
    assert (
        decide(samples[:n], runs=n, pending=0, rule=RULE)
        .reason(RULE)
        .startswith(f"target met at n={n}")
    )


def test_stops_at_the_maximum_on_loud_noise() -> None:
    samples = list(np.random.default_rng(3).normal(10_000.0, 3000.0, size=10))  # 30 %
    assert _run_rule(samples) == 10
    v = decide(samples, runs=10, pending=0, rule=RULE)
    assert v.outcome == "maximum" and not v.add_run
    assert (
        v.reason(RULE) == f"stopped at maximum 10, half-width {v.half_width_pct:.1f} % (target 5 %)"
    )


def test_failed_runs_count_against_the_cap() -> None:
    # 3 runs made, one failed: two values do not meet the target, so one more run...
    v = decide([10_000.0, 12_000.0], runs=3, pending=0, rule=RULE)
    assert v.outcome == "more" and v.reason(RULE).startswith("adding repetitions: n=2")
    # ... but never past the cap, failures included.
    assert decide([10_000.0], runs=10, pending=0, rule=RULE).outcome == "maximum"
    assert decide([10_000.0], runs=3, pending=0, rule=RULE).add_run


def test_zero_mean_stops_without_a_relative_half_width() -> None:
    v = decide([0.0, 0.0, 0.0], runs=3, pending=0, rule=RULE)
    assert v.outcome == "no_mean" and not v.add_run


def test_cancelled_configuration_gets_no_more_runs() -> None:
    v = decide([10_000.0], runs=3, pending=0, rule=RULE, cancelled=True)
    assert v.outcome == "cancelled" and not v.add_run
    assert v.reason(RULE) == "cancelled at n=1: the rule adds no runs to a cancelled experiment"


# Cells of a factorial design stop together (decide_together).
QUIET = [10_000.0, 10_010.0, 9_990.0]  # half-width well under 5 %
LOUD = [10_000.0, 12_000.0, 8_000.0]  # half-width about 50 %


def test_cells_stop_together_when_every_cell_meets_the_target() -> None:
    found = decide_together(
        {"a": CellRuns(QUIET, runs=3, pending=0), "b": CellRuns(QUIET[::-1], runs=3, pending=0)},
        RULE,
    )
    assert {k: v.outcome for k, v in found.items()} == {"a": "target_met", "b": "target_met"}
    assert not any(v.add_run for v in found.values())


def test_a_cell_that_met_the_target_gets_a_run_while_another_misses_it() -> None:
    found = decide_together(
        {"quiet": CellRuns(QUIET, runs=3, pending=0), "loud": CellRuns(LOUD, runs=3, pending=0)},
        RULE,
    )
    # Alone, the quiet cell would stop at n=3 and the loud one go on: unequal n.
    assert not decide(QUIET, runs=3, pending=0, rule=RULE).add_run
    assert found["loud"].outcome == "more" and found["loud"].add_run
    assert found["quiet"].outcome == "with_others" and found["quiet"].add_run
    assert (
        found["quiet"]
        .reason(RULE)
        .startswith("adding repetitions with the other configurations: n=3, half-width")
    )


def test_no_cell_is_judged_while_another_has_runs_in_flight() -> None:
    found = decide_together(
        {"a": CellRuns(LOUD, runs=3, pending=0), "b": CellRuns(QUIET[:2], runs=3, pending=1)},
        RULE,
    )
    assert found["a"].outcome == "held" and not found["a"].add_run
    assert found["b"].outcome == "waiting"
    assert "stop together" in found["a"].reason(RULE)


def test_cells_stop_together_at_the_cap() -> None:
    loud10 = [10_000.0 + (3000.0 if i % 2 else -3000.0) for i in range(10)]
    found = decide_together(
        {
            "quiet": CellRuns([10_000.0] * 9 + [10_001.0], runs=10, pending=0),
            "loud": CellRuns(loud10, runs=10, pending=0),
        },
        RULE,
    )
    assert found["quiet"].outcome == "target_met"
    assert found["loud"].outcome == "maximum"
    assert {v.n for v in found.values()} == {10}


def test_a_cell_at_the_cap_through_failures_stops_the_others_at_its_n() -> None:
    # Equal n = 4, but one cell made 10 runs (6 failed): it can have no more, so all stop.
    found = decide_together(
        {
            "a": CellRuns(LOUD + [10_500.0], runs=4, pending=0),
            "b": CellRuns(LOUD + [9_500.0], runs=10, pending=0),
        },
        RULE,
    )
    assert found["a"].outcome == "stopped_with_others" and not found["a"].add_run
    assert found["b"].outcome == "maximum"
    assert found["a"].reason(RULE).startswith("stopped at n=4 with the other configurations")


def test_a_cell_behind_after_a_failed_run_catches_up_first() -> None:
    found = decide_together(
        {"a": CellRuns(QUIET, runs=3, pending=0), "b": CellRuns(QUIET[:2], runs=3, pending=0)},
        RULE,
    )
    assert found["b"].outcome == "catching_up" and found["b"].add_run
    assert found["a"].outcome == "held" and not found["a"].add_run
    assert found["b"].reason(RULE) == (
        "adding a repetition to reach the other configurations' n=3 (n=2 after a failed run)"
    )


def test_a_cancelled_cell_stops_the_group() -> None:
    found = decide_together(
        {
            "a": CellRuns(LOUD, runs=3, pending=0),
            "b": CellRuns(LOUD[:2], runs=3, pending=0, cancelled=True),
        },
        RULE,
    )
    assert not any(v.add_run for v in found.values())
    assert found["a"].outcome == "cancelled"


def _run_together(samples: dict[str, list[float]]) -> dict[str, int]:
    """Runs per cell when the k-th run of a cell measures samples[cell][k], cells together."""
    runs = dict.fromkeys(samples, RULE.min_repetitions)
    while True:
        cells = {k: CellRuns(samples[k][: runs[k]], runs=runs[k], pending=0) for k in samples}
        adding = [k for k, v in decide_together(cells, RULE).items() if v.add_run]
        if not adding:
            return runs
        for k in adding:
            runs[k] += 1


def test_seeded_cells_end_with_equal_n_at_the_noisiest_cells_n() -> None:
    # Noise 1 %, 6 % and 30 %: alone they stop at 3, about 7 and the cap.
    noise = {"quiet": (1, 100.0), "mid": (5, 600.0), "loud": (3, 3000.0)}
    samples = {
        k: list(np.random.default_rng(seed).normal(10_000.0, sd, size=10))
        for k, (seed, sd) in noise.items()
    }
    alone = {k: _run_rule(s) for k, s in samples.items()}
    assert alone["quiet"] == 3 < alone["mid"] < 10 == alone["loud"]
    assert _run_together(samples) == dict.fromkeys(samples, 10)
    # Without the loud cell, both stop at the mid cell's n.
    pair = {k: samples[k] for k in ("quiet", "mid")}
    assert _run_together(pair) == dict.fromkeys(pair, alone["mid"])
