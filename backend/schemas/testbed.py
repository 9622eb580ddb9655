"""Testbed and host schemas. Hosts carry a key path, never key material."""

import ipaddress
import re
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field, field_validator

from backend.models.enums import HostRole, TestbedKind
from backend.schemas.base import RequestModel
from backend.schemas.limits import DbText

# RFC 1123 host name: dot-separated labels of letters, digits and inner hyphens.
_LABEL = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$")


def check_address(value: str) -> str:
    """An IP address or a host name; never something an SSH client could read as an option."""
    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        pass
    labels = value.rstrip(".").split(".")
    if len(value) > 253 or not all(_LABEL.match(label) for label in labels):
        raise ValueError("must be an IP address or a host name (letters, digits, '-', '.')")
    if labels[-1].isdigit():
        raise ValueError("is neither a valid IP address nor a host name")
    return value


class HostFields(BaseModel):
    name: str = Field(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
    role: HostRole
    address: str = Field(min_length=1, max_length=255, pattern=r"^[A-Za-z0-9.:-]+$")
    ssh_user: str = Field(min_length=1, max_length=64, pattern=r"^[a-z_][a-z0-9_-]*$")
    ssh_port: int = Field(default=22, ge=1, le=65_535)
    key_path: str = Field(
        min_length=1,
        max_length=1024,
        description="private key file under the key folder (MCSCOPE_SSH_KEY_DIR)",
    )


class HostCreate(HostFields, RequestModel):
    @field_validator("address")
    @classmethod
    def _address(cls, value: str) -> str:
        return check_address(value)


class HostPublic(HostFields):
    model_config = ConfigDict(from_attributes=True, extra="ignore")
    id: int


class TestbedCreate(RequestModel):
    name: DbText = Field(min_length=1, max_length=100)
    kind: TestbedKind = TestbedKind.REMOTE
    description: DbText = Field(default="", max_length=2000)
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


class TestbedToolPublic(BaseModel):
    """A tool the newest run on a testbed found, with the version it reported."""

    testbed_id: int | None  # None: the built-in local testbed
    tool: str
    version: str
    run_id: int
    seen_at: datetime | None


class TestbedToolsPublic(BaseModel):
    data: list[TestbedToolPublic]
    count: int
