"""Typed topology spec of an Azure lab: every value that reaches an Azure request is validated
here first, so names with spaces, semicolons or quotes never get that far."""

from __future__ import annotations

import ipaddress
import json
import re
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from backend.domain.azure_lab_rules import (
    DEFAULT_EXPIRY_HOURS,
    MAX_EXPIRY_HOURS,
    MAX_VMS,
    MIN_EXPIRY_HOURS,
    RETIRED_SIZES,
    SIZE_PATTERN,
)

# Azure resource names: letters, digits, '-', '_' and '.', no leading/trailing punctuation.
ResourceName = Annotated[
    str,
    Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9_])?$"),
]
# VM names double as host names (and as mcscope host names): lower-case DNS labels.
VmPrefix = Annotated[
    str, Field(min_length=1, max_length=40, pattern=r"^[a-z](?:[a-z0-9-]*[a-z0-9])?$")
]
Region = Annotated[str, Field(min_length=2, max_length=40, pattern=r"^[a-z][a-z0-9]*$")]
# Availability zones are numbered 1-3 in every region that has them.
Zone = Literal["1", "2", "3"]
# Marketplace URN publisher:offer:sku:version (the SDK takes no az aliases such as Ubuntu2404).
Image = Annotated[
    str,
    Field(
        max_length=200,
        pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*:[A-Za-z0-9._-]+:[A-Za-z0-9._-]+:[A-Za-z0-9._-]+$",
    ),
]
# Who the resources are billed to in mcscope's eyes: goes into every resource's owner tag.
Owner = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9._@-]+$")]
AdminUser = Annotated[str, Field(min_length=1, max_length=32, pattern=r"^[a-z_][a-z0-9_-]*$")]
GitUrl = Annotated[str, Field(max_length=300, pattern=r"^https://[A-Za-z0-9._~/-]+$")]
GitRef = Annotated[
    str, Field(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9][A-Za-z0-9._/-]*$")
]


class Role(StrEnum):
    SERVER = "server"
    MIDDLEWARE = "middleware"
    CLIENT = "client"


def _check_size(value: str) -> str:
    if value in RETIRED_SIZES:
        raise ValueError(f"size {value!r} is retired; use {RETIRED_SIZES[value]!r}")
    if not re.fullmatch(SIZE_PATTERN, value):
        raise ValueError(f"unknown VM size format {value!r} (expected e.g. 'Standard_A2_v2')")
    return value


class RoleSpec(BaseModel):
    """How many VMs of one role, and their size."""

    model_config = ConfigDict(extra="forbid")

    count: int = Field(ge=0, le=8)
    size: str
    # Public IPs are off by default: hosts are reached over the virtual network.
    public_ip: bool = False

    @field_validator("size")
    @classmethod
    def _size(cls, v: str) -> str:
        return _check_size(v)


class JumpHostSpec(BaseModel):
    """The one VM with a public IP, used as SSH jump host (or to run mcscope itself)."""

    model_config = ConfigDict(extra="forbid")

    enabled: bool = True
    name: VmPrefix = "jump"
    size: str = "Standard_B2s"

    @field_validator("size")
    @classmethod
    def _size(cls, v: str) -> str:
        return _check_size(v)


class NetworkSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    vnet: ResourceName = "mcscope-vnet"
    address_prefix: str = "10.42.0.0/16"
    subnet: ResourceName = "experiments"
    subnet_prefix: str = "10.42.1.0/24"
    nsg: ResourceName = "mcscope-nsg"
    # SSH is allowed from this CIDR only; everything inside the vnet is allowed by the
    # NSG's default AllowVnetInBound rule, which covers the memcached/middleware ports.
    ssh_source_cidr: str

    @field_validator("address_prefix", "subnet_prefix", "ssh_source_cidr")
    @classmethod
    def _cidr(cls, v: str) -> str:
        try:
            return str(ipaddress.ip_network(v, strict=True))
        except ValueError as e:
            raise ValueError(f"not a CIDR block: {v!r} ({e})") from None

    @field_validator("ssh_source_cidr")
    @classmethod
    def _not_everyone(cls, v: str) -> str:
        # Runs after _cidr, so v is normalised; SSH open to all invites brute-forcing.
        if ipaddress.ip_network(v).prefixlen == 0:
            raise ValueError("ssh_source_cidr must not be the whole internet")
        return v

    @model_validator(mode="after")
    def _subnet_inside(self) -> NetworkSpec:
        vnet = ipaddress.ip_network(self.address_prefix)
        sub = ipaddress.ip_network(self.subnet_prefix)
        if sub.version != vnet.version or not sub.subnet_of(vnet):  # type: ignore[arg-type]
            raise ValueError(f"subnet_prefix {sub} is not inside address_prefix {vnet}")
        return self


