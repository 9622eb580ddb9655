"""What both sides of a run counted over the whole run, and when the middleware saw its load
begin, read from its archive with the product's parsers: memaslap's `Ops` and the middleware's
completed requests and sampled arrivals.

No clock is involved, so the two agree however the machine disturbed the run: the middleware
completes every request memaslap counted but the last one in flight on each connection. The
stored per-second means cannot promise that on a busy machine: each series is placed to the
whole second (backend/results/aggregate.py, rule 1), and a stalled machine (CI, 2026-11-29:
1,000 ops/s for five seconds, then 22,000) moves a mean that is half a second off by 40 %.
"""

from pathlib import Path

from backend.models import Run
from worker.parsers.memaslap import parse_memaslap
from worker.parsers.middleware_dir import parse_middleware_dir


def _local_files(run: Run) -> Path:
    """The folder of the run's archive that holds the local testbed's files."""
    (files,) = Path(run.artifact_dir or "").glob("*/local")
    return files


def whole_run_counts(run: Run) -> tuple[int, int]:
    """(requests memaslap counted on client-0, requests middleware-0 completed) of a run on
    the local testbed."""
    files = _local_files(run)
    counted = parse_memaslap((files / "client-0.out").read_text()).ops
    stats = parse_middleware_dir(files / "middleware-0.stats")
    completed = sum(t.completed for w in stats.windows for t in w.types.values())
    return counted, completed


def middleware_load_start_unix(run: Run) -> float:
    """When middleware-0 saw the load begin: the arrival of its first sampled request (every
    100th in parse order: within milliseconds of the first at these rates), on its own clock
    (summary.json's start plus the sample's offset), this machine's clock on the local testbed."""
    stats = parse_middleware_dir(_local_files(run) / "middleware-0.stats")
    assert stats.summary is not None and stats.requests, "no summary or no sampled request"
    return stats.summary.started_unix + min(r.arrival_us for r in stats.requests) / 1e6
