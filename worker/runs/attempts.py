"""A testbed is never shared by two attempts: each attempt is a run_attempts row, and a run
starts only once every other attempt on its testbed is proven gone.

The testbed lock alone is not enough: it lives on a database connection, so a worker process
killed mid-run releases it at once while its memcached, middleware and load generators run on
(a reviewer measured a next run starting 1.0 s later, its first seconds at 7.3k-11k ops/s
against 13-15.4k after). So, holding the lock:

1. `clear_testbed`, before the claim: for every attempt on the testbed not yet cleared, if its
   worker may still be executing it (not finished, and not dead by recovery's rule: same host
   and its process gone, or a heartbeat older than STALE_AFTER_S), the testbed is busy (the run
   is retried later; that attempt ends soon: it has lost its lock or its run). Otherwise its
   processes are stopped and proven gone on each of its hosts (worker.drivers.sweep: by working
   directory and by recorded PID + start time, SIGTERM, SIGKILL, waited for), and it is
   cleared. Kept memcached servers (kept_servers rows) belong to the testbed, not to the
   attempt that started them: they are left to `kept.adopt`, which takes or stops them.
2. `begin`, after the claim: this attempt's row; `record_hosts`, before its first process
   starts: the hosts it will start processes on.
3. `check_undisturbed`, when the load has ended: an attempt of another run or attempt that was
   not cleared before this one began, or began since, may have had processes on the testbed
   during the load; the run's results are then not stored (TestbedDisturbed: the run is retried
   like a transient failure, and fails saying why after MAX_ATTEMPTS).
4. `end`, on every way out: the attempt sweeps its own processes (kept servers excepted) and
   marks itself finished, and cleared when none is left; otherwise the next run proves them gone.
"""

import logging
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import timedelta

from sqlalchemy import func, insert, or_, select, update
from sqlalchemy.orm import Session

from backend.core.processes import owner_dead
from backend.models import KeptServer, Run, RunAttempt
from worker.drivers.errors import DriverError
from worker.drivers.host import HostSpec
from worker.drivers.pool import host_for, on_each
from worker.drivers.sweep import Swept, sweep
from worker.runs.context import RunContext, host_entry
from worker.runs.lifecycle import worker_identity
from worker.runs.recovery import STALE_AFTER_S, spec_of
from worker.runs.testbed import TestbedLayout

logger = logging.getLogger(__name__)

# A cleared attempt's processes get this long after SIGTERM (their outputs are not used).
SWEEP_GRACE_S = 2.0


class TestbedBusy(Exception):
    """Another attempt may still run processes on the testbed; the run waits and retries."""

    __test__ = False  # not a pytest class


class TestbedDisturbed(Exception):
    """Another attempt may have had processes on the testbed during this run's load."""

    __test__ = False  # not a pytest class


@dataclass
class _HostSweep:
    workdirs: list[str] = field(default_factory=list)
    recorded: list[tuple[int, int]] = field(default_factory=list)
    exclude: set[tuple[int, int | None]] = field(default_factory=set)


def _host_key(spec: HostSpec) -> tuple[str, int]:
    return spec.address, spec.port


def _exclude(
    plan: dict[HostSpec, _HostSweep], kept: list[tuple[HostSpec, int, int | None]]
) -> None:
    """Leave kept servers running. With its start time, a kept server is left alone on every
    host (hosts may share one machine's PIDs, as test namespaces do; the pair names one
    process); without one (recorded before start times were), by PID on its own host only."""
    for spec, pid, ticks in kept:
        for other, p in plan.items():
            if ticks is not None:
                p.exclude.add((pid, ticks))
            elif _host_key(other) == _host_key(spec):
                p.exclude.add((pid, None))


def _sweep_all(plan: dict[HostSpec, _HostSweep]) -> Swept:
    """Sweep every host at once; the PIDs found and left, over all hosts."""
    specs = list(plan)

    def one(spec: HostSpec) -> Swept:
        p = plan[spec]
        return sweep(host_for(spec), p.workdirs, p.recorded, p.exclude, SWEEP_GRACE_S)

    results = on_each(specs, one)
    return Swept(
        [pid for r in results for pid in r.found],
        [pid for r in results for pid in r.killed],
        [pid for r in results for pid in r.left],
    )