class MiddlewareSource(BaseModel):
    """Optional git clone for middleware VMs; without it, copy middleware-cpp/ by hand."""

    model_config = ConfigDict(extra="forbid")

    git_url: GitUrl
    git_ref: GitRef = "main"


def _resolve_path(v: str, info: ValidationInfo, *, must_exist: bool) -> str:
    if any(ord(c) < 32 for c in v):
        raise ValueError("path contains control characters")
    path = Path(v).expanduser()
    if not path.is_absolute():
        # load_spec passes the spec's folder; a bare model_validate resolves against the cwd.
        context = info.context if isinstance(info.context, dict) else {}
        path = Path(context.get("base_dir", ".")).resolve() / path
    # A plan (nothing created) may be shown before the key exists: the caller flags it.
    planning = isinstance(info.context, dict) and info.context.get("plan_only", False)
    if must_exist and not planning and not path.is_file():
        raise ValueError(f"key file not found: {path}")
    return str(path)


class LabSpec(BaseModel):
    """One Azure lab: a resource group holding one VM per role instance in one subnet."""

    model_config = ConfigDict(extra="forbid")

    # Testbed name in mcscope and prefix of every VM name.
    name: VmPrefix
    description: str = Field(default="", max_length=500)
    resource_group: ResourceName
    region: Region
    # Every VM (and public IP) in this availability zone; None: regional, Azure picks.
    zone: Zone | None = None
    admin_user: AdminUser = "mcscope"
    ssh_public_key_path: str
    ssh_private_key_path: str
    image: Image = "Canonical:ubuntu-24_04-lts:server:latest"
    network: NetworkSpec
    roles: dict[Role, RoleSpec]
    jump_host: JumpHostSpec = Field(default_factory=JumpHostSpec)
    middleware_source: MiddlewareSource | None = None
    owner: Owner = "mcscope"
    expires_in_hours: float = Field(
        default=DEFAULT_EXPIRY_HOURS, ge=MIN_EXPIRY_HOURS, le=MAX_EXPIRY_HOURS
    )

    @field_validator("ssh_public_key_path")
    @classmethod
    def _public_key(cls, v: str, info: ValidationInfo) -> str:
        path = _resolve_path(v, info, must_exist=True)
        if not Path(path).is_file():  # planning without the key: nothing to read
            return path
        if not Path(path).read_text(errors="replace").startswith(("ssh-", "ecdsa-")):
            raise ValueError(f"not an OpenSSH public key: {path}")
        return path

    @field_validator("ssh_private_key_path")
    @classmethod
    def _private_key(cls, v: str, info: ValidationInfo) -> str:
        # The worker reads this path to reach the hosts; only the path is ever stored.
        return _resolve_path(v, info, must_exist=True)

    @field_validator("admin_user")
    @classmethod
    def _not_reserved(cls, v: str) -> str:
        if v in {"root", "admin", "administrator", "guest", "user", "test"}:
            raise ValueError(f"admin user {v!r} is reserved by Azure")
        return v

    @field_validator("roles")
    @classmethod
    def _roles_needed(cls, v: dict[Role, RoleSpec]) -> dict[Role, RoleSpec]:
        # Every experiment needs a memcached server and a load generator; middleware may be 0
        # (the no-middleware baseline).
        for role in (Role.SERVER, Role.CLIENT):
            if role not in v or v[role].count < 1:
                raise ValueError(f"roles.{role.value}.count must be at least 1")
        return v

    @model_validator(mode="after")
    def _counts(self) -> LabSpec:
        total = sum(r.count for r in self.roles.values()) + int(self.jump_host.enabled)
        if total > MAX_VMS:
            raise ValueError(f"{total} VMs requested; at most {MAX_VMS} per lab")
        if self.ssh_public_key_path == self.ssh_private_key_path:
            raise ValueError("ssh_private_key_path must differ from ssh_public_key_path")
        return self

    def vm_names(self, role: Role) -> list[str]:
        """VM names of one role, e.g. lab-server-1 .. lab-server-3."""
        spec = self.roles.get(role)
        return [f"{self.name}-{role.value}-{i}" for i in range(1, (spec.count if spec else 0) + 1)]

    def jump_name(self) -> str:
        return f"{self.name}-{self.jump_host.name}"


def load_spec(path: Path) -> LabSpec:
    """Read a JSON or YAML spec; relative key paths are relative to the spec's folder."""
    text = path.read_text()
    data: Any
    if path.suffix in (".yaml", ".yml"):
        import yaml  # PyYAML comes with uvicorn[standard]; JSON specs do not need it

        data = yaml.safe_load(text)
    else:
        data = json.loads(text)
    return LabSpec.model_validate(data, context={"base_dir": str(path.parent.resolve())})
