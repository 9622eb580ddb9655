"""A rehearsal: an Azure plan's hosts built as network-namespace hosts on this machine and
registered as a testbed of kind `rehearsal` (backend.rehearsal). The row is the durable
record of what was made, so a teardown (Delete, expiry, the janitor) removes exactly that."""

from datetime import datetime
from typing import Any

from sqlalchemy import DateTime, ForeignKey, String, text
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from backend.domain.rehearsal_states import RehearsalStatus
from backend.models.base import Base, TimestampMixin


class Rehearsal(TimestampMixin, Base):
    __tablename__ = "rehearsals"

    id: Mapped[int] = mapped_column(primary_key=True)
    # The testbed name it registers as (a failed rehearsal's name may be tried again).
    name: Mapped[str] = mapped_column(String(100))
    status: Mapped[str] = mapped_column(String(16), default=RehearsalStatus.QUEUED.value)
    # The plan's hosts in build order: {"name", "role", "size", "mbit_s", "bandwidth_source"}.
    hosts: Mapped[list[dict[str, Any]]] = mapped_column(JSONB)
    # Short random tag in every name it makes (namespaces, links, bridge), unique per rehearsal.
    tag: Mapped[str] = mapped_column(String(8))
    # The /24 its hosts were given (None until the build chose one).
    network: Mapped[str | None] = mapped_column(String(32), default=None)
    # What exists on this machine, each recorded before it is made ("namespace mcr1a2b0",
    # "bridge mcrbr1a2b", "state /path"): what a teardown removes.
    made: Mapped[list[str]] = mapped_column(JSONB, default=list, server_default=text("'[]'::jsonb"))
    error: Mapped[str | None] = mapped_column(String(4000), default=None)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    testbed_id: Mapped[int | None] = mapped_column(
        ForeignKey("testbeds.id", ondelete="SET NULL"), default=None
    )
    # The worker building or tearing it down (host:pid) and its heartbeat: the janitor tears
    # down a build whose worker died.
    worker: Mapped[str | None] = mapped_column(String(255), default=None)
    heartbeat_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
