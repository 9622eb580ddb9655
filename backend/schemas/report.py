"""The report of an experiment as the API reads and writes it."""

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from backend.domain.printing import refusal, unprintable


def _printable(text: str) -> str:
    """The text, if every character has a font in report.pdf (a control character pasted
    from a terminal has none, nor has an emoji newer than the emoji font)."""
    chars = unprintable(text)
    if chars:
        raise ValueError(refusal(chars))
    return text


# Text the report prints as the user wrote it.
PrintedText = Annotated[str, AfterValidator(_printable)]


class ReportItem(BaseModel):
    """A figure or table of the report, with the user's caption and explanation."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["figure", "table"] = Field(description="figure or table")
    name: str = Field(description="its name (GET /experiments/{id}/figures lists figures)")
    caption: str | None = Field(
        default=None, max_length=2000, description="caption; default: the generated one"
    )
    explanation: str = Field(
        default="", max_length=20_000, description="text printed after the item"
    )
    origin: Literal["experiment", "compare"] = Field(
        default="experiment",
        description="the page it comes from: experiment (GET /experiments/{id}/figures or "
        "tables/{name}) or compare (POST /compare/figures or tables/{name})",
    )
    selection: dict[str, Any] | None = Field(
        default=None,
        description="the view it was added from: that endpoint's query (experiment) or body "
        "(compare) as the page sent it, checked against it; null: the defaults",
    )


class ReportItemIn(ReportItem):
    """A report item as a request writes it: its texts printable (stored items are read as
    ReportItem, so one saved before this check still reads)."""

    caption: PrintedText | None = Field(
        default=None, max_length=2000, description="caption; default: the generated one"
    )
    explanation: PrintedText = Field(
        default="", max_length=20_000, description="text printed after the item"
    )


class ReportUpdate(BaseModel):
    """Fields to change; the hypothesis is timestamped whenever its text changes."""

    model_config = ConfigDict(extra="forbid")

    hypothesis: PrintedText | None = Field(
        default=None, max_length=20_000, description="hypothesis"
    )
    notes: PrintedText | None = Field(default=None, max_length=50_000, description="free notes")
    items: list[ReportItemIn] | None = Field(
        default=None, max_length=200, description="figures and tables in report order"
    )


class ReportPublic(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    experiment_id: int = Field(description="the experiment the report is about")
    hypothesis: str = Field(description="hypothesis, as written")
    hypothesis_at: datetime | None = Field(description="when the hypothesis was last written")
    hypothesis_before_runs: bool = Field(
        description="true only if the hypothesis was written before the first run started"
    )
    notes: str = Field(description="free notes")
    items: list[ReportItem] = Field(description="figures and tables in report order")
