"""How a measurement fits a model (backend.analysis.model_fit): the flag every model carries."""

from typing import Literal

from pydantic import BaseModel, Field


class FitPublic(BaseModel):
    """One measured quantity against a model's value and bound, with the verdict."""

    quantity: Literal["throughput", "response time", "waiting time", "queue length"] = Field(
        description="the measured quantity compared"
    )
    unit: str = Field(description="unit of measured, model and bound: ops/s, s or requests")
    measured: float = Field(description="the measured value, in `unit`")
    model: float | None = Field(description="the model's value, in `unit`; null: none")
    bound: float | None = Field(description="the model's bound, in `unit`; null: none")
    bound_side: Literal["upper", "lower"] | None = Field(
        description="upper: the measurement should not exceed the bound (a throughput); "
        "lower: it should not fall below it (a response time); null: no bound"
    )
    error_percent: float | None = Field(
        description="relative error 100 (model - measured) / measured, %"
    )
    beyond_bound_percent: float | None = Field(
        description="how far the measurement lies past the bound, % of the bound (negative: "
        "inside the bound)"
    )
    model_tolerance_percent: float = Field(
        description="|error| above this % flags the measurement as off the model"
    )
    bound_tolerance_percent: float = Field(
        description="past the bound by more than this % of it flags it as beyond the bound"
    )
    verdict: Literal["fits", "off_model", "beyond_bound"] = Field(
        description="fits; off_model: further than the tolerance from the model's value; "
        "beyond_bound: past the model's bound by more than its tolerance (the stronger)"
    )
    label: str = Field(
        description='the verdict in a few words ("46 % above the bound", "31 % off the '
        'model", "fits"), as figures annotate and the UI badges it'
    )
    message: str | None = Field(description="the warning in words; null when it fits")
