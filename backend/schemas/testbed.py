"""Testbed and host schemas. Hosts carry a key path, never key material."""

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from backend.models.enums import HostRole, TestbedKind


class HostCreate(BaseModel):
    name: str = Field(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
    role: HostRole
    address: str = Field(min_length=1, max_length=255, pattern=r"^[A-Za-z0-9.:-]+$")
    ssh_user: str = Field(min_length=1, max_length=64, pattern=r"^[a-z_][a-z0-9_-]*$")
    ssh_port: int = Field(default=22, ge=1, le=65_535)
    key_path: str = Field(min_length=1, max_length=1024)


class HostPublic(HostCreate):
    model_config = ConfigDict(from_attributes=True)
    id: int


class TestbedCreate(BaseModel):
    name: str = Field(min_length=1, max_length=100)
    kind: TestbedKind = TestbedKind.REMOTE
    description: str = Field(default="", max_length=2000)
    hosts: list[HostCreate] = Field(default_factory=list, max_length=256)


class TestbedPublic(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    name: str
    kind: TestbedKind
    description: str
    hosts: list[HostPublic]
    created_at: datetime


class TestbedsPublic(BaseModel):
    data: list[TestbedPublic]
    count: int
