"""memcached servers kept across runs on one testbed, flushed before each run.

The rule (what state a run starts from). Repetitions are comparable only if every run starts
from the same server state, whatever ran before it: runs are queued repetition-major (every
configuration's first repetition, then the second...), so the run before is usually another
configuration, with another read/write mix. A kept server still holds what that run wrote, in
its order (LRU, slab use); skipping flush and populate would make the start state depend on
the run order, and on that run having ended cleanly. So a kept server is always flushed
(`flush_all`: every item invalid) and, when the run reads, populated again with the run's key
space: the same state as a fresh server after its populate (same items, same bytes, checked
in worker/tests/drivers/test_populate.py), and populate costs milliseconds
(worker.drivers.memtier). A write-only run starts from an empty server as before. What a kept
server saves is starting and stopping memcached.

A server is kept only when the run succeeded and the next queued run of its experiment needs
an identical one (same host, memory, value size and key space): `identity`. Otherwise, and on
every failure, cancel or loss, it is stopped with the run's other processes.

Never leaked, stopped by PID: a kept server is a row of kept_servers (written before the run
is final) while no run owns it, and a command of the run that owns it (recorded before the
row is deleted), so recovery stops it if that worker dies. The next run on the testbed
(holding the testbed lock) adopts or stops every row; rows nobody took within KEEP_IDLE_S
(worker died between runs, the runs were cancelled) are stopped by the recovery task.
"""

import json
import logging
from datetime import timedelta
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from backend.domain.grid import effective_parameters
from backend.models import KeptServer, Run, RunStatus
from worker.drivers.errors import DriverError
from worker.drivers.host import HostSpec, RemoteProcess
from worker.drivers.memcached import memory_mb
from worker.runs.context import RunContext, command_entry
from worker.runs.lock import testbed_lock
from worker.runs.recovery import spec_of, stop_recorded
from worker.runs.stop import stop_started

logger = logging.getLogger(__name__)

# Kept servers no run took within this are stopped by the recovery task.
KEEP_IDLE_S = 30.0
# Parameters that make a server what it is (with its host); the rest can change between runs.
SERVER_PARAMETERS = ("servers", "value_size", "key_maximum")


def identity(host: HostSpec, params: dict[str, Any], as_root: bool) -> str:
    """What a server is: a kept one is adopted only by a planned server with the same."""
    return json.dumps(
        {
            "host": [host.name, host.address, host.user, host.port],
            "memory_mb": memory_mb(int(params["key_maximum"]), int(params["value_size"])),
            "value_size": int(params["value_size"]),
            "key_maximum": int(params["key_maximum"]),
            "as_root": as_root,
        },
        sort_keys=True,
    )


def adopt(ctx: RunContext, identities: dict[int, str]) -> dict[int, int]:
    """At the start of a run (testbed lock held): each kept server of the testbed is taken by
    a planned server of the same identity if it still runs its memcached, else stopped. The
    taken ones are recorded as this run's commands, then every row is deleted. Returns the
    taken servers' ports by plan index."""
    rows = ctx.session.scalars(
        select(KeptServer)
        .where(KeptServer.testbed_key == ctx.layout.lock_key)
        .order_by(KeptServer.id)
    ).all()
    if not rows:
        return {}
    ports: dict[int, int] = {}
    leftover: list[dict[str, Any]] = []
    for row in rows:
        index = next(
            (i for i, ident in identities.items() if ident == row.identity and i not in ports),
            None,
        )
        proc = _running(ctx, row.command) if index is not None else None
        if index is None or proc is None:
            leftover.append(row.command)
            continue
        ports[index] = int(row.command["port"])
        ctx.adopted[index] = proc
        wake = (proc.host.spec.address, ports[index])
        ctx.launched("server", f"server:{index}", proc, wake=wake, kept=True)
    ctx.session.execute(delete(KeptServer).where(KeptServer.id.in_([r.id for r in rows])))
    ctx.session.commit()
    stop_recorded(leftover, {"run_id": ctx.run_id})
    return ports


