"""VM prices and costs as served: every price with its date and source; a size without a
price is listed as unpriced, never guessed."""

import math
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from backend.schemas.base import RequestModel

PriceSourceName = Literal["retail-api", "user"]


class VmPricePublic(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    region: str = Field(description="Azure region, e.g. 'westeurope'")
    size: str = Field(description="VM size, e.g. 'Standard_A2_v2'")
    price_per_hour: float = Field(description="pay-as-you-go Linux price of one running VM, per h")
    currency: str = Field(description="ISO 4217 code, e.g. 'USD'")
    source: PriceSourceName = Field(
        description="retail-api (the Azure Retail Prices API, by `prices refresh`) or user "
        "(set by hand with PUT /prices/{region}/{size})"
    )
    fetched_at: datetime = Field(description="when the price was fetched or set")


class VmPricesPublic(BaseModel):
    data: list[VmPricePublic] = Field(description="prices by region and size")
    count: int = Field(description="number of prices")


class VmPriceSet(RequestModel):
    """A price set by hand (e.g. offline, or a negotiated rate)."""

    price_per_hour: float = Field(ge=0, le=10_000, description="price of one running VM, per h")
    currency: str = Field(default="USD", pattern=r"^[A-Z]{3}$", description="ISO 4217 code")

    @field_validator("price_per_hour")
    @classmethod
    def _finite(cls, value: float) -> float:
        if not math.isfinite(value):
            raise ValueError("must be a finite number")
        return value


class CostLinePublic(BaseModel):
    region: str = Field(description="Azure region of these VMs")
    size: str = Field(description="VM size of these VMs")
    count: int = Field(description="VMs of this size in this region")
    price: VmPricePublic | None = Field(
        description="its price with date and source; null: no price is known for this size "
        "(refresh prices, or set one with PUT /prices/{region}/{size})"
    )


class CostPublic(BaseModel):
    """What some VMs cost over some hours. `amount` and `per_hour` are null when a VM has no
    price (see `unpriced`) or the prices are in different currencies: nothing is guessed."""

    vms: list[CostLinePublic] = Field(description="the VMs counted, by region and size")
    hours: float = Field(description="hours counted, in h")
    per_hour: float | None = Field(description="price of all the VMs together, per h")
    amount: float | None = Field(description="hours x per_hour")
    currency: str | None = Field(description="ISO 4217 code of per_hour and amount")
    unpriced: list[str] = Field(description="'region/size' of every VM without a price")
    counted: str = Field(description="what is counted, in words")


class TestbedCostPublic(BaseModel):
    """An Azure testbed's money: what it has cost so far and what is left of its budget."""

    accrued: CostPublic = Field(description="what the testbed has cost so far")
    since: datetime = Field(description="when its lab was requested (counting starts)")
    until: datetime = Field(description="its deletion, or now")
    budget: float | None = Field(description="the most it may cost; null: no budget")
    remaining: float | None = Field(description="budget - accrued; null without either")
