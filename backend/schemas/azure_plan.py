"""What a New Azure testbed would be, shown before anything is created: its resources, the
vCPU quota they draw on, and their price per hour and up to the expiry; and the page's
defaults (templates, expiry and its maximum from the settings)."""

from typing import Literal

from pydantic import BaseModel, Field

from backend.schemas.price import CostPublic

RoleName = Literal["server", "middleware", "client", "jump"]


class PlannedResourcePublic(BaseModel):
    kind: str = Field(description="resource group, network security group, virtual network, ...")
    name: str = Field(description="its name in the resource group")
    label: str = Field(description="'<kind> <name>', as the lab's progress lists it")
    role: RoleName | None = Field(description="a VM's role (its NIC and IP's too); null otherwise")
    size: str | None = Field(description="a VM's size; null for other resources")


class QuotaLinePublic(BaseModel):
    family: str = Field(description="vCPU family, or 'cores' for the region's total")
    needed: int = Field(description="vCPUs the testbed needs")
    used: int = Field(description="vCPUs in use now")
    limit: int = Field(description="the subscription's limit in the region")
    fits: bool = Field(description="used + needed <= limit")


class QuotaPublic(BaseModel):
    checked: bool = Field(description="whether Azure was asked (false: no subscription is set)")
    lines: list[QuotaLinePublic] = Field(description="one per family, and the region's total")
    error: str | None = Field(
        description="not enough quota (naming the family and the numbers), a size the region "
        "does not offer, or why the quota could not be read"
    )
    table_vcpus: int | None = Field(
        default=None,
        description="when the quota was not read: the vCPUs the testbed needs by the size "
        "table (backend.domain.vm_sizes); null: read, or a size the table does not know",
    )


class AzureLabPlanPublic(BaseModel):
    resource_group: str = Field(description="the resource group holding everything")
    region: str = Field(description="Azure region")
    zone: str | None = Field(description="availability zone of every VM; null: regional")
    image: str = Field(description="marketplace image URN of every VM")
    resources: list[PlannedResourcePublic] = Field(description="in creation order")
    quota: QuotaPublic = Field(description="vCPUs needed against the region's quota")
    per_hour: CostPublic = Field(description="all VMs running for one hour")
    until_expiry: CostPublic = Field(description="all VMs running until the expiry")
    expires_in_hours: float = Field(description="hours until the testbed is deleted, in h")
    budget: float | None = Field(description="the budget asked for; null: none")
    over_budget: bool = Field(description="the cost up to the expiry exceeds the budget")
    key_missing: str | None = Field(
        default=None,
        description="why the SSH key cannot be used yet (the plan shows anyway; create "
        "refuses until the key exists); null: the key is there",
    )


class AzureTemplatePublic(BaseModel):
    name: str = Field(description="template id")
    label: str = Field(description="what it is, in words")
    servers: int = Field(description="memcached server VMs")
    middlewares: int = Field(description="middleware VMs")
    clients: int = Field(description="load generator VMs")
    server_size: str = Field(description="VM size of the servers")
    middleware_size: str = Field(description="VM size of the middlewares")
    client_size: str = Field(description="VM size of the clients")


class AzureLabDefaultsPublic(BaseModel):
    configured: bool = Field(description="whether an Azure subscription is set (MCSCOPE_AZURE_*)")
    templates: list[AzureTemplatePublic] = Field(description="topology templates")
    region: str = Field(description="suggested region")
    image: str = Field(description="default marketplace image URN")
    default_expiry_hours: float = Field(description="expiry of a new testbed, in h")
    min_expiry_hours: float = Field(description="the shortest expiry allowed, in h")
    max_expiry_hours: float = Field(description="the longest expiry allowed, in h")
    currency: str = Field(
        description="ISO 4217 code of the suggested region's stored prices, in which a budget is "
        "given ('USD', the Retail Prices API's default, when none is stored)"
    )
