"""An Azure lab being created (or made) for a testbed: the durable record of a creation the
worker's task carries out, so its state and progress outlive the task."""

from datetime import datetime
from typing import Any

from sqlalchemy import DateTime, Float, ForeignKey, Integer, String, text
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from backend.domain.azure_lab_states import AzureLabStatus
from backend.models.base import Base, TimestampMixin

__all__ = ["AzureLab", "AzureLabStatus"]


class AzureLab(TimestampMixin, Base):
    __tablename__ = "azure_labs"

    id: Mapped[int] = mapped_column(primary_key=True)
    # The testbed name it registers as (not unique here: a failed lab's name may be tried
    # again; the testbeds table keeps names unique).
    name: Mapped[str] = mapped_column(String(100))
    # The lab spec (backend.azure.lab_spec.LabSpec) as JSON, validated again by the worker.
    spec: Mapped[dict[str, Any]] = mapped_column(JSONB)
    status: Mapped[str] = mapped_column(String(16), default=AzureLabStatus.QUEUED.value)
    # The plan's resources in creation order, as progress names them ("virtual network x").
    planned: Mapped[list[str]] = mapped_column(
        JSONB, default=list, server_default=text("'[]'::jsonb")
    )
    # Resources created so far, in order ("virtual network mcscope-vnet").
    progress: Mapped[list[str]] = mapped_column(JSONB, default=list)
    error: Mapped[str | None] = mapped_column(String(4000), default=None)
    resource_group: Mapped[str] = mapped_column(String(90))
    expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    # The most its testbed may cost (in the prices' currency); None: no limit.
    budget: Mapped[float | None] = mapped_column(Float, default=None)
    # When its resource group was deleted (the janitor or a delete); cost accrues until then.
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    testbed_id: Mapped[int | None] = mapped_column(
        ForeignKey("testbeds.id", ondelete="SET NULL"), default=None
    )
    # The worker process creating it (host:pid) and its heartbeat: a lab left `creating` by a
    # dead worker is queued again (or cleaned up) by the janitor.
    worker: Mapped[str | None] = mapped_column(String(255), default=None)
    heartbeat_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    # Creation attempts so far (a resumed creation is attempt 2, 3, ...).
    attempt: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # VM name -> the public host key it was (or is about to be) created with, written before
    # the VM's creation, so a resumed creation pins the VMs already made.
    host_keys: Mapped[dict[str, str]] = mapped_column(
        JSONB, default=dict, server_default=text("'{}'::jsonb")
    )
