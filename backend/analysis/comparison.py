"""Relative-difference tables against a base case and keys-per-second conversion."""

from __future__ import annotations

import math
from dataclasses import dataclass

from backend.analysis.errors import AnalysisError, require, require_non_negative


@dataclass(frozen=True)
class RelativeRow:
    """One case compared with the base: 100 (y - x) / x, in percent."""

    label: str
    value: float
    base_value: float
    difference_percent: float


def relative_differences(values: dict[str, float], base: str) -> list[RelativeRow]:
    """Rows for every case (the base included, at 0%) relative to `values[base]`."""
    require(len(values) > 0, "values", "no cases to compare")
    if base not in values:
        raise AnalysisError("base", f"must be one of {sorted(values)}")
    x = values[base]
    require(x != 0, "base", "the base case value is zero: relative difference undefined")
    rows = [RelativeRow(k, y, x, 100.0 * (y - x) / x) for k, y in values.items()]
    # A base hundreds of orders of magnitude nearer zero than the others (or values near the
    # double's limit, which the API's bounds refuse) give a difference no double holds.
    beyond = [r.label for r in rows if not math.isfinite(r.difference_percent)]
    if beyond:
        raise AnalysisError(
            "base",
            f"the base case value {x!r} is too close to zero: the difference of {beyond[0]!r}"
            " from it is beyond what a number holds",
        )
    return rows


def keys_per_second(requests_per_s: float, keys_per_request: float) -> float:
    """Throughput in keys/s for multi-gets: requests x keys per request."""
    require_non_negative(requests_per_s, "requests_per_s")
    require(keys_per_request >= 1, "keys_per_request", "must be at least 1")
    return requests_per_s * keys_per_request
