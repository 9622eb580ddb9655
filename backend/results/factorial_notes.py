"""Where a factorial factor has no effect by construction: in a configuration whose twin at
the factor's other level is the same system (backend.domain.same_system), e.g. replication
at servers = 1. An effect measured there is noise, and the factorial would read it as one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from backend.domain.labels import format_level
from backend.domain.same_system import system, why_same
from backend.results.per_configuration import Config


@dataclass(frozen=True)
class NoEffect:
    """A factor, the configurations (their indices) where its levels are one system, and why."""

    factor: str
    configurations: tuple[int, ...]
    where: str  # "where servers = 1", "in every configuration", "in configurations #1, #4"
    reason: str
    text: str  # the sentence the UI, the tables and the report show


def no_effect(configs: list[Config], levels: dict[str, tuple[Any, Any]]) -> list[NoEffect]:
    """One note per factor of `levels` (factor -> its -1 and +1 level) that has no effect by
    construction in at least one of `configs`."""
    out = []
    for factor, (low, high) in levels.items():
        hits: list[Config] = []
        reasons: list[str] = []
        for c in configs:
            if factor not in c.values:
                continue
            twin = {**c.params, factor: high if c.values[factor] == low else low}
            if system(twin) != system(c.params):
                continue
            hits.append(c)
            reason = why_same(factor, low, high, c.params)
            if reason not in reasons:
                reasons.append(reason)
        if not hits:
            continue
        where = _where(factor, hits, configs)
        reason = "; ".join(reasons)
        out.append(
            NoEffect(
                factor,
                tuple(c.index for c in hits),
                where,
                reason,
                f"{factor} {format_level(low)} → {format_level(high)} has no effect by "
                f"construction {where}: {reason}.",
            )
        )
    return out


def _where(factor: str, hits: list[Config], configs: list[Config]) -> str:
    """The configurations in words: all, those with one other factor at one level, or a list."""
    if len(hits) == len(configs):
        return "in every configuration"
    chosen = {c.index for c in hits}
    for other in hits[0].values:
        if other == factor:
            continue
        value = hits[0].values[other]
        if {c.index for c in configs if c.values.get(other) == value} == chosen:
            return f"where {other} = {format_level(value)}"
    return "in configurations " + ", ".join(f"#{i}" for i in sorted(chosen))
