"""One run at a time per testbed: a PostgreSQL session advisory lock held on its own connection.

If the worker dies, its connection closes and PostgreSQL releases the lock by itself.
"""

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import text

from backend.core.db import engine
from worker.runs.testbed import LOCK_NAMESPACE


@contextmanager
def testbed_lock(testbed_key: int) -> Iterator[bool]:
    """Yields True when this process holds the testbed; never blocks."""
    conn = engine.connect()
    try:
        got = bool(
            conn.execute(
                text("SELECT pg_try_advisory_lock(:ns, :key)"),
                {"ns": LOCK_NAMESPACE, "key": testbed_key},
            ).scalar()
        )
        conn.commit()
        try:
            yield got
        finally:
            if got:
                conn.execute(
                    text("SELECT pg_advisory_unlock(:ns, :key)"),
                    {"ns": LOCK_NAMESPACE, "key": testbed_key},
                )
                conn.commit()
    finally:
        conn.close()
