"""Issue 28.2: re-run flagged through the API, the worker's task body running real memaslap
and memcached on the local testbed. Exactly the flagged run gets a new attempt; results keep
the older attempt while the new one is queued; the run page lists both attempts."""

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from backend.core.config import settings
from backend.models import RunStatus
from worker.tasks.runs import _execute_run
from worker.tests.utils.experiments import (
    LOCAL_FIXED,
    SHORTEST_RUN,
    create_queued_experiment,
    runs_of,
)

# What happens to runs, not what their load measures (re-running a flagged run adds one attempt):
# run last in the load lane, beside the browser tests (backend/tests/utils/load_lane.py).
pytestmark = [pytest.mark.integration, pytest.mark.load_not_measured]
API = "/api/v1"


def _lenient(monkeypatch: pytest.MonkeyPatch) -> None:
    """Thresholds no real run breaks (a 3 s window leaves the series tests unmeasured)."""
    monkeypatch.setattr(settings, "QUALITY_INTERACTIVE_TOLERANCE", 1e9)
    monkeypatch.setattr(settings, "QUALITY_THROUGHPUT_TOLERANCE", 1e9)
    # This VM has real CPU steal under load (the monitor measures it): not this test's flag.
    monkeypatch.setattr(settings, "QUALITY_STEAL_PCT", 1e9)


@pytest.mark.timeout(300)
def test_rerun_flagged_queues_exactly_the_flagged_run(
    client: TestClient, db: Session, local_sshd: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    exp, (flagged, clean) = create_queued_experiment(
        # Quality-flag bookkeeping, not the load: the interactive law flags any window at 1e-12.
        db,
        factors={"clients_per_thread": [1, 2]},
        fixed=LOCAL_FIXED,
        **SHORTEST_RUN,
    )
    # The first run is stored under a tolerance no measurement meets: the interactive law
    # flags it at ingest. The second under lenient ones: no flag.
    monkeypatch.setattr(settings, "QUALITY_STEAL_PCT", 1e9)  # see _lenient
    monkeypatch.setattr(settings, "QUALITY_INTERACTIVE_TOLERANCE", 1e-12)
    assert _execute_run(flagged) is None
    _lenient(monkeypatch)
    assert _execute_run(clean) is None
    runs = {r.id: r for r in runs_of(db, exp.id)}
    assert all(r.status == RunStatus.SUCCEEDED for r in runs.values()), runs
    stored = runs[flagged].quality, runs[clean].quality
    assert stored[0] is not None and stored[1] is not None
    assert [f["code"] for f in stored[0]["flags"]] == ["interactive_law"]
    assert stored[1]["flags"] == []

    q = client.get(f"{API}/experiments/{exp.id}/quality").json()
    assert q["flagged_run_ids"] == [flagged]
    before = client.get(f"{API}/experiments/{exp.id}/results").json()["data"]

    r = client.post(f"{API}/experiments/{exp.id}/rerun-flagged")
    assert r.status_code == 202, r.text
    assert r.json() == {"queued": 1, "run_ids": [flagged]}
    runs = {r.id: r for r in runs_of(db, exp.id)}
    assert runs[flagged].status == RunStatus.QUEUED and runs[clean].status == RunStatus.SUCCEEDED
    # Queued again, its first attempt's results still count.
    assert client.get(f"{API}/experiments/{exp.id}/results").json()["data"] == before
    again = client.post(f"{API}/experiments/{exp.id}/rerun-flagged")
    assert again.json() == {"queued": 0, "run_ids": []}  # queued runs are not queued twice

    assert _execute_run(flagged) is None
    (run,) = [r for r in runs_of(db, exp.id) if r.id == flagged]
    assert run.status == RunStatus.SUCCEEDED and run.attempt == 2 and run.results_attempt == 2
    assert client.get(f"{API}/experiments/{exp.id}/quality").json()["flagged_run_ids"] == []

    attempts = client.get(f"{API}/runs/{flagged}/attempts").json()
    assert attempts["count"] == 2
    first, second = attempts["data"]
    assert (first["attempt"], first["in_use"], second["in_use"]) == (1, False, True)
    assert [f["code"] for f in first["outcome"]["flags"]] == ["interactive_law"]
    assert second["outcome"]["flags"] == []
    assert first["outcome"]["throughput_per_s"] > 0 and second["outcome"]["throughput_per_s"] > 0
    listed = client.get(f"{API}/experiments/{exp.id}/runs").json()["data"]
    assert {r["id"]: r["results_attempt"] for r in listed} == {flagged: 2, clean: 1}
