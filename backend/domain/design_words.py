"""A design's options in words (repetition rule, fraction, latency-SLO search), from the JSON
the experiment stores, for every place that shows them beside each other (Compare's parameter
table); "none" wording says what the design does instead."""

from __future__ import annotations

from typing import Any

from backend.domain.fraction import roman
from backend.domain.metrics import METRICS


def rule_in_words(rule: dict[str, Any] | None) -> str:
    """'throughput (client) +-5 % at 95 %, n 3..10' or 'none (fixed repetitions)'."""
    if not rule:
        return "none (fixed repetitions)"
    metric = METRICS.get(rule.get("metric", "throughput_per_s"))
    name = metric.label if metric is not None else str(rule.get("metric"))
    confidence = 100 * float(rule.get("confidence", 0.95))
    return (
        f"{name} ({rule.get('source', 'client')}) +-{float(rule.get('half_width_pct', 5)):g} % "
        f"at {confidence:g} %, n {rule.get('min_repetitions', '?')}.."
        f"{rule.get('max_repetitions', '?')}"
    )


def fraction_in_words(fraction: dict[str, Any] | None) -> str:
    """'full grid', 'resolution IV' or the generators 'D = AB, E = -AC'."""
    if not fraction:
        return "full grid"
    if fraction.get("generators"):
        return ", ".join(str(g) for g in fraction["generators"])
    return f"resolution {roman(int(fraction['resolution']))}"


def slo_in_words(search: dict[str, Any] | None) -> str:
    """'p99 <= 2000 us at 95 %, rates 100..100000/s per connection' or 'none (a grid)'."""
    if not search:
        return "none (a grid)"
    statistic = (
        "mean"
        if search.get("statistic") == "mean"
        else f"p{float(search.get('percentile', 99.0)):g}"
    )
    confidence = 100 * float(search.get("confidence", 0.95))
    return (
        f"{statistic} <= {float(search['target_us']):g} us at {confidence:g} %, rates "
        f"{search.get('start_rate', 100)}..{search.get('max_rate', 100_000)}/s per connection"
    )
