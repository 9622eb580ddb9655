"""Testbed and host schemas. Hosts carry a private key's path (never the key) and their public
SSH host key."""

import ipaddress
import re
from datetime import datetime
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    computed_field,
    field_validator,
)

from backend.core.addresses import check_literal
from backend.core.host_keys import MAX_KEY_LINE, fingerprint, key_line, parse_public_key
from backend.domain.azure_lab_rules import SIZE_PATTERN
from backend.domain.vm_sizes import CapBasis
from backend.models.enums import HostRole, TestbedKind
from backend.schemas.base import RequestModel
from backend.schemas.limits import DbText
from backend.schemas.network import NetworkPublic
from backend.schemas.price import TestbedCostPublic

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
    address: str = Field(
        min_length=1,
        max_length=255,
        pattern=r"^[A-Za-z0-9.:-]+$",
        description="IP address or host name in MCSCOPE_HOST_NETWORKS (loopback and private "
        "ranges by default; a name: every address it resolves to); link-local, cloud "
        "metadata, unspecified and multicast addresses are refused",
    )
    ssh_user: str = Field(min_length=1, max_length=64, pattern=r"^[a-z_][a-z0-9_-]*$")
    ssh_port: int = Field(default=22, ge=1, le=65_535)
    key_path: str = Field(
        min_length=1,
        max_length=1024,
        description="private key file under the key folder (MCSCOPE_SSH_KEY_DIR)",
    )
    size: str | None = Field(
        default=None,
        max_length=64,
        pattern=SIZE_PATTERN,
        description="Azure hosts: the VM size, e.g. 'Standard_A2_v2' (its price is looked up "
        "by size and region)",
    )
    region: str | None = Field(
        default=None,
        min_length=2,
        max_length=40,
        pattern=r"^[a-z][a-z0-9]*$",
        description="Azure hosts: the region the VM runs in, e.g. 'westeurope'",
    )
    zone: str | None = Field(
        default=None,
        max_length=8,
        pattern=r"^[1-9][0-9]?$",
        description="Azure hosts: the availability zone the VM runs in, e.g. '2' (null: "
        "regional, or not an Azure VM)",
    )
    link_cap_mbit_s: float | None = Field(
        default=None,
        gt=0,
        le=1_000_000,
        description="the host's egress cap, Mbit/s (10^6 bit/s), when its network is shaped "
        "or known (a cloud-shaped namespace host, an Azure VM's size): the network bound and "
        "the link utilization use it; null: unknown (the bound uses iperf3's upload)",
    )
    link_cap_basis: CapBasis | None = Field(
        default=None,
        description="the figure the cap follows: published (Azure's expected bandwidth), "
        "measured (the reports' iperf) or custom; null with no cap",
    )


HOST_KEY_DOC = (
    "the host's SSH public key as an OpenSSH line ('ssh-ed25519 AAAA...', e.g. the host's "
    "/etc/ssh/ssh_host_ed25519_key.pub); the worker accepts this key only"
)
HostKeySource = Literal["scanned", "supplied", "known_hosts"]
ScanStatus = Literal["pinning", "scanning", "read", "failed"]


def check_host_key(value: str) -> str:
    return key_line(parse_public_key(value))


