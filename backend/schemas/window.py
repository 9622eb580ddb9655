"""A re-cut measurement window as requests give it: both ends or neither, end after start.

One rule for every selection that takes a window (compare bodies, figure and bundle queries);
whether the window lies inside the runs is checked against the experiment
(backend.results.selection.results_window)."""

from pydantic import BaseModel, Field, ValidationInfo, field_validator

from backend.schemas.limits import INT32_MAX


class RecutWindow(BaseModel):
    window_start_s: int | None = Field(
        default=None, ge=0, le=INT32_MAX, description="re-cut window start, s on the run's clock"
    )
    window_end_s: int | None = Field(
        default=None,
        ge=1,
        le=INT32_MAX,
        # Validated when left out too, so a start alone is refused.
        validate_default=True,
        description="re-cut window end (exclusive), s on the run's clock",
    )

    @field_validator("window_end_s")
    @classmethod
    def window_complete(cls, v: int | None, info: ValidationInfo) -> int | None:
        start = info.data.get("window_start_s")
        if (start is None) != (v is None) and "window_start_s" in info.data:
            raise ValueError("give both window_start_s and window_end_s, or neither")
        if start is not None and v is not None and v <= start:
            raise ValueError("must be greater than window_start_s")
        return v

    @property
    def window(self) -> tuple[int, int] | None:
        if self.window_start_s is None or self.window_end_s is None:
            return None
        return self.window_start_s, self.window_end_s
