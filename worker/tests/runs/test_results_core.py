"""Issue 11's acceptance: a real experiment on the local testbed (memtier_benchmark, 2 memcached
servers, 1 middleware, 2 client instances, workers 2 and 8, 2 repetitions, warm-up and
cool-down cut) shows one number per quantity, whichever view asks, over the chosen window."""

from typing import Any

import pytest
from fastapi.testclient import TestClient

from backend.models import RunStatus
from backend.tests.utils.experiment import create_random_experiment
from backend.tests.utils.processes import CeleryWorkerProcess
from worker.tests.utils.experiments import all_final, wait_for

pytestmark = pytest.mark.integration

RUN_S, WARMUP_S, COOLDOWN_S = 10, 2, 1
STABLE = {"window_start_s": WARMUP_S, "window_end_s": RUN_S - COOLDOWN_S}
SUB = {"window_start_s": 3, "window_end_s": 8}  # a re-cut inside the stable window


def _results(client: TestClient, exp: int, source: str, **window: int) -> dict[int, Any]:
    r = client.get(f"/api/v1/experiments/{exp}/results", params={"source": source, **window})
    assert r.status_code == 200, r.text
    return {row["index"]: row for row in r.json()["data"]}


def _summary(client: TestClient, exp: int, source: str, metric: str) -> dict[int, Any]:
    r = client.get(
        f"/api/v1/analysis/experiments/{exp}/summary",
        params={"source": source, "metric": metric},
    )
    assert r.status_code == 200, r.text
    return {row["index"]: row for row in r.json()["data"]}


@pytest.fixture(scope="module")
def experiment(
    client: TestClient, database: str, local_sshd: None, celery_worker: CeleryWorkerProcess
) -> int:
    from backend.core.db import SessionLocal

    exp = create_random_experiment(
        client,
        factors={"workers": [2, 8]},
        fixed={
            "servers": 2,
            "middlewares": 1,
            "client_machines": 1,
            "instances_per_machine": 2,
            "threads_per_instance": 1,
            "clients_per_thread": 2,
            "ratio": "1:1",
            "value_size": 128,
            "key_maximum": 2000,
            "load_generator": "memtier",
        },
        repetitions=2,
        run_time_s=RUN_S,
        warmup_s=WARMUP_S,
        cooldown_s=COOLDOWN_S,
    )
    r = client.post(f"/api/v1/experiments/{exp['id']}/start")
    assert r.status_code == 200 and r.json()["queued"] == 4, r.text
    with SessionLocal() as db:
        runs = wait_for(db, exp["id"], all_final, timeout_s=400)
        assert [(x.status, x.error) for x in runs] == [(RunStatus.SUCCEEDED, None)] * 4
    return int(exp["id"])


@pytest.mark.timeout(600)  # above wait_for's 400 s, so a timeout shows the run states
@pytest.mark.parametrize("source", ["client", "middleware"])
def test_default_window_equals_its_recut_and_the_summary(
    client: TestClient, experiment: int, source: str
) -> None:
    default = _results(client, experiment, source)
    recut = _results(client, experiment, source, **STABLE)
    summary = {
        m: _summary(client, experiment, source, m) for m in ("throughput_per_s", "response_time_us")
    }
    assert len(default) == 2
    for index, row in default.items():
        assert row["repetitions"] == 2
        for column, metric in (
            ("throughput", "throughput_per_s"),
            ("response_time_us", "response_time_us"),
        ):
            value = row[f"{column}_mean"]
            assert value is not None and value > 0
            assert recut[index][f"{column}_mean"] == pytest.approx(value, rel=1e-9), column
            assert summary[metric][index]["mean"] == pytest.approx(value, rel=1e-9), metric


@pytest.mark.timeout(600)
@pytest.mark.parametrize("window", [{}, SUB], ids=["stable", "sub-window"])
def test_client_and_middleware_throughput_agree(
    client: TestClient, experiment: int, window: dict[str, int]
) -> None:
    clients = _results(client, experiment, "client", **window)
    mws = _results(client, experiment, "middleware", **window)
    for index, row in clients.items():
        ratio = mws[index]["throughput_mean"] / row["throughput_mean"]
        print(f"workers {row['values']['workers']} window {window or 'stable'}: ratio {ratio:.4f}")
        assert abs(ratio - 1) < 0.05, (row["values"], ratio)