def _running(ctx: RunContext, entry: dict[str, Any]) -> RemoteProcess | None:
    """The kept server as a process of this run, if its PID still runs the same command."""
    try:
        spec = spec_of(entry)
        argv = [str(a) for a in entry["argv"]]
        pid = int(entry["pid"])
    except (KeyError, TypeError, ValueError):
        return None
    if spec not in ctx.hosts:  # a host this run does not use
        return None
    host = ctx.host(spec)
    try:
        args = host.run(f"ps -o args= -p {pid} || true").strip()
    except DriverError:
        return None
    if args != " ".join(argv):
        return None
    ticks = entry.get("start_ticks")
    return RemoteProcess(
        host,
        str(entry["name"]),
        str(entry["workdir"]),
        pid,
        float(entry["started_unix"]),
        argv,
        int(ticks) if ticks is not None else None,
    )


def next_run_wants(ctx: RunContext) -> bool:
    """True when the next queued run of this experiment needs the same servers."""
    nxt = ctx.session.scalars(
        select(Run)
        .where(
            Run.experiment_id == ctx.experiment.id,
            Run.status == RunStatus.QUEUED,
            Run.id != ctx.run_id,
        )
        .order_by(Run.id)
        .limit(1)
    ).first()
    if nxt is None:
        return False
    params = effective_parameters(nxt.configuration.values, ctx.experiment.fixed)
    return all(params[k] == ctx.params[k] for k in SERVER_PARAMETERS)


def mark_kept(ctx: RunContext) -> None:
    """Leave the servers running when the run ends (its stop skips them)."""
    for st in ctx.started:
        if st.role == "server" and not st.stopped:
            st.keep = True


def save_kept(ctx: RunContext) -> None:
    """Write the kept servers' rows, before the run is final: from then on a row or a running
    run (or both) records each of them."""
    rows = []
    for st in ctx.started:
        if not st.keep:
            continue
        index = int(st.source.split(":")[1])
        entry = command_entry(st.role, st.source, st.proc)
        entry |= {"name": st.proc.name, "port": st.wake[1] if st.wake else None}
        rows.append(
            KeptServer(
                testbed_key=ctx.layout.lock_key,
                identity=ctx.server_identity[index],
                command=entry,
            )
        )
    ctx.session.add_all(rows)
    ctx.session.commit()
    ctx.kept_rows = [r.id for r in rows]


def release_kept(ctx: RunContext) -> None:
    """The run failed after marking its servers kept: stop them and forget their rows."""
    if ctx.kept_rows:
        ctx.session.rollback()
        ctx.session.execute(delete(KeptServer).where(KeptServer.id.in_(ctx.kept_rows)))
        ctx.session.commit()
        ctx.kept_rows = []
    for st in ctx.started:
        st.keep = False
    if not ctx.hosts_retired():  # they go with their testbed
        stop_started(ctx.started, ctx.run_id)


def reap_idle(session: Session, idle_s: float = KEEP_IDLE_S) -> int:
    """Stop kept servers no run took within idle_s, by PID; a testbed whose lock is held (a
    run is on it and will take or stop them) is left alone. Returns how many were stopped."""
    cutoff = func.now() - timedelta(seconds=idle_s)
    keys = set(session.scalars(select(KeptServer.testbed_key).where(KeptServer.kept_at <= cutoff)))
    session.commit()
    stopped = 0
    for key in sorted(keys):
        with testbed_lock(key) as lock:
            if not lock.acquired:
                continue
            rows = session.scalars(
                select(KeptServer).where(
                    KeptServer.testbed_key == key, KeptServer.kept_at <= cutoff
                )
            ).all()
            stop_recorded([r.command for r in rows], {"testbed_key": key})
            session.execute(delete(KeptServer).where(KeptServer.id.in_([r.id for r in rows])))
            session.commit()
            stopped += len(rows)
            logger.info("kept_servers.reaped", extra={"testbed_key": key, "count": len(rows)})
    return stopped
