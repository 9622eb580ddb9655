"""Testbeds: listing them, finding one by name, whether experiments use one, and registering
the hosts mcscope built itself (Azure VMs, rehearsal hosts) with the keys their build supplied."""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from backend.models import Experiment, Host, HostRole, Testbed, TestbedKind


def list_testbeds(*, session: Session) -> list[Testbed]:
    """Every testbed, oldest first."""
    return list(session.scalars(select(Testbed).order_by(Testbed.id)))


def testbed_id_by_name(*, session: Session, name: str) -> int | None:
    """The id of the testbed named `name`, if any."""
    return session.scalar(select(Testbed.id).where(Testbed.name == name))


def experiments_using(*, session: Session, testbed_id: int) -> int:
    """How many experiments run on the testbed."""
    return session.scalar(select(func.count()).where(Experiment.testbed_id == testbed_id)) or 0


@dataclass(frozen=True)
class SuppliedHost:
    """A host mcscope built itself (an Azure VM, a rehearsal's namespace host): its key came
    from the build, not from a scan."""

    name: str
    role: str
    address: str
    ssh_user: str
    key_path: str
    host_key: str
    size: str
    link_cap_mbit_s: float | None
    link_cap_basis: str | None
    region: str | None = None
    zone: str | None = None


def register_with_supplied_keys(
    *,
    session: Session,
    name: str,
    kind: TestbedKind,
    description: str,
    hosts: Iterable[SuppliedHost],
) -> Testbed:
    """The testbed of hosts mcscope built, their keys pinned now as supplied by the build (no
    scan: the build made the key and handed it over). Flushed, not committed: the caller
    commits it with its own row's state."""
    pinned_at = datetime.now(UTC)
    testbed = Testbed(name=name, kind=kind, description=description)
    testbed.hosts = [
        Host(
            name=h.name,
            role=HostRole(h.role),
            address=h.address,
            ssh_user=h.ssh_user,
            ssh_port=22,
            key_path=h.key_path,
            host_key=h.host_key,
            host_key_source="supplied",
            host_key_pinned_at=pinned_at,
            size=h.size,
            region=h.region,
            zone=h.zone,
            link_cap_mbit_s=h.link_cap_mbit_s,
            link_cap_basis=h.link_cap_basis,
        )
        for h in hosts
    ]
    session.add(testbed)
    session.flush()
    return testbed
