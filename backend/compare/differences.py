"""Difference rows against a base: which configuration is compared with which, and the numbers.

Experiment mode pairs each configuration of another experiment with the base experiment's
configuration at the same point: equal values of the factors both vary, and, for factors only
the base varies, the level equal to the other experiment's fixed value. Configuration mode
compares each chosen configuration with one base configuration.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from backend.compare.intervals import welch_difference
from backend.compare.source import ConfigurationSamples
from backend.domain.compare import CompareMetric
from backend.domain.grid import effective_parameters
from backend.domain.metrics import METRIC_UNITS
from backend.schemas.compare import DifferenceRowPublic, SamplePublic


@dataclass(frozen=True)
class ExperimentDesign:
    """What pairing and grouping need of an experiment."""

    id: int
    name: str
    factors: dict[str, list[Any]]
    fixed: dict[str, Any]


@dataclass(frozen=True)
class Pairing:
    rows: list[DifferenceRowPublic]
    unmatched: int


def _key(values: dict[str, Any], names: Iterable[str]) -> tuple[str, ...]:
    # repr keeps 8 and "8" apart; a parameter's levels are all of one type anyway.
    return tuple(repr(values.get(n)) for n in sorted(names))


def compare_pair(
    base: ConfigurationSamples,
    other: ConfigurationSamples,
    metrics: Sequence[CompareMetric],
    level: float,
) -> list[DifferenceRowPublic]:
    """One row per metric measured on both sides."""
    rows = []
    for metric in metrics:
        x, y = base.samples.get(metric), other.samples.get(metric)
        if x is None or y is None:
            continue
        d = welch_difference(x, y, level)
        rows.append(
            DifferenceRowPublic(
                experiment_id=other.experiment_id,
                configuration_id=other.configuration_id,
                base_experiment_id=base.experiment_id,
                base_configuration_id=base.configuration_id,
                values=other.values,
                metric=metric,
                unit=METRIC_UNITS[metric],
                base=SamplePublic(n=x.n, mean=x.mean, std=x.std),
                other=SamplePublic(n=y.n, mean=y.mean, std=y.std),
                difference=d.difference,
                low=d.low,
                high=d.high,
                dof=d.dof,
                relative_percent=d.relative_percent,
                relative_low=d.relative_low,
                relative_high=d.relative_high,
                verdict=d.verdict,
            )
        )
    return rows


def pair_experiments(
    configurations: Sequence[ConfigurationSamples],
    designs: dict[int, ExperimentDesign],
    base_id: int,
    metrics: Sequence[CompareMetric],
    level: float,
    keep: set[int] | None = None,
) -> Pairing:
    """Every configuration of the non-base experiments against its base counterpart.

    A base configuration is one grid point, identified by its levels of the base's factors;
    the counterpart of another experiment's configuration is the point at that
    configuration's own values of those parameters (its factor level, else its fixed value).
    Factors only the other experiment varies do not constrain the match.
    """
    base = designs[base_id]
    names = sorted(base.factors)
    index = {_key(c.values, names): c for c in configurations if c.experiment_id == base_id}
    rows: list[DifferenceRowPublic] = []
    unmatched = 0
    for c in configurations:
        if c.experiment_id == base_id or (keep is not None and c.configuration_id not in keep):
            continue
        own = effective_parameters(c.values, designs[c.experiment_id].fixed)
        match = index.get(_key(own, names))
        pair = compare_pair(match, c, metrics, level) if match is not None else []
        if not pair:
            unmatched += 1
        rows.extend(pair)
    return Pairing(rows, unmatched)


def pair_configurations(
    configurations: Sequence[ConfigurationSamples],
    chosen: Sequence[int],
    base_id: int,
    metrics: Sequence[CompareMetric],
    level: float,
    keep: set[int] | None = None,
) -> Pairing:
    """Each chosen configuration (the base left out) against the base configuration."""
    by_id = {c.configuration_id: c for c in configurations}
    base = by_id[base_id]
    rows: list[DifferenceRowPublic] = []
    unmatched = 0
    for cid in chosen:
        if cid == base_id or (keep is not None and cid not in keep):
            continue
        pair = compare_pair(base, by_id[cid], metrics, level)
        if not pair:
            unmatched += 1
        rows.extend(pair)
    return Pairing(rows, unmatched)
