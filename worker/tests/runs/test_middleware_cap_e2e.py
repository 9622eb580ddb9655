"""The middleware's memory cap through the worker's real start-up path: every middleware of a
run is started with --max-buffered-bytes from worker.runs.middleware_cap (its host's MemTotal,
the design's value size, multi-get size and connections), the cap is recorded with the run and
reported back by the middleware itself; a run whose middleware reached it is flagged."""

import json
import shutil
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from backend.core.run_files import run_archive_dir
from backend.domain.grid import effective_parameters
from backend.domain.parameters import virtual_clients
from backend.domain.quality import FlagCode
from backend.models import RunStatus
from worker.parsers.middleware_dir import parse_middleware_dir
from worker.runs.middleware_cap import middleware_buffer_cap
from worker.runs.quality import ingest_quality
from worker.runs.summarize import StableWindow
from worker.runs.summarize.middleware import middleware_rows
from worker.tasks.runs import _execute_run
from worker.tests.utils.experiments import SHORTEST_RUN, create_queued_experiment, runs_of

SAMPLE = Path(__file__).resolve().parents[1] / "parsers" / "data" / "middleware_ok"
FIXED = {
    "servers": 1,
    "middlewares": 1,
    "workers": 2,
    "threads_per_instance": 1,
    "clients_per_thread": 3,
    "ratio": "1:9",
    "value_size": 4096,
    "key_maximum": 1000,
    "load_generator": "memaslap",
}


def _mem_total() -> int:
    """This machine's MemTotal (the local testbed's middleware host), as the worker reads it."""
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemTotal:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no MemTotal in /proc/meminfo")


@pytest.mark.integration
def test_a_run_starts_its_middleware_with_the_cap_of_its_host_and_design(
    db: Session, local_sshd: None
) -> None:
    # The shortest run that starts, stops and ingests a middleware: the claim is its start-up.
    exp, (run_id,) = create_queued_experiment(db, factors={}, fixed=FIXED, **SHORTEST_RUN)
    assert _execute_run(run_id) is None
    (run,) = runs_of(db, exp.id)
    assert run.status == RunStatus.SUCCEEDED, run.error
    params = effective_parameters(run.configuration.values, exp.fixed)
    memory = _mem_total()
    want = middleware_buffer_cap(
        host_memory_bytes=memory,
        value_size=4096,
        multiget_size=int(params["multiget_size"]),
        connections=virtual_clients(params),
    )
    # The command line the worker started (Run.commands) ...
    (started,) = [c for c in run.commands if c["role"] == "middleware"]
    argv = started["argv"]
    assert argv[argv.index("--max-buffered-bytes") + 1] == str(want)
    # ... the provenance beside it (Run.hosts) ...
    (planned,) = run.hosts["middleware"]
    assert (planned["max_buffered_bytes"], planned["host_memory_bytes"]) == (want, memory)
    # ... and the cap the middleware itself says it ran with, not reached by this design.
    (summary,) = run_archive_dir(run.id).glob("attempt-*/*/*.stats/summary.json")
    reported = json.loads(summary.read_text())["memory"]
    assert reported["max_buffered_bytes"] == want
    assert 0 < reported["buffered_bytes_max"] < want
    assert run.quality is not None
    assert FlagCode.MEMORY_CAP not in {f["code"] for f in run.quality["flags"]}


def test_a_middleware_that_reached_its_cap_flags_the_run(tmp_path: Path) -> None:
    """Ingest of a middleware's stats whose summary.json says the cap paused a client."""
    stats_dir = tmp_path / "middleware-0.stats"
    shutil.copytree(SAMPLE, stats_dir)
    path = stats_dir / "summary.json"
    doc = json.loads(path.read_text())
    doc["memory"] |= {"memory_pauses": 2, "buffered_bytes_max": doc["memory"]["max_buffered_bytes"]}
    path.write_text(json.dumps(doc))
    stats = parse_middleware_dir(stats_dir)
    assert stats.summary is not None
    window = StableWindow(stats.summary.started_unix, 0, 3)
    rows = middleware_rows("middleware:0", stats, window)
    params = effective_parameters({}, FIXED)
    quality = ingest_quality(rows, window, params, populated=False)
    (flag,) = [f for f in quality["flags"] if f["code"] == FlagCode.MEMORY_CAP]
    assert flag["numbers"]["middleware:0 memory_pauses"] == 2
    assert "middleware:0: 2 pauses" in flag["reason"]
    # Unreached (the sample as the middleware wrote it): no flag.
    clean = middleware_rows("middleware:0", parse_middleware_dir(SAMPLE), window)
    quality = ingest_quality(clean, window, params, populated=False)
    assert FlagCode.MEMORY_CAP not in {f["code"] for f in quality["flags"]}
