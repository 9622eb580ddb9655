"""The live figure of a running run: drawn on the server by the time-series figure from the
progress events the worker keeps in Redis, client instances combined per second."""

from collections.abc import Iterator
from typing import Any

import pytest
import redis
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from backend.core.config import settings
from backend.core.live import read_progress, record_event, run_live_key
from backend.figures.catalog import FIGURES
from backend.models import Run, RunStatus
from backend.tests.utils.experiment import create_random_experiment
from worker.live import publish

API = "/api/v1/experiments"


@pytest.fixture()
def running(client: TestClient, db: Session) -> Iterator[tuple[int, int]]:
    """(experiment id, run id): an experiment started, cancelled (no run message is left for
    a worker), then its first run marked running."""
    exp = create_random_experiment(
        client, factors={"workers": [8, 16]}, repetitions=1, run_time_s=60
    )
    assert client.post(f"{API}/{exp['id']}/start").status_code == 202
    assert client.post(f"{API}/{exp['id']}/cancel").status_code == 200
    run_id = db.scalars(
        select(Run.id).where(Run.experiment_id == exp["id"]).order_by(Run.id)
    ).first()
    assert run_id is not None
    db.execute(update(Run).where(Run.id == run_id).values(status=RunStatus.RUNNING))
    db.commit()
    r = redis.Redis.from_url(settings.REDIS_URL)
    try:
        yield exp["id"], run_id
    finally:
        r.delete(run_live_key(run_id))
        r.close()


def _progress(run_id: int, source: str, t: int, ops: float, rt: float | None) -> dict[str, Any]:
    return {
        "type": "progress",
        "run_id": run_id,
        "source": source,
        "elapsed_s": t,
        "run_time_s": 60,
        "ops_per_sec": ops,
        "mean_latency_us": rt,
    }


def _traces(fig: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {t["name"]: t for t in fig["data"]}


def test_live_figure_draws_the_worker_s_seconds_with_the_time_series_figure(
    client: TestClient, running: tuple[int, int]
) -> None:
    exp_id, run_id = running
    for t, ops, rt in ((1, 2900.0, 8000.0), (2, 2950.0, 8100.0), (3, 2940.0, None)):
        publish.progress(exp_id, run_id, "clients", t, ops, rt, 60, 2)
    r = client.get(f"{API}/{exp_id}/figures/live.json", params={"style": "screen"})
    assert r.status_code == 200, r.text
    fig = r.json()
    traces = _traces(fig)
    # The finished run's time-series figure: throughput left, response time right.
    assert traces["throughput"]["x"] == [1.0, 2.0, 3.0]
    assert traces["throughput"]["y"] == [2900.0, 2950.0, 2940.0]
    assert traces["response time"]["yaxis"] == "y2"
    assert traces["response time"]["y"] == [8000.0, 8100.0, None]
    assert fig["layout"]["yaxis"]["title"]["text"] == "Throughput (ops/s)"
    assert fig["layout"]["yaxis2"]["title"]["text"] == "Response time (µs)"
    # The whole run on the x axis, the design's stable window shaded.
    assert fig["layout"]["xaxis"]["range"] == [0, 60]
    shade = fig["layout"]["shapes"][0]
    assert (shade["x0"], shade["x1"]) == (5, 55)  # warm-up and cool-down of 5 s
    assert f"run {run_id}" in fig["layout"]["meta"]["caption"]
    assert "3 of 60 s so far" in fig["layout"]["meta"]["caption"]


def test_live_figure_sums_instances_per_second_by_the_results_rule(
    client: TestClient, running: tuple[int, int]
) -> None:
    exp_id, run_id = running
    r = redis.Redis.from_url(settings.REDIS_URL)
    for event in (
        _progress(run_id, "client:0", 1, 1000.0, 1000.0),
        _progress(run_id, "client:1", 1, 3000.0, 2000.0),
        _progress(run_id, "client:0", 2, 1000.0, 1000.0),
        # A repeated second replaces the earlier report, as the worker's combiner does.
        _progress(run_id, "client:0", 2, 2000.0, 1000.0),
    ):
        record_event(r, exp_id, event)
    assert len(read_progress(r, run_id)) == 4
    fig = client.get(f"{API}/{exp_id}/figures/live.json", params={"run_id": run_id}).json()
    traces = _traces(fig)
    assert traces["throughput"]["y"] == [4000.0, 2000.0]
    # Weighted by throughput: (1000 x 1000 + 3000 x 2000) / 4000.
    assert traces["response time"]["y"] == [1750.0, 1000.0]
    # Each instance as well, hidden until picked in the legend.
    assert traces["client instance 1: throughput"]["visible"] == "legendonly"
    assert traces["client instance 1: throughput"]["y"] == [3000.0]


def test_live_figure_exports_like_every_figure_but_stays_out_of_the_report(
    client: TestClient, running: tuple[int, int]
) -> None:
    exp_id, run_id = running
    publish.progress(exp_id, run_id, "clients", 1, 2900.0, 8000.0, 60, 1)
    pdf = client.get(f"{API}/{exp_id}/figures/live.pdf", params={"width": "column"})
    assert pdf.status_code == 200, pdf.text
    assert pdf.content.startswith(b"%PDF")
    listed = client.get(f"{API}/{exp_id}/figures").json()["data"]
    assert "live" not in {f["name"] for f in listed}
    assert "live" not in FIGURES


def test_live_figure_without_a_running_run_is_a_404(client: TestClient) -> None:
    exp = create_random_experiment(client)
    r = client.get(f"{API}/{exp['id']}/figures/live.json")
    assert r.status_code == 404
    assert r.json()["detail"] == "No running run"
    r = client.get(f"{API}/{exp['id']}/figures/live.json", params={"run_id": 10**9})
    assert r.status_code == 404
    assert r.json()["detail"] == "Run not found"
