"""The printed size and style of a figure file: the part of every figure request (a figure's
query, the compare page's and the MVA calculator's bodies) that is not its selection."""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

StyleName = Literal["report", "screen"]

COLUMN_WIDTH_IN = 3.5  # one column of a two-column paper (IEEE: 3.5 in)
PAGE_WIDTH_IN = 7.16  # the full text width of the same paper
WIDTH_PRESETS = {"column": COLUMN_WIDTH_IN, "page": PAGE_WIDTH_IN}
MIN_WIDTH_IN, MAX_WIDTH_IN = 1.0, 20.0


class FigureOutput(BaseModel):
    """Printed size and style of a figure file (the JSON for the UI is responsive)."""

    model_config = ConfigDict(allow_inf_nan=False)

    width: str | None = Field(
        default=None,
        description="column (3.5 in), page (7.16 in) or inches; default column for files, "
        "none (responsive) for JSON",
    )
    height: float | None = Field(default=None, gt=0.5, le=20, description="inches")
    dpi: int = Field(default=300, ge=50, le=1200, description="PNG resolution")
    style: StyleName = Field(
        default="report", description="report (print: 8 pt serif) or screen (the UI's look)"
    )

    @field_validator("width")
    @classmethod
    def _width(cls, value: str | None) -> str | None:
        if value is None or value in WIDTH_PRESETS:
            return value
        try:
            inches = float(value)
        except ValueError:
            raise ValueError("column, page, or a width in inches") from None
        if not MIN_WIDTH_IN <= inches <= MAX_WIDTH_IN:
            raise ValueError(f"must lie in [{MIN_WIDTH_IN}, {MAX_WIDTH_IN}] inches")
        return value

    def width_in(self, default: float | None) -> float | None:
        """The asked width in inches, `default` when none was asked."""
        if self.width is None:
            return default
        return WIDTH_PRESETS.get(self.width) or float(self.width)

    def file_width_in(self) -> float:
        """The printed width of a file (PDF, SVG, PNG): column width unless asked."""
        width = self.width_in(COLUMN_WIDTH_IN)
        assert width is not None
        return width
