"""Stored VM prices: read by (region, size), written by the refresh command or a user."""

import ssl
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime

from sqlalchemy import select, tuple_
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from backend.models import PriceSource, VmPrice
from infra.azure.prices import fetch_prices


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


def refresh(
    session: Session,
    region: str,
    sizes: Sequence[str],
    *,
    base_url: str,
    currency: str,
    verify: bool | ssl.SSLContext = True,
) -> tuple[list[VmPrice], list[str]]:
    """Fetch the sizes' prices from the Retail Prices API and store them dated now (commits).
    Returns the prices stored and the sizes the API had no price for (their stored price, if
    any, is kept with its own date)."""
    fetched = fetch_prices(region, sizes, base_url=base_url, currency=currency, verify=verify)
    now = datetime.now(UTC)
    stored = [
        set_price(
            session, region, p.size, p.price_per_hour, p.currency, PriceSource.RETAIL_API, now
        )
        for p in fetched.values()
    ]
    session.commit()
    return stored, [s for s in sizes if s not in fetched]
