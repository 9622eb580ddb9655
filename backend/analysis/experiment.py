"""Configuration parameters the analyses of a stored experiment need (pure).

Combining measurements (instances, repetitions, windows) is backend/results/aggregate.py's job.
"""

from __future__ import annotations

from typing import Any

from backend.analysis.errors import AnalysisError
from backend.domain.parameters import virtual_clients


def total_clients(params: dict[str, Any]) -> int:
    """Virtual clients N of a configuration (the domain's one rule, `virtual_clients`: with
    middlewares, each client machine runs its instances once per middleware)."""
    try:
        return virtual_clients(params)
    except KeyError as err:
        raise AnalysisError("configuration", f"missing parameter {err.args[0]!r}") from err


def set_get_counts(ratio: str) -> tuple[int, int]:
    """SET and GET counts of a "SET:GET" ratio string (memtier's cycle of requests)."""
    try:
        sets, gets = (int(x) for x in ratio.split(":"))
    except ValueError as err:
        raise AnalysisError("ratio", f"not a SET:GET ratio: {ratio!r}") from err
    if sets < 0 or gets < 0 or sets + gets == 0:
        raise AnalysisError("ratio", "SET and GET must be non-negative, one of them positive")
    return sets, gets


def write_fraction(ratio: str) -> float:
    """SET share of a "SET:GET" ratio string (of keys: with multi-gets, not of requests, see
    backend.analysis.request_mix)."""
    sets, gets = set_get_counts(ratio)
    return sets / (sets + gets)
