"""API tokens: only the SHA-256 digest of each token is stored, never the token."""

from datetime import datetime

from sqlalchemy import DateTime, String
from sqlalchemy.orm import Mapped, mapped_column

from backend.models.base import Base, TimestampMixin


class ApiToken(TimestampMixin, Base):
    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    # hex SHA-256 of the token; unique so a request's token is found by one index lookup.
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    # Revoked tokens stay (authentication remains configured); they no longer authenticate.
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # After this instant the token no longer authenticates; None: it never expires.
    expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
