"""Reading testbed hosts' SSH keys in the background, never inside a request.

A registration or a re-pin marks its hosts ("pinning": pin the key read, as registration did;
"scanning": only read it, for the user to confirm) and hands them here; the request answers at
once. At most `settings.SSH_KEYSCAN_CONCURRENCY` reads run at a time, on threads of their own
(not the server's thread pool, which serves requests), each holding its slot for at most
`SSH_KEYSCAN_TIMEOUT_S`; an address:port is read once for every host waiting on it. The
result lands on the hosts (`scan_status`, `scan_error`, `scanned_key`), which the Testbeds
page polls. Hosts still marked when the API stops are read again when it starts (`resume`).

Waiting reads are taken fairly (backend.core.fair_queue): owners (the token's name) in turn,
each owner's registrations (testbeds) in turn. Every slot frees within SSH_KEYSCAN_TIMEOUT_S,
so a new owner's first read starts within ceil((k + 1) / SSH_KEYSCAN_CONCURRENCY) timeouts,
k the owners waiting before it, however many hosts they queued (20 owners, 16 slots of 5 s:
10 s). A new registration of an owner already waiting gets that owner's turn after each of
the owner's registrations ahead of it has had one.
"""

import logging
import threading
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

from sqlalchemy import select

from backend.core.config import settings
from backend.core.db import SessionLocal
from backend.core.fair_queue import FairQueue
from backend.core.host_keys import HostKeyScanError, scan_host_key
from backend.models import Host

logger = logging.getLogger(__name__)

PINNING = "pinning"
SCANNING = "scanning"
READ = "read"
FAILED = "failed"
UNDER_WAY = (PINNING, SCANNING)

Target = tuple[str, int]


class HostKeyScanner:
    """A bounded pool of key reads, taken fairly across owners and registrations; hosts
    waiting on the same address:port share one read."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None
        self._waiting: dict[Target, set[int]] = {}
        self._queue: FairQueue[Target] = FairQueue()

    def submit(self, hosts: Iterable[Host], owner: str | None = None) -> None:
        """Read the keys of `hosts` (committed, marked PINNING or SCANNING) in the background,
        in the turn of `owner` (None: authentication off, or hosts resumed) and of each
        host's testbed."""
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(
                    max_workers=settings.SSH_KEYSCAN_CONCURRENCY, thread_name_prefix="keyscan"
                )
            for host in hosts:
                target = (host.address, host.ssh_port)
                if target not in self._waiting:
                    self._waiting[target] = set()
                    self._queue.put(owner, host.testbed_id, target)
                    # One job per queued target; which target a job reads is decided when a
                    # slot takes it, so a later owner's read can go before an earlier backlog.
                    self._pool.submit(self._read_next)
                self._waiting[target].add(host.id)

    def resume(self) -> None:
        """Read again the hosts a stopped API left marked (their owners are not kept: one
        turn for them all, each testbed in turn within it)."""
        with SessionLocal() as session:
            hosts = session.scalars(select(Host).where(Host.scan_status.in_(UNDER_WAY))).all()
            self.submit(hosts)

    def in_flight(self) -> int:
        """Address:port pairs being read or waiting for a thread."""
        with self._lock:
            return len(self._waiting)

    def close(self) -> None:
        """Drop the reads not started (their hosts stay marked, for `resume`)."""
        with self._lock:
            pool, self._pool = self._pool, None
            self._waiting.clear()
            self._queue.clear()
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def _read_next(self) -> None:
        with self._lock:
            target = self._queue.take()
        if target is not None:  # None: closed since this job was queued
            self._read(target)

    def _read(self, target: Target) -> None:
        key: str | None = None
        error: str | None = None
        try:
            key = scan_host_key(*target)
        except HostKeyScanError as exc:
            error = str(exc)
        except Exception:  # a bug must not leave the hosts marked forever
            logger.exception("host key scan of %s:%s failed", *target)
            error = f"no SSH host key could be read from {target[0]}:{target[1]}"
        with self._lock:
            ids = self._waiting.pop(target, set())
        try:
            record(ids, key, error)
        except Exception:
            logger.exception("host key scan of %s:%s: result not stored", *target)


def record(host_ids: Iterable[int], key: str | None, error: str | None) -> None:
    """Store a read's result on the hosts still waiting for it; a host marked PINNING and not
    pinned meanwhile is pinned to the key read."""
    ids = sorted(host_ids)
    if not ids:
        return
    now = datetime.now(UTC)
    with SessionLocal() as session:
        hosts = session.scalars(
            select(Host).where(Host.id.in_(ids), Host.scan_status.in_(UNDER_WAY)).with_for_update()
        ).all()
        for host in hosts:
            if key is not None and host.scan_status == PINNING and host.host_key is None:
                host.host_key, host.host_key_source, host.host_key_pinned_at = key, "scanned", now
            host.scan_status = READ if key is not None else FAILED
            host.scanned_key, host.scan_error, host.scanned_at = key, error, now
        session.commit()


scanner = HostKeyScanner()
