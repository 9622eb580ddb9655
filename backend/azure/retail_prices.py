"""VM prices from the Azure Retail Prices API (https://prices.azure.com/api/retail/prices):
public, no authentication, an OData $filter, pages linked by NextPageLink. One request per
region asks for every size wanted; the pay-as-you-go Linux price of each size is kept (the API
also lists Windows, Spot and Low Priority meters and reservations for the same size), and
stored dated with their source (`refresh`, run by `python -m backend.cli prices refresh`)."""

from __future__ import annotations

import re
import ssl
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import httpx
from sqlalchemy.orm import Session

from backend.crud.prices import set_price
from backend.domain.azure_lab_rules import SIZE_PATTERN
from backend.models import PriceSource, VmPrice

# A guard against a server whose NextPageLink never ends.
MAX_PAGES = 200
TIMEOUT_S = 30.0


@dataclass(frozen=True)
class RetailPrice:
    region: str
    size: str
    price_per_hour: float
    currency: str


def price_filter(region: str, sizes: Sequence[str]) -> str:
    """The $filter for the consumption meters of `sizes` in `region` (values checked first:
    they go into the query text)."""
    if not re.fullmatch(r"[a-z][a-z0-9]*", region):
        raise ValueError(f"not an Azure region name: {region!r}")
    for size in sizes:
        if not re.fullmatch(SIZE_PATTERN, size):
            raise ValueError(f"not an Azure VM size: {size!r}")
    any_size = " or ".join(f"armSkuName eq '{s}'" for s in sizes)
    return (
        f"serviceName eq 'Virtual Machines' and armRegionName eq '{region}' "
        f"and priceType eq 'Consumption' and ({any_size})"
    )


def _is_linux_on_demand(item: dict[str, Any]) -> bool:
    # Windows meters carry "Windows" in the product name; Spot and Low Priority in the SKU's.
    sku = str(item.get("skuName", ""))
    return (
        "Windows" not in str(item.get("productName", ""))
        and "Spot" not in sku
        and "Low Priority" not in sku
        and item.get("unitOfMeasure") == "1 Hour"
    )


def _items(client: httpx.Client, base_url: str, params: dict[str, str]) -> Iterator[dict[str, Any]]:
    url: str | None = base_url
    query: dict[str, str] | None = params
    for _ in range(MAX_PAGES):
        if url is None:
            return
        resp = client.get(url, params=query)
        resp.raise_for_status()
        page = resp.json()
        yield from page.get("Items", [])
        url, query = page.get("NextPageLink"), None  # the link carries the query itself
    raise RuntimeError(f"the prices API gave more than {MAX_PAGES} pages")


def fetch_prices(
    region: str,
    sizes: Sequence[str],
    *,
    base_url: str,
    currency: str = "USD",
    verify: bool | ssl.SSLContext = True,
) -> dict[str, RetailPrice]:
    """Hourly prices of `sizes` in `region`; a size the API has no such price for is absent."""
    params = {"currencyCode": currency, "$filter": price_filter(region, sizes)}
    out: dict[str, RetailPrice] = {}
    with httpx.Client(timeout=TIMEOUT_S, verify=verify) as client:
        for item in _items(client, base_url, params):
            size = str(item.get("armSkuName", ""))
            if size not in sizes or not _is_linux_on_demand(item):
                continue
            price = float(item["retailPrice"])
            # Several meters may remain (older product names): the highest is kept, so an
            # estimate never comes out low.
            if size not in out or price > out[size].price_per_hour:
                out[size] = RetailPrice(
                    region, size, price, str(item.get("currencyCode", currency))
                )
    return out


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
