"""How a measurement fits a model: the one definition every model (MVA, M/M/1, M/M/m, the
network bound, the demand model) applies, and the one wording the API, the UI, the figures
and the report show.

A measurement is flagged
- beyond the bound when it lies past the model's bound by more than BOUND_TOLERANCE of the
  bound (above an upper bound such as a throughput bound, below a lower bound such as a
  response-time bound): the model cannot produce it, so the model misses something;
- off the model when it lies further than MODEL_TOLERANCE from the model's value, measured as
  the relative error 100 (model - measured) / measured the tables print beside it.
Beyond the bound is the stronger verdict: a point that is both is reported as beyond the
bound, its message stating both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

BOUND_TOLERANCE = 0.02
"""A measurement may pass a bound by this share of the bound (noise) before it is flagged."""
MODEL_TOLERANCE = 0.25
"""A measurement may differ from the model's value by this share of itself before it is flagged."""

Quantity = Literal["throughput", "response time", "waiting time", "queue length"]
Verdict = Literal["fits", "off_model", "beyond_bound"]
Side = Literal["upper", "lower"]

# Each quantity's unit in the API (the flag's values) and as the message prints it.
_UNITS: dict[Quantity, tuple[str, str, float, int]] = {
    "throughput": ("ops/s", "ops/s", 1.0, 0),
    "response time": ("s", "µs", 1e6, 1),
    "waiting time": ("s", "µs", 1e6, 1),
    "queue length": ("requests", "requests", 1.0, 2),
}


@dataclass(frozen=True)
class Fit:
    """One measured quantity against a model's value and bound, with the verdict."""

    quantity: Quantity
    unit: str  # of measured, model and bound
    measured: float
    model: float | None
    bound: float | None
    bound_side: Side | None  # an upper bound (throughput) or a lower one (response time)
    error_percent: float | None  # 100 (model - measured) / measured
    beyond_bound_percent: float | None  # how far past the bound, % of it (negative: inside)
    model_tolerance_percent: float
    bound_tolerance_percent: float
    verdict: Verdict
    label: str  # the verdict in a few words, for a badge or an annotation
    message: str | None  # None when it fits


def _show(quantity: Quantity, value: float) -> str:
    _, shown, scale, digits = _UNITS[quantity]
    return f"{value * scale:,.{digits}f} {shown}"


def fit(
    quantity: Quantity,
    measured: float,
    model: float | None,
    bound: float | None = None,
    side: Side = "upper",
    where: str = "",
    model_tolerance: float = MODEL_TOLERANCE,
    bound_tolerance: float = BOUND_TOLERANCE,
) -> Fit:
    """The verdict for one measurement; `where` (e.g. "N = 4") starts the message."""
    error = None
    if model is not None and measured != 0:
        error = 100.0 * (model - measured) / measured
    beyond = None
    if bound is not None and bound > 0:
        past = measured - bound if side == "upper" else bound - measured
        beyond = 100.0 * past / bound
    reasons = []
    verdict: Verdict = "fits"
    if beyond is not None and beyond > 100.0 * bound_tolerance and bound is not None:
        verdict = "beyond_bound"
        direction = "above" if side == "upper" else "below"
        reasons.append(
            f"measured {quantity} {_show(quantity, measured)} lies {beyond:.1f} % {direction} "
            f"the model's bound of {_show(quantity, bound)} (tolerance "
            f"{100 * bound_tolerance:g} %)"
        )
    if error is not None and abs(error) > 100.0 * model_tolerance and model is not None:
        if verdict == "fits":
            verdict = "off_model"
        reasons.append(
            f"measured {quantity} {_show(quantity, measured)} is {abs(error):.1f} % from the "
            f"model's {_show(quantity, model)} (tolerance {100 * model_tolerance:g} %)"
        )
    message = None
    if reasons:
        message = (f"{where}: " if where else "") + "; ".join(reasons)
    label = "fits"
    if verdict == "beyond_bound" and beyond is not None:
        label = f"{beyond:.0f} % {'above' if side == 'upper' else 'below'} the bound"
    elif verdict == "off_model" and error is not None:
        label = f"{abs(error):.0f} % off the model"
    return Fit(
        quantity,
        _UNITS[quantity][0],
        measured,
        model,
        bound,
        side if bound is not None else None,
        error,
        beyond,
        100.0 * model_tolerance,
        100.0 * bound_tolerance,
        verdict,
        label,
        message,
    )


def flagged(fits: list[Fit | None]) -> list[Fit]:
    """The fits that carry a warning, in order."""
    return [f for f in fits if f is not None and f.verdict != "fits"]
