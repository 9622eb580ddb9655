"""A middleware metric end to end through the real worker path: the middleware's stats file
(reply_bytes_mean in windows.jsonl) -> the run's summaries -> Compare -> its CSV export.

The metric was added by one metric table entry (backend/domain/metrics.py, middleware
stat "reply_bytes_mean") and migration 0028: no worker code names it."""

import csv
import io
import json

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from backend.core.run_files import run_archive_dir
from backend.models import Configuration, RunStatus, RunSummary
from worker.tasks.runs import _execute_run
from worker.tests.utils.experiments import SHORTEST_RUN, create_queued_experiment, runs_of

pytestmark = pytest.mark.integration

API = "/api/v1"
SIZES = (128, 1024)
STORED = len(b"STORED\r\n")


def _stats_file_means(run_id: int) -> dict[str, float]:
    """Per type, the completion-weighted mean of reply_bytes_mean over every window of the
    middleware's own windows.jsonl (as the run archive keeps it)."""
    (path,) = run_archive_dir(run_id).glob("attempt-*/*/*.stats/windows.jsonl")
    done: dict[str, float] = {}
    total: dict[str, float] = {}
    for line in path.read_text().splitlines():
        for kind, t in json.loads(line)["types"].items():
            done[kind] = done.get(kind, 0.0) + t["completed"]
            total[kind] = total.get(kind, 0.0) + t["completed"] * t["reply_bytes_mean"]
    return {k: total[k] / done[k] for k in done if done[k]}


def test_reply_bytes_from_stats_file_to_summary_compare_and_export(
    db: Session, client: TestClient, local_sshd: None
) -> None:
    exp, run_ids = create_queued_experiment(
        db,
        factors={"value_size": list(SIZES)},
        fixed={
            "servers": 1,
            "middlewares": 1,
            "workers": 2,
            "clients_per_thread": 2,
            "ratio": "1:9",
            "key_maximum": 1000,
            "load_generator": "memaslap",
        },
        **SHORTEST_RUN,  # bytes per reply are exact whatever the load: the shortest run
    )
    for run_id in run_ids:
        assert _execute_run(run_id) is None
    runs = runs_of(db, exp.id)
    assert all(r.status == RunStatus.SUCCEEDED for r in runs), [r.error for r in runs]
    size_of = {
        c.id: c.values["value_size"]
        for c in db.scalars(select(Configuration).where(Configuration.experiment_id == exp.id))
    }
    stored: dict[int, float] = {}
    for run in runs:
        # The stats file: every set is answered "STORED\r\n"; a get's reply carries its value.
        from_file = _stats_file_means(run.id)
        assert from_file["set"] == pytest.approx(STORED)
        size = size_of[run.configuration_id]
        assert 0 < from_file["get"] <= size + 64
        # The summaries: the stable window of the same stat, per type and over all types.
        rows = {
            s.request_type.value: s
            for s in db.scalars(
                select(RunSummary).where(
                    RunSummary.run_id == run.id, RunSummary.source == "middleware:0"
                )
            )
        }
        assert rows["set"].reply_bytes == pytest.approx(STORED)
        assert 0 < rows["get"].reply_bytes <= size + 64
        assert rows["set"].reply_bytes <= rows["all"].reply_bytes <= rows["get"].reply_bytes
        # The clients do not measure it.
        client_rows = db.scalars(
            select(RunSummary).where(RunSummary.run_id == run.id, RunSummary.source == "client:0")
        ).all()
        assert client_rows and all(s.reply_bytes is None for s in client_rows)
        stored[run.configuration_id] = rows["all"].reply_bytes
    small, large = sorted(stored, key=lambda c: size_of[c])
    print("reply bytes per request by value size:", {size_of[c]: v for c, v in stored.items()})
    assert stored[large] > stored[small]

    # Compare: the configurations' means, with the metric table's unit.
    selection = {"experiment_ids": [exp.id], "source": "middleware", "metrics": ["reply_bytes"]}
    r = client.post(f"{API}/compare/configurations", json=selection)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["units"] == {"reply_bytes": "bytes"}
    compared = {row["configuration_id"]: row["metrics"]["reply_bytes"] for row in body["data"]}
    assert compared == pytest.approx(stored)

    # Export: the differences table as CSV, the larger values against the smaller.
    diffs = {**selection, "base_configuration_id": small, "configuration_ids": [small, large]}
    served = client.post(f"{API}/compare/differences", json=diffs)
    assert served.status_code == 200, served.text
    (row,) = served.json()["data"]
    assert row["difference"] == pytest.approx(stored[large] - stored[small])
    table = client.post(f"{API}/compare/tables/differences.csv", json=diffs)
    assert table.status_code == 200, table.text
    header, *lines = list(csv.reader(io.StringIO(table.text)))
    assert "Base mean (bytes)" in header, header
    (line,) = lines
    assert float(line[header.index("Base mean (bytes)")]) == pytest.approx(stored[small])
