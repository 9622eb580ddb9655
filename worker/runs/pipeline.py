"""The run pipeline: preflight, start servers, populate, middlewares, load generators, watch,
stop by PID, fetch every output, parse, and store in one transaction.

Raises DriverError / ParseError (the run fails with that message), RunCancelled, RunLost or
LockLost; whatever happens, every process it started is stopped and raw files are archived
(or, when archiving fails, kept on the host). The wall time of each phase is recorded on the
run (Run.phase_timings).
"""

import logging
import random
import shlex
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from sqlalchemy.orm import Session

from backend.core.run_files import run_archive_dir
from backend.domain.grid import effective_parameters
from backend.models import Experiment, Run
from worker.drivers.errors import ArchiveError, DriverError, ProcessDiedError
from worker.drivers.host import LOCAL_DISK_FULL, STOP_GRACE_S, Host, HostSpec, RemoteProcess
from worker.drivers.loadgen import POPULATE_TIMEOUT_S, LoadGenerator
from worker.drivers.memcached import MemcachedDriver
from worker.drivers.middleware import STATS_GRACE_S, MiddlewareDriver
from worker.drivers.pool import host_for, on_each
from worker.drivers.registry import populator
from worker.live import publish
from worker.parsers import ParseError, parse_middleware_dir
from worker.runs import lifecycle
from worker.runs.heartbeat import Heartbeat, RunLost
from worker.runs.launch import Launch, launch_on_hosts, wait_listening
from worker.runs.plan import ClientPlan, MiddlewarePlan, RunPlan, ServerPlan, build_plan
from worker.runs.preflight import (
    HostFacts,
    check_tools,
    choose_load_generator,
    free_port,
    inspect_host,
    probe_host,
)
from worker.runs.store import store_results
from worker.runs.summarize import ResultRows, StableWindow, client_rows, middleware_rows
from worker.runs.testbed import TestbedLayout
from worker.runs.watch import Started, watch

logger = logging.getLogger(__name__)

# Waiting for a process to end is one remote loop this long, then a cancel check.
WAIT_SLICE_S = 5.0
# The phases whose wall time is recorded on each run, in pipeline order.
PHASES = (
    "preflight",
    "start",
    "populate",
    "warmup",
    "run",
    "stop",
    "fetch",
    "parse",
    "store",
)