class HostCreate(HostFields, RequestModel):
    host_key: str | None = Field(
        default=None,
        max_length=MAX_KEY_LINE,
        description=HOST_KEY_DOC + "; omitted: read from the host in the background after "
        "registration and pinned (see scan_status)",
    )

    @field_validator("address")
    @classmethod
    def _address(cls, value: str) -> str:
        value = check_address(value)
        check_literal(value)  # link-local, metadata, ...: refused without any traffic
        return value

    @field_validator("host_key")
    @classmethod
    def _host_key(cls, value: str | None) -> str | None:
        return None if value is None else check_host_key(value)

    @field_validator("link_cap_basis")
    @classmethod
    def _cap_basis(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is not None and info.data.get("link_cap_mbit_s") is None:
            raise ValueError("a cap's basis needs the cap: set link_cap_mbit_s")
        return value


class HostPublic(HostFields):
    model_config = ConfigDict(from_attributes=True, extra="ignore")
    id: int
    host_key: str | None = Field(description=HOST_KEY_DOC + "; null: not pinned, runs fail")
    host_key_source: HostKeySource | None = Field(
        description="how the key was pinned: read from the host (scanned), given by the user "
        "(supplied) or moved from the worker's earlier first-contact file (known_hosts)"
    )
    host_key_pinned_at: datetime | None = Field(description="when the key was pinned")
    scan_status: ScanStatus | None = Field(
        description="the background read of the host's key: pinning (registration: the key "
        "read is pinned), scanning (re-pin: read for you to confirm), read, failed; null: "
        "never read (the key was given)"
    )
    scan_error: str | None = Field(description="why the last read failed (scan_status failed)")
    scanned_key: str | None = Field(description="the key the host offered at the last read")
    scanned_at: datetime | None = Field(description="when the last read ended")

    @computed_field(  # type: ignore[prop-decorator]
        description="fingerprint of the pinned key as `ssh-keygen -lf` prints it on the host"
    )
    @property
    def host_key_fingerprint(self) -> str | None:
        return None if self.host_key is None else fingerprint(self.host_key)

    @computed_field(  # type: ignore[prop-decorator]
        description="fingerprint of the key the host offered at the last read"
    )
    @property
    def scanned_key_fingerprint(self) -> str | None:
        return None if self.scanned_key is None else fingerprint(self.scanned_key)

    @computed_field(  # type: ignore[prop-decorator]
        description="true when the key read last is the key pinned now"
    )
    @property
    def scanned_matches_pinned(self) -> bool:
        return self.scanned_key is not None and self.scanned_key == self.host_key


class HostKeyPin(RequestModel):
    """Pin (or re-pin, after the host was rebuilt) a host's SSH key."""

    host_key: str | None = Field(
        default=None,
        max_length=MAX_KEY_LINE,
        description=HOST_KEY_DOC + "; omitted: the key the last scan read (scanned_key)",
    )
    expected_fingerprint: str | None = Field(
        default=None,
        max_length=200,
        description="with host_key omitted: pin the key the last scan read only if it has "
        "this SHA256 fingerprint (the one the user confirmed)",
    )

    @field_validator("host_key")
    @classmethod
    def _host_key(cls, value: str | None) -> str | None:
        return None if value is None else check_host_key(value)


class TestbedCreate(RequestModel):
    name: DbText = Field(min_length=1, max_length=100)
    kind: TestbedKind = Field(
        default=TestbedKind.REMOTE,
        description="remote or azure (local is built in; a rehearsal is made by "
        "POST /rehearsals, which builds its hosts)",
    )
    description: DbText = Field(default="", max_length=2000)
    hosts: list[HostCreate] = Field(default_factory=list, max_length=256)

    @field_validator("kind")
    @classmethod
    def _registrable(cls, value: TestbedKind) -> TestbedKind:
        # A rehearsal's hosts are built (and torn down) by mcscope: registering hosts under
        # that kind by hand would promise a teardown nothing does.
        if value is TestbedKind.REHEARSAL:
            raise ValueError("a rehearsal testbed is made by Rehearse locally (POST /rehearsals)")
        return value


class TestbedPublic(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    name: str
    kind: TestbedKind
    description: str
    hosts: list[HostPublic]
    created_at: datetime
    cost: TestbedCostPublic | None = Field(
        default=None,
        description="Azure testbeds created as a lab: cost so far and budget left; null on others",
    )
    network: NetworkPublic | None = Field(
        default=None,
        description="the network between roles as last measured (round trips after "
        "registration and on request, iperf3 bandwidth on request); null: never measured",
    )

    @field_validator("network", mode="before")
    @classmethod
    def _network(cls, value: Any) -> Any:
        return value or None


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
