"""One attempt at a run on a testbed: where its processes live and until when they may run.

Written (testbed lock held) before the attempt starts any process, so every process it may
start is findable: its work directory on the attempt's hosts, its PIDs in Run.commands. A run
starts on a testbed only once every other attempt there is cleared (worker.runs.attempts).
"""

from datetime import datetime
from typing import Any

from sqlalchemy import DateTime, ForeignKey, Index, Integer, String, func, text
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from backend.models.base import Base


class RunAttempt(Base):
    __tablename__ = "run_attempts"
    __table_args__ = (
        # The question asked before every run: which attempts on this testbed are not cleared.
        Index(
            "ix_run_attempts_uncleared",
            "testbed_key",
            postgresql_where=text("cleared_at IS NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    # Kept when the run is deleted: its processes must still be proven gone.
    run_id: Mapped[int | None] = mapped_column(
        ForeignKey("runs.id", ondelete="SET NULL"), index=True
    )
    attempt: Mapped[int] = mapped_column(Integer)
    # The testbed's lock key (0: the local testbed).
    testbed_key: Mapped[int] = mapped_column(Integer)
    # The same path on every host of the attempt; every tool is started from it.
    workdir: Mapped[str] = mapped_column(String(1024))
    # The hosts it may start processes on, as Run.commands records a host.
    hosts: Mapped[list[dict[str, Any]]] = mapped_column(JSONB)
    # host:pid of the executing worker process, and its heartbeat (as on the run).
    worker: Mapped[str] = mapped_column(String(255))
    started_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.clock_timestamp()
    )
    heartbeat_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.clock_timestamp()
    )
    # The executing worker is done with it (or was found dead): it starts nothing more.
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Proven: none of its processes runs any more (kept servers excepted: the testbed's).
    cleared_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # A successful attempt's window means and quality flags (worker.runs.store), kept when a
    # later attempt replaces its results, so the run page lists every attempt.
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
