"""The run pipeline: preflight, start servers, populate, middlewares, load generators, watch,
stop by PID, fetch every output, parse, and store in one transaction.

Raises DriverError / ParseError (the run fails with that message), RunCancelled, RunLost,
LockLost or TestbedDisturbed; whatever happens, every process it started is stopped and raw
files are archived (or, when archiving fails, kept on the host). The wall time of each phase
is recorded on the run (Run.phase_timings). The steps live in their own modules: prepare,
start, stop, outputs, attempts.
"""

from worker.drivers.loadgen import LoadGenerator
from worker.runs import attempts, kept, monitoring, outputs, start
from worker.runs.context import RunContext
from worker.runs.plan import RunPlan
from worker.runs.prepare import prepare
from worker.runs.quality import ingest_quality
from worker.runs.stop import stop_started
from worker.runs.store import store_results
from worker.runs.summarize import ResultRows, StableWindow
from worker.runs.watch import watch

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


class RunExecution(RunContext):
    """One attempt at one run. `execute()` returns True when results were stored."""

    def prepare(self) -> tuple[RunPlan, type[LoadGenerator]]:
        return prepare(self)

    def start_servers(self, plan: RunPlan) -> None:
        start.start_servers(self, plan)

    def populate(self, plan: RunPlan) -> None:
        start.populate(self, plan)

    def start_middlewares(self, plan: RunPlan) -> None:
        start.start_middlewares(self, plan)

    def start_clients(self, plan: RunPlan, loadgen: type[LoadGenerator]) -> None:
        start.start_clients(self, plan, loadgen)

    def stop_all(self) -> None:
        if self.hosts_retired():
            return
        stop_started(self.started, self.run_id)

    def fetch_all(self) -> None:
        outputs.fetch_all(self)

    def cleanup(self) -> None:
        """Stop what runs, archive if not done yet, remove the hosts' work directories."""
        self.stop_all()
        outputs.remove_workdirs(self)

    def parse(self, plan: RunPlan, loadgen: type[LoadGenerator]) -> tuple[ResultRows, StableWindow]:
        return outputs.parse_outputs(self, plan, loadgen)

    def execute(self) -> bool:
        """Run the whole pipeline; True when the results were stored by this attempt."""
        try:
            try:
                with self.phase("preflight"):
                    plan, loadgen = self.prepare()
                    attempts.record_hosts(self, self.layout.used(self.params))
                with self.phase("start"):
                    monitoring.start_monitors(self)  # the oldest process: stopped last
                    self.start_servers(plan)
                with self.phase("populate"):
                    self.populate(plan)
                    start.record_server_state(self, plan)
                with self.phase("start"):
                    self.start_middlewares(plan)
                    start.record_network(self, plan)
                    self.start_clients(plan, loadgen)
                with self.phase("run"):
                    watch(self.started, self.experiment, self.run_id, loadgen, self.check)
                attempts.check_undisturbed(self)  # the load is over: was the testbed its own?
                # Of the load phase, the warm-up is the part results leave out.
                warmup = min(float(self.experiment.warmup_s), self.timings["run"])
                self.timings["warmup"], self.timings["run"] = warmup, self.timings["run"] - warmup
                if kept.next_run_wants(self):
                    kept.mark_kept(self)
                with self.phase("stop"):
                    self.stop_all()
                with self.phase("fetch"):
                    self.fetch_all()
            finally:
                with self.phase("stop"):
                    self.cleanup()
            with self.phase("parse"):
                rows, window = self.parse(plan, loadgen)
                quality = ingest_quality(rows, window, self.params, populated=plan.populate)
            with self.phase("store"):
                kept.save_kept(self)  # before the run is final (see worker.runs.kept)
                stored = store_results(self.session, self.run_id, self.attempt, rows, quality)
        except BaseException:
            with self.phase("stop"):
                kept.release_kept(self)
            raise
        if not stored:
            kept.release_kept(self)
        return stored

    def phase_timings(self) -> dict[str, float]:
        """Seconds per phase, in pipeline order, rounded to milliseconds."""
        return {p: round(self.timings[p], 3) for p in PHASES if p in self.timings}
