"""Grouped curves: one mean line per group (an experiment or a parameter's level) over x.

At each x, a group's point pools the repetitions of all its configurations there (other
parameters averaged over, as experiment trackers group runs), and the group says which
parameters it pooled and their levels, so nothing is averaged without the reader knowing; the
band is the pooled std, standard error or t confidence interval, chosen by the user.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from backend.compare.differences import ExperimentDesign
from backend.compare.intervals import Sample, band, pool
from backend.compare.source import ConfigurationSamples
from backend.domain.compare import BandKind, CompareMetric
from backend.domain.grid import effective_parameters
from backend.domain.labels import level_label
from backend.schemas.compare import GROUP_BY_EXPERIMENT, GroupPointPublic, GroupPublic


def level_order(value: Any) -> tuple[int, float, str]:
    """Numbers numerically, then text: the order of a parameter's levels."""
    if isinstance(value, bool):
        return (1, 0.0, str(value))
    if isinstance(value, int | float):
        return (0, float(value), "")
    return (1, 0.0, json.dumps(value, default=str))


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, default=str)


def group_curves(
    configurations: Sequence[ConfigurationSamples],
    designs: dict[int, ExperimentDesign],
    *,
    x: str,
    group_by: str,
    metric: CompareMetric,
    kind: BandKind,
    level: float,
    keep: set[int] | None = None,
) -> list[GroupPublic]:
    """Groups in experiment order (by experiment) or level order (by parameter)."""
    cells: dict[Any, dict[str, list[Sample]]] = {}
    group_values: dict[Any, Any] = {}
    x_values: dict[str, Any] = {}
    configs: dict[Any, int] = {}
    # Per group, every level each other parameter takes: more than one means it is pooled.
    seen: dict[Any, dict[str, dict[str, Any]]] = {}
    for c in configurations:
        sample = c.samples.get(metric)
        if sample is None or (keep is not None and c.configuration_id not in keep):
            continue
        design = designs[c.experiment_id]
        params = effective_parameters(c.values, design.fixed)
        if group_by == GROUP_BY_EXPERIMENT:
            key: Any = c.experiment_id
        else:
            key = _text(params.get(group_by))
            group_values[key] = params.get(group_by)
        xv = params.get(x)
        x_values[_text(xv)] = xv
        cells.setdefault(key, {}).setdefault(_text(xv), []).append(sample)
        configs[key] = configs.get(key, 0) + 1
        levels = seen.setdefault(key, {})
        for name, value in params.items():
            if name not in (x, group_by):
                levels.setdefault(name, {})[_text(value)] = value
    if group_by == GROUP_BY_EXPERIMENT:
        keys = [d for d in designs if d in cells]
    else:
        keys = sorted(cells, key=lambda k: level_order(group_values[k]))
    out = []
    for key in keys:
        points = []
        for xt in sorted(cells[key], key=lambda t: level_order(x_values[t])):
            b = band(pool(cells[key][xt]), kind, level)
            points.append(
                GroupPointPublic(x=x_values[xt], n=b.n, mean=b.mean, low=b.low, high=b.high)
            )
        label = (
            designs[key].name
            if group_by == GROUP_BY_EXPERIMENT
            else level_label(group_by, group_values[key])
        )
        out.append(
            GroupPublic(
                key=str(key),
                label=label,
                runs=sum(p.n for p in points),
                configurations=configs[key],
                points=points,
                pooled={
                    name: sorted(values.values(), key=level_order)
                    for name, values in seen[key].items()
                    if len(values) > 1
                },
            )
        )
    return out
