"""The run pipeline: preflight, start servers, populate, middlewares, load generators, watch,
stop by PID, fetch every output, parse, and store in one transaction.

Raises DriverError / ParseError (the run fails with that message), RunCancelled or RunLost;
whatever happens, every process it started is stopped and raw files are archived.
"""

import logging
import random
import shlex
import time
import uuid
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy.orm import Session

from backend.core.config import settings
from backend.domain.grid import effective_parameters
from backend.models import Experiment, Run
from worker.drivers.errors import DriverError, ProcessDiedError
from worker.drivers.host import Host, HostSpec, RemoteProcess
from worker.drivers.loadgen import LoadGenerator
from worker.drivers.memcached import MemcachedDriver
from worker.drivers.memtier import POPULATE_TIMEOUT_S, MemtierDriver
from worker.drivers.middleware import MiddlewareDriver
from worker.live import publish
from worker.parsers import ParseError, parse_middleware_dir
from worker.runs import lifecycle
from worker.runs.plan import RunPlan, build_plan
from worker.runs.preflight import check_tools, choose_load_generator, free_port, inspect_host
from worker.runs.store import store_results
from worker.runs.summarize import ResultRows, StableWindow, client_rows, middleware_rows
from worker.runs.testbed import TestbedLayout

logger = logging.getLogger(__name__)


class RunCancelled(Exception):
    """The user asked to cancel the run."""


class RunLost(Exception):
    """The run is no longer ours (re-queued after we were presumed dead)."""


@dataclass
class Started:
    role: str
    source: str
    proc: RemoteProcess
    local_start: float
    stopped: bool = False


