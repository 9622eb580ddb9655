"""Testbeds and their hosts: where the roles of an experiment run."""

from sqlalchemy import ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from backend.models.base import Base, TimestampMixin
from backend.models.enums import HostRole, TestbedKind, host_role_enum, testbed_kind_enum


class Testbed(TimestampMixin, Base):
    __tablename__ = "testbeds"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    kind: Mapped[TestbedKind] = mapped_column(testbed_kind_enum)
    description: Mapped[str] = mapped_column(String(2000), default="")

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

    testbed: Mapped[Testbed] = relationship(back_populates="hosts")
