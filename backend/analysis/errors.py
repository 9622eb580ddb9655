"""Typed error for analyses that are undefined on the given input (a domain NotApplicable,
mapped to HTTP 422 by the API)."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from backend.domain.errors import NotApplicable


class AnalysisError(NotApplicable, ValueError):
    """An analysis is undefined for its input; `field` names the offending input.

    Raised instead of returning NaN or infinity (e.g. rho >= 1, empty data, r = 1 for
    confidence intervals, a grid that is not 2^k). The API turns it into a 422.
    """


def require(condition: bool, field: str, reason: str) -> None:
    """Raise AnalysisError(field, reason) unless `condition` holds."""
    if not condition:
        raise AnalysisError(field, reason)


def require_positive(value: float, field: str) -> None:
    """Reject zero, negative and non-finite values with a field-named error."""
    if not (value > 0 and value < float("inf")):
        raise AnalysisError(field, f"must be a positive finite number, got {value!r}")


def require_finite(values: Iterable[npt.ArrayLike | None], field: str, reason: str) -> None:
    """Reject a result that overflowed (inf) or is undefined (NaN), blaming input `field`.

    A response must never carry such a number, nor the null it would become in JSON.
    """
    for v in values:
        if v is not None and not bool(np.all(np.isfinite(np.asarray(v, dtype=np.float64)))):
            raise AnalysisError(field, f"the result is not a finite number: {reason}")


def require_non_negative(value: float, field: str) -> None:
    """Reject negative and non-finite values with a field-named error."""
    if not (value >= 0 and value < float("inf")):
        raise AnalysisError(field, f"must be a non-negative finite number, got {value!r}")
