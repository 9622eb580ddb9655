"""The preview's plan for two-level factors: the fraction a design runs (generators,
resolution, aliases) and, beside the full grid, the smallest fraction of each resolution,
each with its runs, duration and the smallest effect it detects given a noise estimate;
and a repetition rule's range, from its minimum to its cap."""

from typing import Any

from sqlalchemy.orm import Session

from backend.analysis.errors import AnalysisError
from backend.analysis.factorial_power import min_detectable_effect
from backend.crud.costs import estimate
from backend.domain import fraction as fr
from backend.domain.grid import preview
from backend.models import Experiment
from backend.results.noise import pooled_std
from backend.results.rule_status import stops_together
from backend.schemas.experiment import PlanPointPublic, RuleRangePublic
from backend.schemas.fraction import (
    AliasSetPublic,
    AliasTermPublic,
    DesignOptionPublic,
    FractionPublic,
    NoisePublic,
    PowerPublic,
    PowerQuery,
)
from backend.schemas.repetition_rule import RepetitionRuleSpec


def fraction_public(f: fr.Fraction, factors: list[str]) -> FractionPublic:
    """A fraction as the preview shows it, its letters naming `factors` in order."""
    return FractionPublic(
        k=f.k,
        p=f.p,
        letters={fr.letter(i): name for i, name in enumerate(factors)},
        generators=[fr.generator_text(g) for g in f.generators],
        defining_relation=[fr.word_name(t) for t in f.defining_relation],
        resolution=f.resolution,
        resolution_roman=fr.roman(f.resolution),
        aliases=[
            AliasSetPublic(
                label=fr.alias_label(a),
                terms=[
                    AliasTermPublic(
                        name=fr.word_name(fr.Term(t.word, 1)), sign=1 if t.sign > 0 else -1
                    )
                    for t in a.terms
                ],
                omitted=a.omitted,
            )
            # The mean first, then main effects, two-factor interactions, ... (the analysis
            # keeps the sign table's column order; a reader scans by order of effect)
            for a in sorted(f.aliases, key=lambda a: (len(a.terms[0].word), a.terms[0].word))
        ],
    )


def stored_fraction(exp: Experiment) -> FractionPublic | None:
    """A stored experiment's fraction, or None (full grid, or a stored spec that no longer
    resolves: its pages must still load)."""
    if not exp.fraction:
        return None
    try:
        f = fr.resolve(
            len(exp.factors), exp.fraction.get("generators"), exp.fraction.get("resolution")
        )
    except fr.FractionError:
        return None
    return fraction_public(f, list(exp.factors))


def noise(session: Session, q: PowerQuery) -> NoisePublic | None:
    """The noise the query names: typed in, or measured on an earlier experiment."""
    if q.noise_std is not None:
        return NoisePublic(std=q.noise_std, metric=None, experiment_id=None)
    if q.noise_experiment_id is None:
        return None
    exp = session.get(Experiment, q.noise_experiment_id)
    if exp is None:
        raise AnalysisError(
            "noise_experiment_id", f"experiment {q.noise_experiment_id} does not exist"
        )
    std, dof = pooled_std(session=session, experiment=exp, metric=q.noise_metric)
    return NoisePublic(
        std=std,
        metric=q.noise_metric,
        experiment_id=exp.id,
        experiment=exp.name,
        degrees_of_freedom=dof,
    )


def power_plan(
    *,
    factors: dict[str, list[Any]],
    chosen: fr.Fraction | None,
    repetitions: int,
    run_time_s: int,
    overhead_s: float,
    q: PowerQuery,
    measured: NoisePublic | None,
) -> PowerPublic | None:
    """The full two-level grid and the smallest fraction of each resolution (and the chosen
    one), each with the smallest effect it detects; None unless every factor has two levels."""
    k = len(factors)
    if k < 2 or any(len(v) != 2 for v in factors.values()):
        return None
    options: list[tuple[str, fr.Fraction | None]] = [("full", None)]
    if fr.MIN_FACTORS <= k <= fr.MAX_FACTORS:
        seen: set[int] = set()
        for res in range(3, k + 1):
            gens = fr.generators_for_resolution(k, res)
            if gens and len(gens) not in seen:
                seen.add(len(gens))
                options.append(("res", fr.build(k, gens)))
    if chosen is not None and not any(
        f is not None and f.generators == chosen.generators for _, f in options
    ):
        options.append(("chosen", chosen))
    designs = []
    for _, f in options:
        cells = 2**k if f is None else f.runs
        p = preview(cells, repetitions, run_time_s, overhead_s)
        effect = (
            min_detectable_effect(measured.std, p.runs, cells, q.alpha, q.power)
            if measured is not None
            else None
        )
        is_chosen = (f is None and chosen is None) or (
            f is not None and chosen is not None and f.generators == chosen.generators
        )
        designs.append(
            DesignOptionPublic(
                design=f"2^{k} full" if f is None else f"2^({k}-{f.p}) {fr.roman(f.resolution)}",
                generators=[] if f is None else [fr.generator_text(g) for g in f.generators],
                resolution=None if f is None else f.resolution,
                configurations=cells,
                runs=p.runs,
                estimated_seconds=p.estimated_seconds,
                chosen=is_chosen,
                min_effect=None if effect is None else effect.effect,
                error_dof=None if effect is None else effect.error_dof,
            )
        )
    return PowerPublic(alpha=q.alpha, power=q.power, noise=measured, designs=designs)


def rule_range(
    session: Session,
    *,
    rule: RepetitionRuleSpec | None,
    factors: dict[str, list[Any]],
    fraction: object,
    configurations: int,
    run_time_s: int,
    overhead_s: float,
    testbed_id: int | None,
) -> RuleRangePublic | None:
    """A rule's range: every configuration at its minimum, and every one at its cap (the
    most the rule can run, whether its configurations stop together or alone); None without
    a rule. The cap is what to budget for: a noisy configuration reaches it."""
    if rule is None:
        return None

    def point(repetitions: int) -> PlanPointPublic:
        p = preview(configurations, repetitions, run_time_s, overhead_s)
        return PlanPointPublic(
            repetitions=repetitions,
            runs=p.runs,
            estimated_seconds=p.estimated_seconds,
            cost=estimate(session, testbed_id, p.estimated_seconds),
        )

    return RuleRangePublic(
        minimum=point(rule.min_repetitions),
        maximum=point(rule.max_repetitions),
        together=stops_together(factors, fraction),
    )
