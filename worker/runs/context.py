"""The state of one run attempt and the small steps every phase uses: its hosts, recording
what it learns and starts, timing phases, checking for cancel, waiting for a process."""

import shlex
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from backend.core.run_files import run_archive_dir
from backend.domain.grid import effective_parameters
from backend.models import Experiment, Run
from worker.drivers.errors import DriverError, ProcessDiedError
from worker.drivers.host import Host, HostSpec, RemoteProcess
from worker.drivers.pool import host_for
from worker.runs import lifecycle
from worker.runs.heartbeat import Heartbeat, RunLost
from worker.runs.testbed import TestbedLayout
from worker.runs.watch import Started

# Waiting for a process to end is one remote loop this long, then a cancel check.
WAIT_SLICE_S = 5.0


class RunContext:
    """One attempt at one run: what it knows, where its files go, what it started."""

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
        self.roots: dict[HostSpec, bool] = {}
        # What prepare recorded as Run.hosts (later steps add to it).
        self.hosts_info: dict[str, Any] = {}
        # Kept servers this run took over (plan index -> process), see worker.runs.kept.
        self.adopted: dict[int, RemoteProcess] = {}
        # Each planned server's identity (plan index -> identity), see worker.runs.kept.
        self.server_identity: dict[int, str] = {}
        # kept_servers rows this run wrote for the next run (deleted again if it fails).
        self.kept_rows: list[int] = []
        # This attempt's run_attempts row and its start (worker.runs.attempts).
        self.attempt_row: tuple[int, datetime] | None = None
        # The hosts it starts processes on, recorded on that row before the first start.
        self.attempt_hosts: list[HostSpec] = []
        self.timings: dict[str, float] = {}
        self._hosts_retired = False
        heartbeat.on_lost = self.let_go

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        """Add the wall time of the block to phase `name`."""
        start = time.monotonic()
        try:
            yield
        finally:
            self.timings[name] = self.timings.get(name, 0.0) + time.monotonic() - start

    def host(self, spec: HostSpec) -> Host:
        if spec not in self.hosts:
            self.hosts[spec] = host_for(spec)  # the connection kept from the previous run
        return self.hosts[spec]

    def hosts_retired(self) -> bool:
        """Whether the run was ended because its testbed is being deleted (the janitor's
        expiry): then stopping, fetching and sweeping would only wait on SSH timeouts to
        machines that are going away. Once true, it stays true."""
        if not self._hosts_retired:
            self._hosts_retired = lifecycle.ended_with_testbed(self.run_id)
        return self._hosts_retired

    def let_go(self) -> None:
        """On the heartbeat thread, when the run is no longer ours: if its testbed is being
        deleted, drop the connections, so that a command waiting on a machine that has gone
        (no reset comes from a deleted VM) fails now instead of at its timeout."""
        if self.hosts_retired():
            for host in list(self.hosts.values()):
                host.close()

    def record(self, **values: Any) -> None:
        if not lifecycle.record(self.session, self.run_id, self.attempt, **values):
            raise RunLost()

    def check(self) -> None:
        """Raise what the heartbeat thread found (lost, lock lost, cancelled)."""
        self.heartbeat.check()

    def launched(
        self,
        role: str,
        source: str,
        proc: RemoteProcess,
        wake: tuple[str, int] | None = None,
        kept: bool = False,
    ) -> None:
        """Remember a started (or adopted, `kept`) process and record its command on the run,
        so that cleanup and recovery stop it."""
        self.started.append(Started(role, source, proc, time.time(), wake=wake))
        entry = command_entry(role, source, proc) | {"attempt": self.attempt}
        entry |= {"kept": True} if kept else {}
        lifecycle.append_command(self.session, self.run_id, self.attempt, entry)

    def wait_exit(self, proc: RemoteProcess, timeout_s: float, what: str) -> None:
        """Wait on the host in slices of a few seconds, checking for cancel in between."""
        deadline = time.monotonic() + timeout_s
        while (rc := proc.host.wait_exit(proc, WAIT_SLICE_S)) is None:
            if time.monotonic() > deadline:
                raise DriverError(f"{proc.host.label}: {what} did not finish in {timeout_s} s")
            self.check()
        if rc != 0:
            raise ProcessDiedError(
                f"{proc.host.label}: {what} failed (exit {rc}): {proc.host.tail(proc.path('err'))}"
            )


def command_entry(role: str, source: str, proc: RemoteProcess) -> dict[str, Any]:
    """A started process as Run.commands records it: enough to reach its host and stop it."""
    return {
        "role": role,
        "source": source,
        **host_entry(proc.host.spec),
        "command": shlex.join(proc.argv),
        "argv": proc.argv,
        "pid": proc.pid,
        "started_unix": proc.start_unix,
        "start_ticks": proc.start_ticks,
        "workdir": proc.workdir,
    }


def host_entry(spec: HostSpec) -> dict[str, Any]:
    """A host as recorded in Run.commands and RunAttempt.hosts (read back by recovery.spec_of)."""
    return {
        "host": spec.name,
        "address": spec.address,
        "ssh_user": spec.user,
        "ssh_port": spec.port,
        "key_path": spec.key_path,
        # Recovery connects with it: no host is connected to without its pinned key.
        "host_key": spec.host_key,
    }
