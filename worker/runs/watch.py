"""Watching a run while the load generators work: heartbeat, cancel, liveness, live progress."""

import time
from typing import TYPE_CHECKING

from worker.drivers.errors import DriverError, ProcessDiedError
from worker.drivers.host import Host, program_name
from worker.drivers.loadgen import LoadGenerator
from worker.live import publish
from worker.parsers.progress import MemaslapProgressParser, MemtierProgressParser
from worker.runs.plan import RunPlan

if TYPE_CHECKING:
    from worker.runs.pipeline import RunExecution, Started

POLL_S = 1.0
LOADGEN_GRACE_S = 60
EARLY_EXIT_SLACK_S = 2.0


def _describe(st: "Started") -> str:
    return f"{st.source} ({program_name(st.proc.argv)} on {st.proc.host.label})"


def _poll(
    run: "RunExecution", clients: list["Started"], suffix: str, offsets: dict[str, int]
) -> tuple[set[tuple[Host, int]], dict[str, bytes]]:
    """Live PIDs and new progress bytes, in one round trip per host."""
    by_host: dict[Host, tuple[list[int], dict[str, tuple[str, int]]]] = {}
    for st in run.started:
        by_host.setdefault(st.proc.host, ([], {}))[0].append(st.proc.pid)
    for st in clients:
        by_host[st.proc.host][1][st.source] = (st.proc.path(suffix), offsets[st.source])
    alive: set[tuple[Host, int]] = set()
    data: dict[str, bytes] = {}
    for host, (pids, files) in by_host.items():
        pids_alive, chunks = host.poll(pids, files)
        alive |= {(host, pid) for pid in pids_alive}
        data |= chunks
    return alive, data


def watch(run: "RunExecution", plan: RunPlan, loadgen: type[LoadGenerator]) -> None:
    """Until every load generator exits; raises naming the process that failed."""
    exp = run.experiment
    clients = [st for st in run.started if st.role == "client"]
    services = [st for st in run.started if st.role in ("server", "middleware")]
    parsers: dict[str, MemaslapProgressParser | MemtierProgressParser] = {
        st.source: loadgen(st.proc.host).progress_parser() for st in clients
    }
    offsets = {st.source: 0 for st in clients}
    deadline = time.monotonic() + exp.run_time_s + LOADGEN_GRACE_S
    ended: dict[str, float] = {}
    while True:
        run._beat()
        alive, data = _poll(run, clients, loadgen.progress_suffix, offsets)
        for st in services:
            if (st.proc.host, st.proc.pid) not in alive:
                raise ProcessDiedError(
                    f"{_describe(st)} exited during the run: "
                    f"{st.proc.host.tail(st.proc.path('err')) or 'no message on stderr'}"
                )
        for st in clients:
            chunk = data.get(st.source, b"")
            offsets[st.source] += len(chunk)
            for tick in parsers[st.source].feed(chunk):
                publish.progress(
                    exp.id,
                    run.run_id,
                    st.source,
                    tick.elapsed_s,
                    tick.ops_per_sec,
                    tick.mean_latency_us,
                    exp.run_time_s,
                )
            if (st.proc.host, st.proc.pid) not in alive and st.source not in ended:
                ended[st.source] = time.time()
        if len(ended) == len(clients):
            break
        if time.monotonic() > deadline:
            raise DriverError(
                f"load generators still running {LOADGEN_GRACE_S} s after the run time"
            )
        time.sleep(POLL_S)
    for st in clients:
        rc = st.proc.host.exit_code(st.proc)
        if rc != 0:
            raise ProcessDiedError(
                f"{_describe(st)} exited with code {rc}: "
                f"{st.proc.host.tail(st.proc.path('err')) or 'no message on stderr'}"
            )
        ran = ended[st.source] - st.local_start
        if ran < exp.run_time_s - EARLY_EXIT_SLACK_S:
            raise ProcessDiedError(
                f"{_describe(st)} exited early, after {ran:.1f} s of {exp.run_time_s} s: "
                f"{st.proc.host.tail(st.proc.path('err')) or 'no message on stderr'}"
            )
