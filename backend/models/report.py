"""The report an experiment is written up in: hypothesis, notes and the chosen items."""

from datetime import datetime
from typing import Any

from sqlalchemy import DateTime, ForeignKey, Text
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from backend.models.base import Base, TimestampMixin


class Report(TimestampMixin, Base):
    """One per experiment. `items`: [{kind, name, caption, explanation}] in the user's order."""

    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(primary_key=True)
    experiment_id: Mapped[int] = mapped_column(
        ForeignKey("experiments.id", ondelete="CASCADE"), unique=True
    )
    hypothesis: Mapped[str] = mapped_column(Text, default="")
    # When the hypothesis text last changed: "written before the runs" only if before them.
    hypothesis_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    notes: Mapped[str] = mapped_column(Text, default="")
    items: Mapped[list[dict[str, Any]]] = mapped_column(JSONB, default=list)
