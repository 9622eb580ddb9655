"""A memcached server left running after a run for the next run on the same testbed.

The row is the durable record that lets anyone stop it by PID: the next run on the testbed
adopts or stops it, and the recovery task stops it when no run took it in time (the worker
died between runs, or the runs it was kept for were cancelled).
"""

from datetime import datetime
from typing import Any

from sqlalchemy import DateTime, Integer, String, func
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from backend.models.base import Base


class KeptServer(Base):
    __tablename__ = "kept_servers"

    id: Mapped[int] = mapped_column(primary_key=True)
    # The testbed's lock key (0: the local testbed): only the lock holder touches the row.
    testbed_key: Mapped[int] = mapped_column(Integer, index=True)
    # What the server is (host, memory, value size, key space): a run adopts it only if equal.
    identity: Mapped[str] = mapped_column(String(1024))
    # The command entry as recorded on the run that started it (host, argv, pid, ...).
    command: Mapped[dict[str, Any]] = mapped_column(JSONB)
    kept_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
