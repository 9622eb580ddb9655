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


def write_fraction(ratio: str) -> float:
    """SET share of a "SET:GET" ratio string."""
    try:
        sets, gets = (float(x) for x in ratio.split(":"))
    except ValueError as err:
        raise AnalysisError("ratio", f"not a SET:GET ratio: {ratio!r}") from err
    if sets + gets <= 0:
        raise AnalysisError("ratio", "SET + GET must be positive")
    return sets / (sets + gets)