class RunExecution:
    """One attempt at one run. `execute()` returns True when results were stored."""

    def __init__(
        self,
        session: Session,
        run: Run,
        experiment: Experiment,
        layout: TestbedLayout,
        attempt: int,
        heartbeat: Heartbeat,
    ) -> None:
        self.session = session
        self.heartbeat = heartbeat
        self.run_id = run.id
        self.experiment = experiment
        self.attempt = attempt
        self.layout = layout
        self.params: dict[str, Any] = effective_parameters(
            run.configuration.values, experiment.fixed
        )
        # The token keeps two databases (e.g. concurrent test sessions) that both have a run 1
        # from sharing a work or archive directory on the same machine.
        token = uuid.uuid4().hex[:8]
        self.workdir = f"{layout.workroot}/run-{run.id}-a{attempt}-{token}"
        self.archive_root = run_archive_dir(run.id)
        self.archive = self.archive_root / f"attempt-{attempt}-{token}"
        self.hosts: dict[HostSpec, Host] = {}
        self.started: list[Started] = []
        self.fetched = False
        self.keep_on_hosts = False
        self.timings: dict[str, float] = {}

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        """Add the wall time of the block to phase `name`."""
        start = time.monotonic()
        try:
            yield
        finally:
            self.timings[name] = self.timings.get(name, 0.0) + time.monotonic() - start

    # ------------------------------------------------------------------ helpers

    def host(self, spec: HostSpec) -> Host:
        if spec not in self.hosts:
            self.hosts[spec] = host_for(spec)  # the connection kept from the previous run
        return self.hosts[spec]

    def _record(self, **values: Any) -> None:
        if not lifecycle.record(self.session, self.run_id, self.attempt, **values):
            raise RunLost()

    def _check(self) -> None:
        """Raise what the heartbeat thread found (lost, lock lost, cancelled)."""
        self.heartbeat.check()

    def _launched(
        self, role: str, source: str, proc: RemoteProcess, wake: tuple[str, int] | None = None
    ) -> None:
        self.started.append(Started(role, source, proc, time.time(), wake=wake))
        spec = proc.host.spec
        lifecycle.append_command(
            self.session,
            self.run_id,
            self.attempt,
            {
                "role": role,
                "source": source,
                "host": spec.name,
                "address": spec.address,
                "ssh_user": spec.user,
                "ssh_port": spec.port,
                "key_path": spec.key_path,
                "command": shlex.join(proc.argv),
                "argv": proc.argv,
                "pid": proc.pid,
                "started_unix": proc.start_unix,
                "workdir": proc.workdir,
            },
        )

    # ------------------------------------------------------------------ steps

    def prepare(self) -> tuple[RunPlan, type[LoadGenerator]]:
        self._record(artifact_dir=str(self.archive_root))
        lay, p = self.layout, self.params
        used = (
            list(lay.servers[: p["servers"]])
            + list(lay.middlewares[: p["middlewares"]])
            + list(lay.clients[: p["client_machines"]])
        )
        roles = {
            "server": set(lay.servers[: p["servers"]]),
            "middleware": set(lay.middlewares[: p["middlewares"]]),
            "client": set(lay.clients[: p["client_machines"]]),
        }

        def look(spec: HostSpec) -> tuple[HostFacts, dict[str, str | None]]:
            host = self.host(spec)
            facts = inspect_host(host, self.workdir)
            found = probe_host(
                host,
                server=spec in roles["server"],
                middleware=spec in roles["middleware"],
                client=spec in roles["client"],
                middleware_binary=lay.middleware_binary,
            )
            return facts, found

        # Two round trips per host, all hosts at once.
        specs = list(dict.fromkeys(used))
        looked = dict(zip(specs, on_each(specs, look), strict=True))
        facts = {s: f for s, (f, _) in looked.items()}
        found = {self.host(s): v for s, (_, v) in looked.items()}
        clients = [self.host(s) for s in dict.fromkeys(lay.clients[: p["client_machines"]])]
        loadgen = choose_load_generator(p["load_generator"], clients, found)
        rng = random.Random()
        plan = build_plan(
            p,
            lay,
            loadgen.tool_name,
            self.experiment.run_time_s,
            lambda spec: free_port(facts[spec], rng),
        )
        versions = check_tools(plan, self.hosts, loadgen, found)
        hosts = plan.hosts_json() | {
            "clock_offset_s": {s.name: round(f.clock_offset_s, 4) for s, f in facts.items()},
            "load_generator": loadgen.tool_name,
            # Shown on the run page: the key each host was pinned to (or checked against).
            "ssh_host_keys": {s.name: self.host(s).host_key_fingerprint() for s in specs},
        }
        self._record(hosts=hosts, tool_versions=versions)
        self.roots = {s: f.is_root for s, f in facts.items()}
        return plan, loadgen

    def _start(self, role: str, launches: list[Launch]) -> list[RemoteProcess]:
        """Start a role's processes, hosts in parallel; each is recorded as it is known."""
        return launch_on_hosts(
            launches,
            self.host,
            lambda item, proc: self._launched(role, item.source, proc, item.wake),
        )

    def start_servers(self, plan: RunPlan) -> None:
        """Launch every server, then wait until each listens (they start meanwhile)."""

        def launch(s: ServerPlan) -> Launch:
            def start(host: Host) -> RemoteProcess:
                driver = MemcachedDriver(host)
                as_root = self.roots[s.host]
                argv = driver.argv(
                    listen=s.host.address, port=s.port, memory=s.memory_mb, as_root=as_root
                )
                return driver.launch(argv, self.workdir, s.name)

            return Launch(s.host, f"server:{s.index}", start, wake=(s.host.address, s.port))

        procs = self._start("server", [launch(s) for s in plan.servers])
        wait_listening([(p, s.port) for p, s in zip(procs, plan.servers, strict=True)])
        self._check()

    def populate(self, plan: RunPlan) -> None:
        if not plan.populate:
            return
        client = plan.clients[0]
        driver = populator()(self.host(client.host))
        for s in plan.servers:
            spec = replace(client.spec, targets=((s.host.address, s.port),))
            proc = driver.populate(spec, self.workdir, f"populate-{s.index}")
            self._launched("populate", f"populate:{s.index}", proc)
            self._wait_exit(proc, POPULATE_TIMEOUT_S, f"populating server:{s.index}")

    def start_middlewares(self, plan: RunPlan) -> None:
        """Launch every middleware, then wait until each accepts connections."""

        def launch(m: MiddlewarePlan) -> Launch:
            def start(host: Host) -> RemoteProcess:
                driver = MiddlewareDriver(host, binary=self.layout.middleware_binary)
                argv = driver.argv(
                    listen=m.host.address,
                    port=m.port,
                    workers=m.workers,
                    sharded=m.sharded,
                    servers=[(s.host.address, s.port) for s in m.servers],
                    replication=m.replication,
                    queue_capacity=m.queue_capacity,
                    stats_dir=f"{self.workdir}/{m.name}.stats",
                )
                return driver.launch(argv, self.workdir, m.name)

            return Launch(m.host, f"middleware:{m.index}", start)

        procs = self._start("middleware", [launch(m) for m in plan.middlewares])
        wait_listening([(p, m.port) for p, m in zip(procs, plan.middlewares, strict=True)])
        self._check()

    def start_clients(self, plan: RunPlan, loadgen: type[LoadGenerator]) -> float:
        def launch(c: ClientPlan) -> Launch:
            def start(host: Host) -> RemoteProcess:
                return loadgen(host).start(c.spec, self.workdir, c.name)

            return Launch(c.host, f"client:{c.index}", start)

        self._start("client", [launch(c) for c in plan.clients])
        publish.run_state(self.experiment.id, self.run_id, "load_started")
        return min(s.proc.start_unix for s in self.started if s.role == "client")

    def _wait_exit(self, proc: RemoteProcess, timeout_s: float, what: str) -> None:
        """Wait on the host in slices of a few seconds, checking for cancel in between."""
        deadline = time.monotonic() + timeout_s
        while (rc := proc.host.wait_exit(proc, WAIT_SLICE_S)) is None:
            if time.monotonic() > deadline:
                raise DriverError(f"{proc.host.label}: {what} did not finish in {timeout_s} s")
            self._check()
        if rc != 0:
            raise ProcessDiedError(
                f"{proc.host.label}: {what} failed (exit {rc}): {proc.host.tail(proc.path('err'))}"
            )

    # ------------------------------------------------------------------ end

    def stop_all(self) -> None:
        """Stop what still runs, newest first: clients, then middlewares (flushing their
        stats on SIGTERM), then servers; one round trip per host, hosts in parallel. Errors
        here are logged, not raised."""
        by_host: dict[Host, list[tuple[int, float]]] = {}
        wake: dict[Host, dict[int, tuple[str, int]]] = {}
        for st in reversed(self.started):
            if st.stopped:
                continue
            st.stopped = True
            grace = STATS_GRACE_S if st.role == "middleware" else STOP_GRACE_S
            by_host.setdefault(st.proc.host, []).append((st.proc.pid, grace))
            if st.wake is not None:
                wake.setdefault(st.proc.host, {})[st.proc.pid] = st.wake

        def stop(host: Host) -> None:
            try:
                host.stop_in_order(by_host[host], wake.get(host))
            except DriverError as exc:
                logger.warning("run.stop_failed", extra={"run_id": self.run_id, "error": str(exc)})

        on_each(list(by_host), stop)

    def fetch_all(self) -> None:
        """Copy the run's whole work directory from every host into the archive. Disk full
        here fails the run (ArchiveError) and leaves the raw files on the hosts."""

        def fetch(item: tuple[HostSpec, Host]) -> None:
            spec, host = item
            try:
                host.fetch_tree(self.workdir, self.archive / spec.name)
            except OSError as exc:
                if exc.errno not in LOCAL_DISK_FULL:
                    raise
                self.keep_on_hosts = True
                raise ArchiveError(
                    f"disk full while archiving to {self.archive}: {exc.strerror}; "
                    f"raw files kept on {host.label} in {self.workdir}"
                ) from exc

        on_each(list(self.hosts.items()), fetch)
        self.fetched = True

    def cleanup(self) -> None:
        """Stop what runs, archive if not done yet, and remove the host's work directory only
        once its files are archived: a failed fetch (disk full) keeps them on the host."""
        self.stop_all()
        if self.keep_on_hosts:
            return
        for spec, host in self.hosts.items():
            try:
                if not self.fetched:
                    host.fetch_tree(self.workdir, self.archive / spec.name)
                host.run(f"rm -rf {shlex.quote(self.workdir)}")
            except (DriverError, OSError) as exc:
                logger.warning(
                    "run.cleanup_failed", extra={"run_id": self.run_id, "error": str(exc)}
                )

    def parse(self, plan: RunPlan, loadgen: type[LoadGenerator], load_start: float) -> ResultRows:
        exp = self.experiment
        window = StableWindow(load_start, exp.warmup_s, exp.run_time_s - exp.cooldown_s)
        rows = ResultRows()
        multiget = int(self.params["multiget_size"]) > 1
        for c in plan.clients:
            local = self.archive / c.host.name
            try:
                result = loadgen(self.host(c.host)).parse(local, c.name)
            except (ParseError, OSError) as exc:
                raise ParseError(
                    f"client:{c.index} ({loadgen.tool_name} on {c.host.name}): cannot parse "
                    f"output: {exc}; raw files kept in {local}"
                ) from exc
            source = f"client:{c.index}"
            started = next(s.proc.start_unix for s in self.started if s.source == source)
            rows.extend(client_rows(source, result, window, multiget, started))
        for m in plan.middlewares:
            local = self.archive / m.host.name / f"{m.name}.stats"
            try:
                stats = parse_middleware_dir(local)
                rows.extend(middleware_rows(f"middleware:{m.index}", stats, window))
            except (ParseError, ValueError, OSError) as exc:
                raise ParseError(
                    f"middleware:{m.index} (on {m.host.name}): cannot parse stats: {exc}; "
                    f"raw files kept in {local}"
                ) from exc
        return rows

    def execute(self) -> bool:
        """Run the whole pipeline; True when the results were stored by this attempt."""
        try:
            with self.phase("preflight"):
                plan, loadgen = self.prepare()
            with self.phase("start"):
                self.start_servers(plan)
            with self.phase("populate"):
                self.populate(plan)
            with self.phase("start"):
                self.start_middlewares(plan)
                load_start = self.start_clients(plan, loadgen)
            with self.phase("run"):
                watch(self.started, self.experiment, self.run_id, loadgen, self._check)
            # Of the load phase, the warm-up is the part results leave out.
            warmup = min(float(self.experiment.warmup_s), self.timings["run"])
            self.timings["warmup"], self.timings["run"] = warmup, self.timings["run"] - warmup
            with self.phase("stop"):
                self.stop_all()
            with self.phase("fetch"):
                self.fetch_all()
        finally:
            with self.phase("stop"):
                self.cleanup()
        with self.phase("parse"):
            rows = self.parse(plan, loadgen, load_start)
        with self.phase("store"):
            return store_results(self.session, self.run_id, self.attempt, rows)

    def phase_timings(self) -> dict[str, float]:
        """Seconds per phase, in pipeline order, rounded to milliseconds."""
        return {p: round(self.timings[p], 3) for p in PHASES if p in self.timings}
