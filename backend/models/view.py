"""A named saved view of the Compare page: its whole state, reopened exactly."""

from typing import Any

from sqlalchemy import String
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from backend.models.base import Base, TimestampMixin


class SavedView(TimestampMixin, Base):
    __tablename__ = "saved_views"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    # The compare state as validated by backend.schemas.view.CompareViewState.
    state: Mapped[dict[str, Any]] = mapped_column(JSONB)
