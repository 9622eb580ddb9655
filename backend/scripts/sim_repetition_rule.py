"""Simulation: what the repetition rule does to the estimate, on seeded normal noise.

For each noise level, many experiments of one configuration are run through the rule's own
decision (backend.results.repetition_rule.decide) and the results core's interval; printed:
the mean n, the share stopped at the cap, the relative bias of the reported mean and the
coverage of the reported (ordinary t) interval against the true mean, beside the nominal
level. Then for the cells of a 2^3 design (decide_together: the cells stop together) beside
the same cells each stopping alone: the runs of the experiment, the share of experiments
whose cells end with equal n (the 2^k r analysis needs it) and the coverage of the cells'
intervals. README "Repetitions by a rule" quotes its output.

Run: .venv/bin/python -m backend.scripts.sim_repetition_rule [--trials 20000]
"""

import argparse

import numpy as np

from backend.results.aggregate import confidence_interval
from backend.results.repetition_rule import CellRuns, decide, decide_together
from backend.schemas.repetition_rule import RepetitionRuleSpec

TRUE_MEAN = 10_000.0


def simulate(rule: RepetitionRuleSpec, cv: float, trials: int, seed: int) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    ns, means, covered = [], [], 0
    for _ in range(trials):
        samples = list(rng.normal(TRUE_MEAN, cv * TRUE_MEAN, size=rule.max_repetitions))
        n = rule.min_repetitions
        while decide(samples[:n], runs=n, pending=0, rule=rule).add_run:
            n += 1
        ci = confidence_interval(samples[:n], rule.confidence)
        ns.append(n)
        means.append(ci.mean)
        covered += ci.low <= TRUE_MEAN <= ci.high
    return {
        "mean_n": float(np.mean(ns)),
        "at_cap": float(np.mean(np.asarray(ns) == rule.max_repetitions)),
        "bias_pct": 100.0 * (float(np.mean(means)) - TRUE_MEAN) / TRUE_MEAN,
        "coverage": covered / trials,
    }


def _alone(samples: list[float], rule: RepetitionRuleSpec) -> int:
    n = rule.min_repetitions
    while decide(samples[:n], runs=n, pending=0, rule=rule).add_run:
        n += 1
    return n


def _together(cells: list[list[float]], rule: RepetitionRuleSpec) -> list[int]:
    ns = [rule.min_repetitions] * len(cells)
    while True:
        found = decide_together(
            {i: CellRuns(c[: ns[i]], runs=ns[i], pending=0) for i, c in enumerate(cells)}, rule
        )
        if not any(v.add_run for v in found.values()):
            return ns
        ns = [n + found[i].add_run for i, n in enumerate(ns)]


def simulate_cells(
    rule: RepetitionRuleSpec, cvs: list[float], trials: int, seed: int
) -> dict[str, float]:
    """Cells with these noise levels, each stopping alone and all stopping together."""
    rng = np.random.default_rng(seed)
    runs_alone, runs_together, equal_alone, covered, intervals = [], [], 0, 0, 0
    for _ in range(trials):
        cells = [
            list(rng.normal(TRUE_MEAN, cv * TRUE_MEAN, size=rule.max_repetitions)) for cv in cvs
        ]
        alone = [_alone(c, rule) for c in cells]
        together = _together(cells, rule)
        runs_alone.append(sum(alone))
        runs_together.append(sum(together))
        equal_alone += len(set(alone)) == 1
        for c, n in zip(cells, together, strict=True):
            ci = confidence_interval(c[:n], rule.confidence)
            covered += ci.low <= TRUE_MEAN <= ci.high
            intervals += 1
    return {
        "runs_alone": float(np.mean(runs_alone)),
        "runs_together": float(np.mean(runs_together)),
        "equal_alone": equal_alone / trials,
        "coverage": covered / intervals,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=20_000)
    args = parser.parse_args()
    rule = RepetitionRuleSpec(
        half_width_pct=5.0, confidence=0.95, min_repetitions=3, max_repetitions=10
    )
    print(
        f"rule: +-{rule.half_width_pct:g} % at {rule.confidence:.0%}, n in "
        f"[{rule.min_repetitions}, {rule.max_repetitions}]; {args.trials} trials per row"
    )
    print("noise (cv)  mean n  at cap  bias of mean  coverage (nominal 0.95)")
    for i, cv in enumerate((0.01, 0.03, 0.05, 0.08, 0.15)):
        r = simulate(rule, cv, args.trials, seed=i)
        print(
            f"{cv:10.0%}  {r['mean_n']:6.2f}  {r['at_cap']:6.1%}  {r['bias_pct']:+11.3f} %"
            f"  {r['coverage']:.4f}"
        )
    print(
        "\n2^3 design, 8 cells; runs of the experiment (8 x 3 = 24 at the minimum, 80 at the cap)"
    )
    print("cells' noise (cv)      runs alone  equal n alone  runs together  coverage together")
    trials = max(1, args.trials // 10)
    for i, cvs in enumerate(([0.03] * 8, [0.05] * 8, [0.01] * 7 + [0.08], [0.01] * 4 + [0.05] * 4)):
        r = simulate_cells(rule, cvs, trials, seed=100 + i)
        label = ", ".join(f"{n} x {cv:.0%}" for cv, n in sorted(_count(cvs).items()))
        print(
            f"{label:21s}  {r['runs_alone']:10.1f}  {r['equal_alone']:13.1%}"
            f"  {r['runs_together']:13.1f}  {r['coverage']:.4f}"
        )


def _count(values: list[float]) -> dict[float, int]:
    out: dict[float, int] = {}
    for v in values:
        out[v] = out.get(v, 0) + 1
    return out


if __name__ == "__main__":
    main()