def clear_testbed(session: Session, layout: TestbedLayout) -> int:
    """Before a run on the testbed (its lock held): every other attempt there is cleared, or
    TestbedBusy says which is not. Returns how many attempts this call cleared."""
    stale_before = func.clock_timestamp() - timedelta(seconds=STALE_AFTER_S)
    rows = session.execute(
        select(RunAttempt, RunAttempt.heartbeat_at < stale_before)
        .where(RunAttempt.testbed_key == layout.lock_key, RunAttempt.cleared_at.is_(None))
        .order_by(RunAttempt.id)
    ).all()
    session.commit()
    if not rows:
        return 0
    for row, stale in rows:
        if row.finished_at is None and not stale and not owner_dead(row.worker):
            raise TestbedBusy(
                f"run {row.run_id} attempt {row.attempt} may still be running on testbed "
                f"{layout.name} (worker {row.worker})"
            )
    kept: list[tuple[HostSpec, int, int | None]] = []
    for command in session.scalars(
        select(KeptServer.command).where(KeptServer.testbed_key == layout.lock_key)
    ):
        try:
            ticks = command.get("start_ticks")
            kept.append(
                (spec_of(command), int(command["pid"]), int(ticks) if ticks is not None else None)
            )
        except (KeyError, TypeError, ValueError):
            continue
    plan: dict[HostSpec, _HostSweep] = defaultdict(_HostSweep)
    for row, _ in rows:
        for entry in row.hosts:
            plan[spec_of(entry)].workdirs.append(row.workdir)
        commands = session.scalar(select(Run.commands).where(Run.id == row.run_id)) or []
        for c in commands:
            if c.get("attempt") != row.attempt or c.get("start_ticks") is None:
                continue
            try:
                plan[spec_of(c)].recorded.append((int(c["pid"]), int(c["start_ticks"])))
            except (KeyError, TypeError, ValueError):  # its work directory is still swept
                continue
    session.commit()
    _exclude(plan, kept)
    try:
        swept = _sweep_all(plan)
    except DriverError as exc:
        raise TestbedBusy(f"could not make sure testbed {layout.name} is free: {exc}") from exc
    if swept.left:
        raise TestbedBusy(
            f"processes {swept.left} of an earlier attempt still run on testbed {layout.name}"
        )
    ids = [row.id for row, _ in rows]
    session.execute(
        update(RunAttempt)
        .where(RunAttempt.id.in_(ids), RunAttempt.cleared_at.is_(None))
        .values(
            cleared_at=func.clock_timestamp(),
            finished_at=func.coalesce(RunAttempt.finished_at, func.clock_timestamp()),
        )
    )
    session.commit()
    logger.warning(
        "testbed.cleared",
        extra={
            "testbed": layout.name,
            "attempts": [(row.run_id, row.attempt) for row, _ in rows],
            "stopped": swept.found,
        },
    )
    return len(rows)


def begin(ctx: RunContext) -> None:
    """This attempt's row (its hosts come with `record_hosts`, before its first process)."""
    row_id, started = ctx.session.execute(
        insert(RunAttempt)
        .values(
            run_id=ctx.run_id,
            attempt=ctx.attempt,
            testbed_key=ctx.layout.lock_key,
            workdir=ctx.workdir,
            hosts=[],
            worker=worker_identity(),
        )
        .returning(RunAttempt.id, RunAttempt.started_at)
    ).one()
    ctx.session.commit()
    ctx.attempt_row = (row_id, started)


def record_hosts(ctx: RunContext, hosts: list[HostSpec]) -> None:
    """Before the attempt starts a process: the hosts it will start them on (where its work
    directory must be swept). An attempt that ends before (a host unreachable at preflight)
    leaves nothing to sweep, so an unreachable host does not keep the testbed busy."""
    if ctx.attempt_row is None:
        return
    ctx.session.execute(
        update(RunAttempt)
        .where(RunAttempt.id == ctx.attempt_row[0])
        .values(hosts=[host_entry(s) for s in hosts])
    )
    ctx.session.commit()
    ctx.attempt_hosts = list(hosts)


def check_undisturbed(ctx: RunContext) -> None:
    """Raise TestbedDisturbed when another attempt may have had processes on the testbed
    since this one began: one not cleared before it, or one begun since."""
    if ctx.attempt_row is None:
        return
    row_id, started = ctx.attempt_row
    others = ctx.session.execute(
        select(RunAttempt.run_id, RunAttempt.attempt)
        .where(
            RunAttempt.testbed_key == ctx.layout.lock_key,
            RunAttempt.id != row_id,
            or_(RunAttempt.cleared_at.is_(None), RunAttempt.cleared_at > started),
        )
        .order_by(RunAttempt.id)
    ).all()
    ctx.session.commit()
    if others:
        which = ", ".join(f"run {r} attempt {a}" for r, a in others)
        raise TestbedDisturbed(
            f"testbed {ctx.layout.name} was disturbed: {which} may have had processes on it "
            "during this run's load, so its results were not stored"
        )


def end(ctx: RunContext) -> None:
    """The attempt is over: sweep its own processes (kept servers stay) and mark its row
    finished, and cleared when none is left. Never raises (it runs on every way out)."""
    if ctx.attempt_row is None:
        return
    plan: dict[HostSpec, _HostSweep] = defaultdict(_HostSweep)
    for spec in ctx.attempt_hosts:
        plan[spec].workdirs.append(ctx.workdir)
    kept: list[tuple[HostSpec, int, int | None]] = []
    for st in ctx.started:
        spec, pid, ticks = st.proc.host.spec, st.proc.pid, st.proc.start_ticks
        if st.keep:
            kept.append((spec, pid, ticks))
        elif ticks is not None:
            plan[spec].recorded.append((pid, ticks))
    _exclude(plan, kept)
    cleared = False
    if ctx.hosts_retired():  # finished, not cleared: the hosts go with their testbed
        logger.info("attempt.hosts_retired", extra={"run_id": ctx.run_id})
    else:
        try:
            swept = _sweep_all(plan)
            cleared = not swept.left
        except Exception as exc:  # the next run on the testbed proves them gone
            logger.warning("attempt.sweep_failed", extra={"run_id": ctx.run_id, "error": str(exc)})
    try:
        ctx.session.rollback()  # a failed transaction must not block this write
        now = func.clock_timestamp()
        ctx.session.execute(
            update(RunAttempt)
            .where(RunAttempt.id == ctx.attempt_row[0])
            .values(finished_at=now, cleared_at=now if cleared else None)
        )
        ctx.session.commit()
    except Exception:
        logger.exception("attempt.end_failed", extra={"run_id": ctx.run_id})
