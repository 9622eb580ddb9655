"""Stored VM prices: read by (region, size), written by the refresh (backend/azure/retail_prices.py)
or a user."""

from collections.abc import Iterable
from datetime import UTC, datetime

from sqlalchemy import select, tuple_
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from backend.models import PriceSource, VmPrice


def set_price(
    session: Session,
    region: str,
    size: str,
    price_per_hour: float,
    currency: str,
    source: PriceSource,
    fetched_at: datetime | None = None,
) -> VmPrice:
    """Insert or replace the price of one size in one region (the caller commits)."""
    values = {
        "price_per_hour": price_per_hour,
        "currency": currency,
        "source": source.value,
        "fetched_at": fetched_at or datetime.now(UTC),
    }
    stmt = insert(VmPrice).values(region=region, size=size, **values)
    session.execute(stmt.on_conflict_do_update(index_elements=["region", "size"], set_=values))
    row = session.scalar(select(VmPrice).where(VmPrice.region == region, VmPrice.size == size))
    assert row is not None  # just written
    session.refresh(row)
    return row


def prices_for(session: Session, keys: Iterable[tuple[str, str]]) -> dict[tuple[str, str], VmPrice]:
    """The stored prices of these (region, size) pairs; a pair without one is absent."""
    wanted = sorted(set(keys))
    if not wanted:
        return {}
    rows = session.scalars(
        select(VmPrice).where(tuple_(VmPrice.region, VmPrice.size).in_(wanted))
    ).all()
    return {(r.region, r.size): r for r in rows}


def list_prices(session: Session, region: str | None = None) -> list[VmPrice]:
    stmt = select(VmPrice).order_by(VmPrice.region, VmPrice.size)
    if region is not None:
        stmt = stmt.where(VmPrice.region == region)
    return list(session.scalars(stmt).all())
