"""A run: one configuration x one repetition, with everything needed to reproduce it."""

from datetime import datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column, relationship

from backend.models.base import Base, TimestampMixin
from backend.models.enums import RunStatus, run_status_enum
from backend.models.experiment import Configuration


class Run(TimestampMixin, Base):
    __tablename__ = "runs"
    __table_args__ = (
        UniqueConstraint("configuration_id", "repetition"),
        Index("ix_runs_experiment_id_status", "experiment_id", "status"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    # experiment_id duplicates configuration.experiment_id so listing and aggregating
    # an experiment's runs needs no join.
    experiment_id: Mapped[int] = mapped_column(ForeignKey("experiments.id", ondelete="CASCADE"))
    configuration_id: Mapped[int] = mapped_column(
        ForeignKey("configurations.id", ondelete="CASCADE"), index=True
    )
    repetition: Mapped[int] = mapped_column(Integer)
    status: Mapped[RunStatus] = mapped_column(run_status_enum, default=RunStatus.QUEUED)
    attempt: Mapped[int] = mapped_column(Integer, default=0)
    cancel_requested: Mapped[bool] = mapped_column(Boolean, default=False)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    error: Mapped[str | None] = mapped_column(Text)
    worker: Mapped[str | None] = mapped_column(String(255))
    # role -> list of {name, address, ports} actually used.
    hosts: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict)
    tool_versions: Mapped[dict[str, str]] = mapped_column(JSONB, default=dict)
    # Every command line started on a host, in order, exactly as run.
    commands: Mapped[list[dict[str, Any]]] = mapped_column(JSONB, default=list)
    artifact_dir: Mapped[str | None] = mapped_column(String(1024))
    # Refreshed by the executing worker every few seconds; a stale one means the worker died
    # and the run may be re-queued.
    heartbeat_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The queue message of a queued run (README "Recovery"): `dispatch` numbers the message
    # last sent for it (a message carrying another number is stale and dropped); `sent_at` is
    # when it went to the broker (None: not sent yet, Start's background task sends it);
    # `held_by` (host:pid) is the worker process that received it and `due_at` when that
    # worker will run it (a countdown retry waits in the worker, unacked, until then).
    # Recovery judges a queued run by these, never by the broker's unacked messages.
    dispatch: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    held_by: Mapped[str | None] = mapped_column(String(255))
    due_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Seconds per phase of the last attempt (preflight, start, populate, warmup, run, stop,
    # fetch, parse, store): where the wall time beyond the run time goes.
    phase_timings: Mapped[dict[str, float]] = mapped_column(
        JSONB, default=dict, server_default=text("'{}'::jsonb")
    )
    # Quality flags of the results in use, computed at ingest (backend/quality; migration
    # 0023): {"flags", "not_measured", "expects_no_misses", "tool_errors"}. None: not computed.
    quality: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    # The attempt whose results are stored (None: none yet). Results read every run that has
    # some, so while a re-run is queued or after it failed the older successful attempt counts.
    results_attempt: Mapped[int | None] = mapped_column(Integer)

    configuration: Mapped[Configuration] = relationship()
