"""The design fields every experiment has besides its parameters: repetitions and the run's
times, and the limits on how long runs and experiments may be. Declared once, like the
parameters (backend.domain.parameters): the request schema takes its defaults and bounds from
here, the templates their defaults, the run task its time limit, and the UI its labels and
units from the served list (GET /design-fields)."""

from dataclasses import dataclass

# The run task's (soft) time limit: the worker stops a run that takes longer
# (worker/tasks/runs.py takes it from here).
RUN_TASK_TIME_LIMIT_S = 4 * 3600
# What a run spends besides its run time within that limit: deploying, starting the servers,
# collecting and parsing the files (minutes on the slowest testbed; half an hour leaves margin).
RUN_SETUP_ALLOWANCE_S = 30 * 60
# An experiment's planned run time in all (runs x run time) at most: a month. Longer plans
# outlive the hosts, keys and prices they were made with; split them into experiments.
MAX_PLANNED_S = 30 * 86_400


@dataclass(frozen=True)
class DesignField:
    name: str
    label: str
    unit: str | None
    default: int
    minimum: int
    maximum: int
    description: str


DESIGN_FIELDS: dict[str, DesignField] = {
    f.name: f
    for f in (
        DesignField("repetitions", "Repetitions", None, 3, 1, 100, "runs per configuration"),
        DesignField(
            "run_time_s",
            "Run time",
            "s",
            90,
            # A 2 s run still goes through every phase (start, populate, load, stop, fetch,
            # parse, store): a quick check of a design end to end. The quality checks say
            # when a window is too short for them (backend/quality/check.py).
            2,
            RUN_TASK_TIME_LIMIT_S - RUN_SETUP_ALLOWANCE_S,
            "seconds per run",
        ),
        DesignField("warmup_s", "Warm-up", "s", 10, 0, 3_600, "seconds cut at the start"),
        DesignField("cooldown_s", "Cool-down", "s", 10, 0, 3_600, "seconds cut at the end"),
    )
}

REPETITIONS = DESIGN_FIELDS["repetitions"]
RUN_TIME = DESIGN_FIELDS["run_time_s"]
WARMUP = DESIGN_FIELDS["warmup_s"]
COOLDOWN = DESIGN_FIELDS["cooldown_s"]


def planned_time_problem(runs: int, run_time_s: int) -> str | None:
    """Why a plan of `runs` runs of `run_time_s` each is too long in all, or None."""
    total = runs * run_time_s
    if total <= MAX_PLANNED_S:
        return None
    return (
        f"{runs} runs x {run_time_s} s = {total} s ({total / 86_400:.1f} days) of planned run "
        f"time; the limit is {MAX_PLANNED_S} s ({MAX_PLANNED_S // 86_400} days)"
    )
