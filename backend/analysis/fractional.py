"""2^(k-p) r analysis: a fraction's runs are a full 2^(k-p) design in its base factors, so
Jain's 2^k r analysis (backend.analysis.factorial) runs over those, and each effect is named
and signed as the fraction's alias table says ("servers + workers:clients")."""

from dataclasses import replace
from typing import Any

import numpy as np

from backend.analysis.errors import AnalysisError, require
from backend.analysis.factorial import Effect, FactorialResult, factorial
from backend.domain.fraction import AliasSet, Fraction, alias_label, word_name
from backend.domain.labels import effect_label


def fractional_factorial(
    factors: dict[str, list[Any]],
    fraction: Fraction,
    configurations: list[dict[str, Any]],
    responses: list[list[float]],
    confidence: float | None = 0.90,
    multiplicative: bool = False,
    t_critical: float | None = None,
) -> FactorialResult:
    """Effects of the fraction's runs. `factors` are the design's two-level factors in its
    order (level -1 first); each configuration holds their values, `responses` its repetitions.
    Effect k of the result estimates sign x (its first alias + the others), as labelled."""
    names = list(factors)
    base = [names[i] for i in fraction.base]
    cells: dict[int, list[float]] = {}
    for config, ys in zip(configurations, responses, strict=True):
        coded = []
        for n in names:
            if config.get(n) not in factors[n]:
                raise AnalysisError("configurations", f"{n}={config.get(n)!r} is not a level")
            coded.append(factors[n].index(config.get(n)))
        row = sum(1 << j for j, f in enumerate(fraction.base) if coded[f] == 1)
        cells[row] = list(ys)
    require(
        len(cells) == fraction.runs,
        "configurations",
        f"the experiment has {len(cells)} of the {fraction.runs} runs of its fraction",
    )
    reps = {len(v) for v in cells.values()}
    if len(reps) != 1 or 0 in reps:
        raise AnalysisError(
            "responses", f"every cell needs the same number of repetitions, found {sorted(reps)}"
        )
    y = np.array([cells[i] for i in range(fraction.runs)], dtype=np.float64)
    result = factorial(tuple(base), y, confidence, multiplicative, t_critical)
    effects = tuple(
        _aliased(e, fraction.aliases[col], factors, col) for col, e in enumerate(result.effects)
    )
    return replace(result, effects=effects)


def _aliased(effect: Effect, aliases: AliasSet, factors: dict[str, list[Any]], col: int) -> Effect:
    """The column's effect, signed so it estimates its label's first term and named by it
    (its factors, their levels, then its aliases); the mean stays "I" (its aliases, the
    defining relation's words, are in the fraction's table)."""
    if col == 0:
        return effect
    names = list(factors)
    name = alias_label(aliases, names)
    first = word_name(aliases.terms[0], names)
    in_effect = tuple(names[j] for j in aliases.terms[0].word)
    # The first term named with its levels, the aliases as the name gives them.
    label = effect_label(in_effect, factors) + name[len(first) :]
    named = replace(effect, name=name, factors=in_effect, label=label)
    if aliases.sign > 0:
        return named
    return replace(
        named,
        value=-effect.value,
        ci_low=None if effect.ci_high is None else -effect.ci_high,
        ci_high=None if effect.ci_low is None else -effect.ci_low,
    )
