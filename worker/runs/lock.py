"""One run at a time per testbed: a PostgreSQL session advisory lock held on its own connection.

If the worker dies, its connection closes and PostgreSQL releases the lock by itself. If
PostgreSQL restarts (or the connection drops), the lock is gone while the run goes on:
`TestbedLock.held()` asks the server, and the run's heartbeat calls it to notice.
"""

import logging
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Connection, text
from sqlalchemy.exc import SQLAlchemyError

from backend.core.db import engine
from worker.runs.testbed import LOCK_NAMESPACE

logger = logging.getLogger(__name__)


class TestbedLock:
    """The lock's connection; `acquired` says whether pg_try_advisory_lock gave it to us."""

    __test__ = False  # not a pytest class

    def __init__(self, conn: Connection, key: int, acquired: bool) -> None:
        self.conn = conn
        self.key = key
        self.acquired = acquired

    def backend_pid(self) -> int:
        return int(self.conn.execute(text("SELECT pg_backend_pid()")).scalar_one())

    def held(self) -> bool:
        """True while this connection still holds the lock (False once it dropped)."""
        try:
            got = self.conn.execute(
                text(
                    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted "
                    "AND pid = pg_backend_pid() AND classid = :ns AND objid = :key"
                ),
                {"ns": LOCK_NAMESPACE, "key": self.key},
            ).scalar_one()
            self.conn.commit()
        except SQLAlchemyError as exc:
            logger.warning("testbed_lock.connection_lost", extra={"error": str(exc)})
            return False
        return bool(got)


@contextmanager
def testbed_lock(testbed_key: int) -> Iterator[TestbedLock]:
    """Yields the lock, `acquired` True when this process holds the testbed; never blocks."""
    conn = engine.connect()
    try:
        got = bool(
            conn.execute(
                text("SELECT pg_try_advisory_lock(:ns, :key)"),
                {"ns": LOCK_NAMESPACE, "key": testbed_key},
            ).scalar()
        )
        conn.commit()
        lock = TestbedLock(conn, testbed_key, got)
        try:
            yield lock
        finally:
            if got:
                try:
                    conn.execute(
                        text("SELECT pg_advisory_unlock(:ns, :key)"),
                        {"ns": LOCK_NAMESPACE, "key": testbed_key},
                    )
                    conn.commit()
                except SQLAlchemyError:  # the connection (and with it the lock) is already gone
                    conn.invalidate()
    finally:
        conn.close()
