"""Rehearsal schemas: the request (an Azure testbed's form, plus the bandwidth basis its links
are shaped on) and the rehearsal as served, with what it is and is not like the cloud."""

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from backend.domain.rehearsal_states import allowed_actions
from backend.rehearsal.fidelity import LIKE_THE_CLOUD, UNLIKE_THE_CLOUD
from backend.schemas.azure_lab import AzureLabCreate
from backend.schemas.base import RequestModel

RehearsalState = Literal["queued", "building", "ready", "failed", "deleting", "deleted"]


class RehearsalCreate(AzureLabCreate):
    """The plan of an Azure testbed to rehearse on this machine: its role VMs become namespace
    hosts (the jump host, region, zone, image, key, SSH source, subnet and budget are not
    used); expires_in_hours is the rehearsal's own expiry."""

    bandwidth_basis: Literal["measured", "published"] = Field(
        default="measured",
        description="which figure each host's link is capped at: 'measured' (the reports' "
        "iperf of the Basic A-series VMs: A1 101, A2 201, A4 802 Mbit/s) or 'published' "
        "(Azure's expected bandwidth of the size)",
    )


class RehearsalHostPublic(BaseModel):
    name: str = Field(description="the host's name, as the Azure plan names its VM")
    role: str
    size: str = Field(description="the VM size it stands for")
    mbit_s: float = Field(description="its egress cap, Mbit/s (10^6 bit/s)")
    basis: Literal["measured", "published"] = Field(description="which figure the cap follows")
    bandwidth_source: str = Field(description="the basis and source of that figure")


class RehearsalPublic(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    name: str
    status: RehearsalState
    hosts: list[RehearsalHostPublic]
    network: str | None = Field(description="the hosts' /24 on this machine (once built)")
    made: list[str] = Field(description="what exists on this machine now, as recorded")
    error: str | None
    expires_at: datetime = Field(description="when the janitor tears it down")
    deleted_at: datetime | None = Field(description="when it was torn down")
    testbed_id: int | None = Field(description="its testbed, once registered")
    created_at: datetime
    actions: list[Literal["delete"]] = Field(description="what its state allows")
    like_the_cloud: list[str] = Field(description="what is like the Azure testbed it rehearses")
    unlike_the_cloud: list[str] = Field(description="what is not")

    @model_validator(mode="before")
    @classmethod
    def _derived(cls, data: Any) -> Any:
        if isinstance(data, dict):
            return data
        return {
            **{k: getattr(data, k) for k in cls.model_fields if hasattr(data, k)},
            "actions": allowed_actions(data.status),
            "like_the_cloud": list(LIKE_THE_CLOUD),
            "unlike_the_cloud": list(UNLIKE_THE_CLOUD),
        }


class RehearsalsPublic(BaseModel):
    data: list[RehearsalPublic]
    count: int


class RehearsalDelete(RequestModel):
    """Deleting tears the rehearsal's hosts down; its name typed again confirms it."""

    name: str = Field(min_length=1, max_length=100, description="the rehearsal's name")
