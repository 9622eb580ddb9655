"""Watching a run while the load generators work: cancel/lost checks, liveness, live progress."""

import time
from collections.abc import Callable
from dataclasses import dataclass

from backend.models import Experiment
from worker.drivers.errors import DriverError, ProcessDiedError
from worker.drivers.host import Host, RemoteProcess, program_name
from worker.drivers.loadgen import LoadGenerator
from worker.live import publish
from worker.live.total import LiveCombiner, LiveTotal
from worker.parsers import ProgressParser

POLL_S = 1.0
# Once the run time is over, poll quicker: the load generators are about to exit.
END_POLL_S = 0.1
LOADGEN_GRACE_S = 60
EARLY_EXIT_SLACK_S = 2.0


@dataclass
class Started:
    """A process the run started: its role ("server", "middleware", "populate", "client")."""

    role: str
    source: str
    proc: RemoteProcess
    local_start: float
    stopped: bool = False
    # Where to connect after SIGTERM so the process notices it at once (Host.stop_in_order).
    wake: tuple[str, int] | None = None
    # A server left running for the next run (worker.runs.kept): the run's stop skips it.
    keep: bool = False


def _describe(st: Started) -> str:
    return f"{st.source} ({program_name(st.proc.argv)} on {st.proc.host.label})"


def _poll(
    started: list[Started], clients: list[Started], suffix: str, offsets: dict[str, int]
) -> tuple[set[tuple[Host, int]], dict[str, bytes]]:
    """Live PIDs, new progress bytes and the clients' exit codes ("rc:<source>", empty while
    running), in one round trip per host."""
    by_host: dict[Host, tuple[list[int], dict[str, tuple[str, int]]]] = {}
    for st in started:
        by_host.setdefault(st.proc.host, ([], {}))[0].append(st.proc.pid)
    for st in clients:
        by_host[st.proc.host][1][st.source] = (st.proc.path(suffix), offsets[st.source])
        by_host[st.proc.host][1][f"rc:{st.source}"] = (st.proc.path("rc"), 0)
    alive: set[tuple[Host, int]] = set()
    data: dict[str, bytes] = {}
    for host, (pids, files) in by_host.items():
        pids_alive, chunks = host.poll(pids, files)
        alive |= {(host, pid) for pid in pids_alive}
        data |= chunks
    return alive, data


def watch(
    started: list[Started],
    exp: Experiment,
    run_id: int,
    loadgen: type[LoadGenerator],
    check: Callable[[], None],
) -> None:
    """Until every load generator exits; raises naming the process that failed. `check`
    raises when the run must end early (cancelled, lost, testbed lock lost)."""
    clients = [st for st in started if st.role == "client"]
    services = [st for st in started if st.role in ("server", "middleware")]
    parsers: dict[str, ProgressParser] = {
        st.source: loadgen(st.proc.host).progress_parser() for st in clients
    }
    offsets = {st.source: 0 for st in clients}
    live = LiveCombiner(tuple(st.source for st in clients))

    def send(totals: list[LiveTotal]) -> None:
        for t in totals:
            publish.progress(
                exp.id,
                run_id,
                "clients",
                t.elapsed_s,
                t.ops_per_sec,
                t.mean_latency_us,
                exp.run_time_s,
                t.instances,
            )

    deadline = time.monotonic() + exp.run_time_s + LOADGEN_GRACE_S
    ended: dict[str, float] = {}
    codes: dict[str, int] = {}
    while True:
        check()
        alive, data = _poll(started, clients, loadgen.progress_suffix, offsets)
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
                send(live.add(st.source, tick))
            written = data.get(f"rc:{st.source}", b"").strip()
            # The exit code is written just after the tool exits: ended once it is there.
            if (st.proc.host, st.proc.pid) not in alive and written and st.source not in ended:
                ended[st.source] = time.time()
                codes[st.source] = int(written) if written.lstrip(b"-").isdigit() else -1
                send(live.end(st.source))
        if len(ended) == len(clients):
            break
        if time.monotonic() > deadline:
            raise DriverError(
                f"load generators still running {LOADGEN_GRACE_S} s after the run time"
            )
        # Progress once a second during the run; at its end, notice the exit at once.
        expected_end = max(st.local_start for st in clients) + exp.run_time_s
        time.sleep(min(POLL_S, max(END_POLL_S, expected_end - time.time())))
    for st in clients:
        rc = codes[st.source]
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