class RunExecution:
    """One attempt at one run. `execute()` returns True when results were stored."""

    def __init__(
        self,
        session: Session,
        run: Run,
        experiment: Experiment,
        layout: TestbedLayout,
        attempt: int,
    ) -> None:
        self.session = session
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
        self.archive_root = settings.VAR_DIR / "runs" / str(run.id)
        self.archive = self.archive_root / f"attempt-{attempt}-{token}"
        self.hosts: dict[HostSpec, Host] = {}
        self.started: list[Started] = []
        self.fetched = False

    # ------------------------------------------------------------------ helpers

    def host(self, spec: HostSpec) -> Host:
        if spec not in self.hosts:
            self.hosts[spec] = Host(spec)
        return self.hosts[spec]

    def _record(self, **values: Any) -> None:
        if not lifecycle.record(self.session, self.run_id, self.attempt, **values):
            raise RunLost()

    def _beat(self) -> None:
        cancel = lifecycle.heartbeat(self.session, self.run_id, self.attempt)
        if cancel is None:
            raise RunLost()
        if cancel:
            raise RunCancelled()

    def _launched(self, role: str, source: str, proc: RemoteProcess) -> None:
        self.started.append(Started(role, source, proc, time.time()))
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
        facts = {}
        for spec in dict.fromkeys(used):
            facts[spec] = inspect_host(self.host(spec), self.workdir)
        clients = [self.host(s) for s in dict.fromkeys(lay.clients[: p["client_machines"]])]
        loadgen = choose_load_generator(p["load_generator"], clients)
        rng = random.Random()
        plan = build_plan(
            p,
            lay,
            loadgen.tool_name,
            self.experiment.run_time_s,
            lambda spec: free_port(facts[spec], rng),
        )
        versions = check_tools(plan, self.hosts, loadgen, lay.middleware_binary)
        hosts = plan.hosts_json() | {
            "clock_offset_s": {s.name: round(f.clock_offset_s, 4) for s, f in facts.items()},
            "load_generator": loadgen.tool_name,
        }
        self._record(hosts=hosts, tool_versions=versions)
        self.roots = {s: f.is_root for s, f in facts.items()}
        return plan, loadgen

    def start_servers(self, plan: RunPlan) -> None:
        for s in plan.servers:
            driver = MemcachedDriver(self.host(s.host))
            argv = driver.argv(
                listen=s.host.address, port=s.port, memory=s.memory_mb, as_root=self.roots[s.host]
            )
            proc = driver.launch(argv, self.workdir, s.name)
            self._launched("server", f"server:{s.index}", proc)
            self.host(s.host).wait_listening(proc, s.port)
            self._beat()

    def populate(self, plan: RunPlan) -> None:
        if not plan.populate:
            return
        client = plan.clients[0]
        driver = MemtierDriver(self.host(client.host))
        for s in plan.servers:
            spec = replace(client.spec, targets=((s.host.address, s.port),))
            proc = driver.populate(spec, self.workdir, f"populate-{s.index}")
            self._launched("populate", f"populate:{s.index}", proc)
            self._wait_exit(proc, POPULATE_TIMEOUT_S, f"populating server:{s.index}")

    def start_middlewares(self, plan: RunPlan) -> None:
        for m in plan.middlewares:
            driver = MiddlewareDriver(self.host(m.host), binary=self.layout.middleware_binary)
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
            self.host(m.host).mkdir(f"{self.workdir}/{m.name}.stats")
            proc = driver.start(workdir=self.workdir, name=m.name, argv=argv, port=m.port)
            self._launched("middleware", f"middleware:{m.index}", proc)
            self._beat()

    def start_clients(self, plan: RunPlan, loadgen: type[LoadGenerator]) -> float:
        for c in plan.clients:
            proc = loadgen(self.host(c.host)).start(c.spec, self.workdir, c.name)
            self._launched("client", f"client:{c.index}", proc)
        publish.run_state(self.experiment.id, self.run_id, "load_started")
        return min(s.proc.start_unix for s in self.started if s.role == "client")

    def _wait_exit(self, proc: RemoteProcess, timeout_s: float, what: str) -> None:
        deadline = time.monotonic() + timeout_s
        while proc.host.alive(proc.pid):
            if time.monotonic() > deadline:
                raise DriverError(f"{proc.host.label}: {what} did not finish in {timeout_s} s")
            self._beat()
            time.sleep(0.2)
        rc = proc.host.exit_code(proc)
        if rc != 0:
            raise ProcessDiedError(
                f"{proc.host.label}: {what} failed (exit {rc}): {proc.host.tail(proc.path('err'))}"
            )

    # ------------------------------------------------------------------ end

    def stop_all(self) -> None:
        """Stop what still runs, newest first: clients, then middlewares (flushing their
        stats on SIGTERM), then servers. Errors here are logged, not raised."""
        for st in reversed(self.started):
            if st.stopped:
                continue
            try:
                st.stopped = True
                if st.role == "middleware":
                    MiddlewareDriver(st.proc.host).stop(st.proc)
                else:
                    st.proc.host.stop(st.proc.pid)
            except DriverError as exc:
                logger.warning("run.stop_failed", extra={"run_id": self.run_id, "error": str(exc)})

    def fetch_all(self) -> None:
        """Copy the run's whole work directory from every host into the archive."""
        for spec, host in self.hosts.items():
            host.fetch_tree(self.workdir, self.archive / spec.name)
        self.fetched = True

    def cleanup(self) -> None:
        self.stop_all()
        for spec, host in self.hosts.items():
            try:
                if not self.fetched:
                    host.fetch_tree(self.workdir, self.archive / spec.name)
                host.run(f"rm -rf {shlex.quote(self.workdir)}")
            except (DriverError, OSError) as exc:
                logger.warning(
                    "run.cleanup_failed", extra={"run_id": self.run_id, "error": str(exc)}
                )
            finally:
                host.close()

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
            rows.extend(client_rows(f"client:{c.index}", result, window, multiget))
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
        from worker.runs.watch import watch

        try:
            plan, loadgen = self.prepare()
            self.start_servers(plan)
            self.populate(plan)
            self.start_middlewares(plan)
            load_start = self.start_clients(plan, loadgen)
            watch(self, plan, loadgen)
            self.stop_all()
            self.fetch_all()
        finally:
            self.cleanup()
        rows = self.parse(plan, loadgen, load_start)
        return store_results(self.session, self.run_id, self.attempt, rows)
