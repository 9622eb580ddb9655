"""Simulation: what the repetition rule does to the estimate, on seeded normal noise.

For each noise level, many experiments of one configuration are run through the rule's own
decision (backend.results.repetition_rule.decide) and the results core's interval; printed:
the mean n, the share stopped at the cap, the relative bias of the reported mean and the
coverage of the reported (ordinary t) interval against the true mean, beside the nominal
level. README "Repetitions by a rule" quotes its output.

Run: .venv/bin/python -m backend.scripts.sim_repetition_rule [--trials 20000]
"""

import argparse

import numpy as np

from backend.results.aggregate import confidence_interval
from backend.results.repetition_rule import decide
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


if __name__ == "__main__":
    main()
