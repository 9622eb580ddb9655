"""Azure lab schemas: the request that queues a lab's creation (a short form the route turns
into backend.azure.lab_spec.LabSpec, which validates it again) and the lab's state as served."""

import ipaddress
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from backend.domain.azure_lab_rules import DEFAULT_EXPIRY_HOURS, MAX_EXPIRY_HOURS, MIN_EXPIRY_HOURS
from backend.domain.azure_lab_states import allowed_actions
from backend.schemas.base import RequestModel

AzureLabState = Literal[
    "queued",
    "creating",
    "ready",
    "failed",
    "stopping",
    "stopped",
    "starting",
    "deleting",
    "deleted",
]


class AzureRoleRequest(RequestModel):
    """How many VMs of one role, and their size."""

    count: int = Field(ge=0, le=8, description="number of VMs of this role")
    size: str = Field(
        min_length=1, max_length=64, description="Azure VM size, e.g. 'Standard_A2_v2'"
    )


class AzureLabCreate(RequestModel):
    """A lab to create on Azure and register as a testbed once its VMs answer."""

    name: str = Field(
        min_length=1,
        max_length=40,
        pattern=r"^[a-z](?:[a-z0-9-]*[a-z0-9])?$",
        description="testbed name, prefix of every VM name; its resource group is mcscope-<name>",
    )
    region: str = Field(
        min_length=2,
        max_length=40,
        pattern=r"^[a-z][a-z0-9]*$",
        description="Azure region, e.g. 'westeurope'",
    )
    zone: Literal["1", "2", "3"] | None = Field(
        default=None,
        description="availability zone of every VM, '1', '2' or '3' (null: regional, Azure "
        "picks); recorded on each host, so Compare shows runs in different zones",
    )
    servers: AzureRoleRequest = Field(description="memcached server VMs (at least one)")
    middlewares: AzureRoleRequest = Field(description="middleware VMs (0: no middleware)")
    clients: AzureRoleRequest = Field(description="load generator VMs (at least one)")
    key_path: str = Field(
        min_length=1,
        max_length=1024,
        description="private key file under the key folder (MCSCOPE_SSH_KEY_DIR); the "
        "public key beside it (<key_path>.pub) is the VMs' login key",
    )
    ssh_source_cidr: str = Field(
        min_length=1,
        max_length=50,
        description="the only source network allowed to reach the VMs' SSH port",
    )
    subnet_prefix: str = Field(
        default="10.42.1.0/24",
        min_length=1,
        max_length=50,
        description="the lab's subnet; VMs get its addresses from the fifth up",
    )
    image: str | None = Field(
        default=None,
        max_length=200,
        description="marketplace image URN publisher:offer:sku:version (null: Ubuntu 24.04 LTS)",
    )
    jump_host: bool = Field(
        default=True, description="add one VM with a public IP to reach the others through"
    )
    expires_in_hours: float = Field(
        default=DEFAULT_EXPIRY_HOURS,
        ge=MIN_EXPIRY_HOURS,
        le=MAX_EXPIRY_HOURS,
        allow_inf_nan=False,
        description=f"hours until the lab is deleted, in h ({MIN_EXPIRY_HOURS:g} h at least; "
        "at most MCSCOPE_AZURE_MAX_EXPIRY_HOURS, GET /azure-labs/defaults)",
    )
    budget: float | None = Field(
        default=None,
        gt=0,
        le=1_000_000,
        description="the most the testbed may cost, in the prices' currency; starting an "
        "experiment whose estimate exceeds what is left is refused (null: no limit)",
    )
    owner: str = Field(
        default="mcscope",
        min_length=1,
        max_length=64,
        pattern=r"^[A-Za-z0-9._@-]+$",
        description="owner tag on every resource of the lab",
    )

    @field_validator("servers", "clients")
    @classmethod
    def _at_least_one(cls, value: AzureRoleRequest) -> AzureRoleRequest:
        if value.count < 1:
            raise ValueError("count must be at least 1")
        return value

    @field_validator("ssh_source_cidr", "subnet_prefix")
    @classmethod
    def _cidr(cls, value: str) -> str:
        try:
            return str(ipaddress.ip_network(value, strict=True))
        except ValueError as e:
            raise ValueError(f"not a CIDR block: {e}") from None


class AzureLabPublic(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int = Field(description="database id of the lab")
    name: str = Field(description="the testbed name it registers as")
    status: AzureLabState = Field(
        description="queued, creating (a worker is on it), ready (registered as a testbed), "
        "failed (nothing left on Azure; see error), stopping, stopped (deallocated), "
        "starting, deleting or deleted"
    )
    planned: list[str] = Field(description="the plan's resources, in creation order")
    progress: list[str] = Field(description="resources created so far, in order")
    error: str | None = Field(description="why the creation failed")
    resource_group: str = Field(description="the Azure resource group holding the lab")
    expires_at: datetime | None = Field(description="when the janitor deletes the lab")
    testbed_id: int | None = Field(description="the testbed it was registered as, once ready")
    budget: float | None = Field(description="the most its testbed may cost; null: no limit")
    deleted_at: datetime | None = Field(description="when its resource group was deleted")
    created_at: datetime = Field(description="when the lab was requested")
    actions: list[Literal["stop", "start", "delete"]] = Field(
        description="what the user may do with it now (GET /azure-labs/states has the table)"
    )

    @model_validator(mode="before")
    @classmethod
    def _actions(cls, data: Any) -> Any:
        # Derived from the one transition table, never stored.
        if isinstance(data, dict) or hasattr(data, "actions"):
            return data
        return {
            **{f: getattr(data, f) for f in cls.model_fields if f != "actions"},
            "actions": [a.value for a in allowed_actions(data.status, data.deleted_at is not None)],
        }


class AzureLabTransitionPublic(BaseModel):
    action: Literal["stop", "start", "delete"] | None = Field(
        description="the user's action; null: the worker's own transition"
    )
    from_states: list[AzureLabState] = Field(description="the states it may start from")
    during: AzureLabState | None = Field(description="the state while a worker carries it out")
    to: AzureLabState | None = Field(description="the state once done; null: back where it was")
    meaning: str = Field(description="what it does, in words")


class AzureLabStatesPublic(BaseModel):
    data: list[AzureLabTransitionPublic] = Field(description="every transition, actions first")


class AzureLabsPublic(BaseModel):
    data: list[AzureLabPublic] = Field(description="labs, newest first")
    count: int = Field(description="number of labs")


class AzureLabDelete(RequestModel):
    """Deleting a lab asks for its name, typed by the user, as a confirmation."""

    name: str = Field(max_length=100, description="the lab's name, typed again to confirm")
