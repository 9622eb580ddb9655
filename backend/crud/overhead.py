"""The overhead per run a duration estimate adds to each run's run time: measured on the
testbed (the median of its last successful runs' wall time minus run time), or the default
(settings.RUN_OVERHEAD_S) while the testbed has none. Every duration estimate calls
`run_overhead`.
"""

from dataclasses import dataclass

from sqlalchemy import Float, cast, func, select
from sqlalchemy.orm import Session

from backend.core.config import settings
from backend.models import Experiment, Run, RunStatus, Testbed

# The testbed's last successful runs measured: recent enough to follow a changed testbed
# (or worker), enough that one slow run does not move the median.
MEASURED_RUNS = 20
LOCAL_TESTBED = "local"


@dataclass(frozen=True)
class RunOverhead:
    """Seconds added to each run's run time; `runs` measured (0: the default was used)."""

    seconds: float
    runs: int
    testbed_id: int | None
    testbed: str

    @property
    def measured(self) -> bool:
        return self.runs > 0


def run_overhead(session: Session, *, testbed_id: int | None) -> RunOverhead:
    """Median overhead (finished_at - started_at - run_time_s) of the last MEASURED_RUNS
    succeeded runs on the testbed (None: the local one); the default without any."""
    wall = func.extract("epoch", Run.finished_at - Run.started_at)
    recent = (
        select(cast(wall, Float).label("wall"), Experiment.run_time_s.label("run_time_s"))
        .join(Experiment, Experiment.id == Run.experiment_id)
        .where(
            Run.status == RunStatus.SUCCEEDED,
            Run.started_at.is_not(None),
            Run.finished_at.is_not(None),
            Experiment.testbed_id.is_(None)
            if testbed_id is None
            else Experiment.testbed_id == testbed_id,
        )
        .order_by(Run.finished_at.desc())
        .limit(MEASURED_RUNS)
        .subquery()
    )
    overhead = recent.c.wall - recent.c.run_time_s
    median, count = session.execute(
        select(func.percentile_cont(0.5).within_group(overhead), func.count()).select_from(recent)
    ).one()
    name = LOCAL_TESTBED
    if testbed_id is not None:
        testbed = session.get(Testbed, testbed_id)
        name = testbed.name if testbed is not None else f"testbed {testbed_id}"
    if not count or median is None:
        return RunOverhead(float(settings.RUN_OVERHEAD_S), 0, testbed_id, name)
    # A run cannot take less than its run time; clock jitter must not make the estimate shrink.
    return RunOverhead(max(float(median), 0.0), int(count), testbed_id, name)
