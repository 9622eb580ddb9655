"""The duration estimate adds the overhead per run measured on the experiment's testbed (the
median of its last successful runs' wall time minus run time), or the default without runs."""

from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from backend import models as m
from backend.core.config import settings
from backend.crud.overhead import MEASURED_RUNS
from backend.models import Configuration, Run, RunStatus
from backend.tests.utils.experiment import create_random_experiment, random_name

API = "/api/v1/experiments"
DESIGN = {"factors": {"clients_per_thread": [1, 4]}, "repetitions": 3, "run_time_s": 30}


def _testbed(db: Session) -> m.Testbed:
    testbed = m.Testbed(name=random_name("bed"), kind=m.TestbedKind.REMOTE, description="")
    db.add(testbed)
    db.commit()
    return testbed


def _seed_runs(
    client: TestClient, db: Session, testbed_id: int, overheads: list[float], **run: Any
) -> None:
    """Runs of one experiment on the testbed (oldest first), each finished `overhead` seconds
    after its run time; `run` overrides columns (status)."""
    exp = create_random_experiment(
        client,
        factors={"clients_per_thread": [2]},
        repetitions=len(overheads),
        run_time_s=10,
        warmup_s=1,
        cooldown_s=1,
        testbed_id=testbed_id,
    )
    config = db.scalar(select(Configuration.id).where(Configuration.experiment_id == exp["id"]))
    assert config is not None
    begin = datetime(2026, 1, 1, tzinfo=UTC)
    for i, overhead in enumerate(overheads):
        started = begin + timedelta(minutes=i)
        db.add(
            Run(
                experiment_id=exp["id"],
                configuration_id=config,
                repetition=i,
                status=run.get("status", RunStatus.SUCCEEDED),
                started_at=started,
                finished_at=started + timedelta(seconds=10 + overhead),
            )
        )
    db.commit()


def _preview(client: TestClient, testbed_id: int) -> dict[str, Any]:
    r = client.post(
        f"{API}/preview", json={"name": random_name(), **DESIGN, "testbed_id": testbed_id}
    )
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def test_preview_without_runs_uses_the_default(client: TestClient, db: Session) -> None:
    testbed = _testbed(db)
    body = _preview(client, testbed.id)
    assert body["overhead"] == {
        "seconds": settings.RUN_OVERHEAD_S,
        "source": "default",
        "runs": 0,
        "testbed_id": testbed.id,
        "testbed": testbed.name,
    }
    assert body["estimated_seconds"] == 6 * (30 + settings.RUN_OVERHEAD_S)


def test_preview_uses_the_measured_overhead_of_recent_runs(client: TestClient, db: Session) -> None:
    testbed, other = _testbed(db), _testbed(db)
    # The oldest runs fall outside the last MEASURED_RUNS; of those measured the median is 1.5.
    old = [50.0] * 5
    recent = [1.0, 2.0] * (MEASURED_RUNS // 2)
    _seed_runs(client, db, testbed.id, old + recent)
    # Failed runs and another testbed's runs are not measured.
    _seed_runs(client, db, testbed.id, [90.0] * 30, status=RunStatus.FAILED)
    _seed_runs(client, db, other.id, [70.0] * 3)

    body = _preview(client, testbed.id)
    assert body["overhead"] == {
        "seconds": 1.5,
        "source": "measured",
        "runs": MEASURED_RUNS,
        "testbed_id": testbed.id,
        "testbed": testbed.name,
    }
    assert body["estimated_seconds"] == 6 * (30 + 1.5)
    assert _preview(client, other.id)["overhead"]["seconds"] == 70.0

    # The stored experiment's served estimate is the same one.
    exp = create_random_experiment(client, name=random_name(), **DESIGN, testbed_id=testbed.id)
    assert exp["preview"]["overhead"]["source"] == "measured"
    assert exp["preview"]["estimated_seconds"] == 6 * (30 + 1.5)
    listed = client.get(API, params={"q": exp["name"]}).json()["data"]
    assert listed[0]["preview"] == exp["preview"]


def test_preview_of_a_missing_testbed_is_422(client: TestClient) -> None:
    r = client.post(f"{API}/preview", json={"name": random_name(), **DESIGN, "testbed_id": 999_999})
    assert r.status_code == 422
    assert r.json()["detail"][0]["loc"] == ["body", "testbed_id"]
