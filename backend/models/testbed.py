"""Testbeds and their hosts: where the roles of an experiment run."""

from datetime import datetime
from typing import Any

from sqlalchemy import DateTime, Float, ForeignKey, Integer, String, UniqueConstraint, text
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column, relationship

from backend.models.base import Base, TimestampMixin
from backend.models.enums import HostRole, TestbedKind, host_role_enum, testbed_kind_enum


class Testbed(TimestampMixin, Base):
    __tablename__ = "testbeds"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    kind: Mapped[TestbedKind] = mapped_column(testbed_kind_enum)
    description: Mapped[str] = mapped_column(String(2000), default="")
    # The network between roles as last measured (backend.domain.round_trip): round trips
    # after registration and on request, iperf3 bandwidths on request; {} never measured.
    network: Mapped[dict[str, Any]] = mapped_column(
        JSONB, default=dict, server_default=text("'{}'::jsonb")
    )

    hosts: Mapped[list["Host"]] = relationship(
        back_populates="testbed",
        cascade="all, delete-orphan",
        passive_deletes=True,
        order_by="Host.id",
    )


class Host(Base):
    """One machine of a testbed. Only the path of the SSH key is stored, never the key."""

    __tablename__ = "hosts"
    __table_args__ = (UniqueConstraint("testbed_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    testbed_id: Mapped[int] = mapped_column(
        ForeignKey("testbeds.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(100))
    role: Mapped[HostRole] = mapped_column(host_role_enum)
    address: Mapped[str] = mapped_column(String(255))
    ssh_user: Mapped[str] = mapped_column(String(64))
    ssh_port: Mapped[int] = mapped_column(Integer, default=22)
    key_path: Mapped[str] = mapped_column(String(1024))
    # The SSH host key the worker accepts ("ssh-ed25519 AAAA..."), pinned at registration or
    # re-pinned by the user; None: not pinned, runs on this host fail until it is.
    host_key: Mapped[str | None] = mapped_column(String(4096), default=None)
    # How it was pinned: "scanned" (read from the host), "supplied" (given by the user) or
    # "known_hosts" (moved from the worker's first-contact file by migration 0009).
    host_key_source: Mapped[str | None] = mapped_column(String(16), default=None)
    host_key_pinned_at: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), default=None
    )
    # The background key read (backend/core/host_scans.py): "pinning" (registration: pin the
    # key read), "scanning" (re-pin: read it for the user to confirm), "read" or "failed";
    # None: never read (the key was given).
    scan_status: Mapped[str | None] = mapped_column(String(16), default=None)
    # Why the last read failed, in words that do not tell what listens on the port.
    scan_error: Mapped[str | None] = mapped_column(String(500), default=None)
    # The key the host offered at the last read, and when it was read.
    scanned_key: Mapped[str | None] = mapped_column(String(4096), default=None)
    scanned_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)

    # Azure hosts: the VM size and region it runs in (what its price is looked up by) and
    # its availability zone; None on other testbeds (zone: also on a regional VM).
    size: Mapped[str | None] = mapped_column(String(64), default=None)
    region: Mapped[str | None] = mapped_column(String(40), default=None)
    zone: Mapped[str | None] = mapped_column(String(8), default=None)
    # The host's egress cap in Mbit/s when its network is shaped (backend/rehearsal/shaping.py: the
    # fake Azure's VMs, a rehearsal) or otherwise known, and the figure it follows
    # (backend.domain.vm_sizes' basis, or "custom"); None: unknown, iperf3's figure is used.
    link_cap_mbit_s: Mapped[float | None] = mapped_column(Float, default=None)
    link_cap_basis: Mapped[str | None] = mapped_column(String(16), default=None)

    testbed: Mapped[Testbed] = relationship(back_populates="hosts")
