"""Shared pieces of the analysis schemas: positive rates, percentile lists, the units base."""

from pydantic import BaseModel, Field

Percentiles = Field(default=(50.0, 90.0, 95.0, 99.0), min_length=1, max_length=20)

TIME_UNITS = {"_s": "s", "_s2": "s^2", "_us": "us", "_per_s": "1/s", "_percent": "%"}


class Units(BaseModel):
    """Base for responses: `units` maps unit-bearing fields to their unit."""

    units: dict[str, str] = Field(default_factory=dict)
