"""VM prices per region and size: fetched from the Azure Retail Prices API or set by a user,
each with when and where it came from (a price is never shown without them)."""

from datetime import datetime
from enum import StrEnum

from sqlalchemy import DateTime, Float, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from backend.models.base import Base


class PriceSource(StrEnum):
    RETAIL_API = "retail-api"  # `python -m backend.cli prices refresh`
    USER = "user"  # PUT /api/v1/prices/{region}/{size}, e.g. when offline


class VmPrice(Base):
    __tablename__ = "vm_prices"
    __table_args__ = (UniqueConstraint("region", "size"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    region: Mapped[str] = mapped_column(String(40))
    size: Mapped[str] = mapped_column(String(64))
    # Pay-as-you-go Linux price of one running VM, per hour.
    price_per_hour: Mapped[float] = mapped_column(Float)
    currency: Mapped[str] = mapped_column(String(3))
    source: Mapped[str] = mapped_column(String(16))
    fetched_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
