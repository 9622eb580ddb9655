"""Quality flags through the API, on runs stored by the worker's own ingest and store path."""

from typing import Any

import numpy as np
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from backend.domain.grid import effective_parameters
from backend.domain.parameters import virtual_clients
from backend.models import Experiment, RequestType, Run, RunStatus
from backend.tests.utils.experiment import create_random_experiment
from worker.runs.quality import ingest_quality
from worker.runs.store import store_results
from worker.runs.summarize import ResultRows, StableWindow, window_summary

RUN_S, WARMUP_S, COOLDOWN_S = 40, 5, 5
T0 = 1_700_000_000.0
API = "/api/v1"


def _rows(throughput: np.ndarray, clients: int, window: StableWindow) -> ResultRows:
    """A client and a middleware agreeing with each other and with X = N / R."""
    rows = ResultRows(tool_errors={"middleware:0": 0})
    for source, start in (("client:0", T0), ("middleware:0", T0 + 0.2)):
        series: dict[str, Any] = {
            "source": source,
            "request_type": RequestType.ALL,
            "start_unix": start,
            "throughput": list(throughput),
            "response_time_us": list(clients / throughput * 1e6),
            "keys_per_s": list(throughput),
            "misses_per_s": [0.0] * len(throughput),
        }
        rows.series.append(series)
        summary = window_summary(source, series, window)
        assert summary is not None
        rows.summaries.append(
            {
                "source": source,
                "request_type": RequestType.ALL,
                "window_start_s": window.start_s,
                "window_end_s": window.end_s,
                **{k: v for k, v in summary.items() if k in _CLIENT_COLUMNS},
            }
        )
    return rows


_CLIENT_COLUMNS = {
    "count",
    "throughput",
    "keys_per_s",
    "misses_per_s",
    "response_time_us",
    "response_time_std_us",
    "weight",
}


def _store(db: Session, exp_id: int, level: dict[tuple[int, int], float], step_run: int) -> None:
    """Every run stored through ingest_quality and store_results; `level` by (cpt, rep)."""
    exp = db.get_one(Experiment, exp_id)
    rng = np.random.default_rng(28)
    window = StableWindow(T0, WARMUP_S, RUN_S - COOLDOWN_S)
    runs = db.scalars(select(Run).where(Run.experiment_id == exp_id).order_by(Run.id)).all()
    for run in runs:
        params = effective_parameters(run.configuration.values, exp.fixed)
        mean = level[(run.configuration.values["clients_per_thread"], run.repetition)]
        x = rng.normal(mean, 0.02 * mean, RUN_S)
        if run.repetition == step_run and run.configuration.values["clients_per_thread"] == 4:
            x[20:] *= 0.75  # a step at second 20, inside the window [5, 35)
        db.execute(update(Run).where(Run.id == run.id).values(status=RunStatus.RUNNING, attempt=1))
        db.commit()
        rows = _rows(x, virtual_clients(params), window)
        quality = ingest_quality(rows, window, params, populated=True)
        assert store_results(db, run.id, 1, rows, quality)


def _experiment(
    client: TestClient, db: Session
) -> tuple[dict[str, Any], dict[tuple[int, int], int]]:
    exp = create_random_experiment(
        client,
        factors={"clients_per_thread": [1, 4]},
        repetitions=3,
        run_time_s=RUN_S,
        warmup_s=WARMUP_S,
        cooldown_s=COOLDOWN_S,
    )
    client.post(f"{API}/experiments/{exp['id']}/start")
    client.post(f"{API}/experiments/{exp['id']}/cancel")
    level = {(1, 0): 10_000.0, (1, 1): 10_100.0, (1, 2): 7_000.0}  # repetition 2: an outlier
    level |= {(4, r): 20_000.0 for r in range(3)}
    _store(db, exp["id"], level, step_run=0)
    runs = db.scalars(select(Run).where(Run.experiment_id == exp["id"])).all()
    ids = {(r.configuration.values["clients_per_thread"], r.repetition): r.id for r in runs}
    return exp, ids


def test_flags_at_ingest_and_on_a_recut_window(client: TestClient, db: Session) -> None:
    exp, ids = _experiment(client, db)
    r = client.get(f"{API}/experiments/{exp['id']}/quality")
    assert r.status_code == 200, r.text
    body = r.json()
    by_run = {q["run_id"]: q for q in body["runs"]}
    step = [f for f in by_run[ids[(4, 0)]]["flags"] if f["code"] == "step"]
    assert len(step) == 1 and step[0]["numbers"]["p_value"] < body["thresholds"]["QUALITY_ALPHA"]
    assert step[0]["numbers"]["at_s"] == 15  # second 20 of the run, 15 of the window
    clean = [ids[(1, 0)], ids[(1, 1)], ids[(4, 1)], ids[(4, 2)]]
    assert all(by_run[i]["flags"] == [] for i in clean)
    assert "not measured" in by_run[ids[(1, 0)]]["not_measured"]["cpu_steal"]
    outliers = [f for c in body["configurations"] for f in c["flags"]]
    assert ids[(1, 2)] in {f["run_id"] for f in outliers}
    assert {f["code"] for f in outliers} == {"outlier_repetition"}
    assert ids[(1, 0)] not in body["flagged_run_ids"]
    assert {ids[(1, 2)], ids[(4, 0)]} <= set(body["flagged_run_ids"])

    # The run table carries the flags stored at ingest.
    runs = client.get(f"{API}/experiments/{exp['id']}/runs").json()["data"]
    flags = {run["id"]: [f["code"] for f in run["flags"]] for run in runs}
    assert "step" in flags[ids[(4, 0)]] and flags[ids[(1, 0)]] == []

    # Re-cut before the step: no step any more.
    r = client.get(f"{API}/experiments/{exp['id']}/quality?window_start_s=5&window_end_s=20")
    assert r.status_code == 200, r.text
    recut = {q["run_id"]: q for q in r.json()["runs"]}
    assert [f for f in recut[ids[(4, 0)]]["flags"] if f["code"] == "step"] == []


def test_compare_marks_differences_with_flagged_inputs(client: TestClient, db: Session) -> None:
    exp, ids = _experiment(client, db)
    configs = client.get(f"{API}/experiments/{exp['id']}/configurations").json()["data"]
    by_cpt = {c["values"]["clients_per_thread"]: c["id"] for c in configs}
    r = client.post(
        f"{API}/compare/differences",
        json={
            "experiment_ids": [exp["id"]],
            "configuration_ids": [by_cpt[1], by_cpt[4]],
            "base_configuration_id": by_cpt[1],
            "metrics": ["throughput_per_s"],
        },
    )
    assert r.status_code == 200, r.text
    (row,) = r.json()["data"]
    assert sorted(row["flagged_inputs"]) == sorted([by_cpt[1], by_cpt[4]])


def test_quality_window_needs_both_ends(client: TestClient, db: Session) -> None:
    exp = create_random_experiment(client)
    r = client.get(f"{API}/experiments/{exp['id']}/quality?window_start_s=5")
    assert r.status_code == 422
    assert r.json()["detail"][0]["loc"] == ["query", "window_end_s"]
    assert client.get(f"{API}/experiments/999999/quality").status_code == 404
    assert client.get(f"{API}/runs/999999/attempts").json()["detail"] == "Run not found"


def test_a_failed_rerun_keeps_the_older_results_in_use(client: TestClient, db: Session) -> None:
    exp, ids = _experiment(client, db)
    before = client.get(f"{API}/experiments/{exp['id']}/results").json()["data"]
    # What a re-run that failed leaves: the run failed, its first attempt's results stored.
    db.execute(update(Run).where(Run.id == ids[(1, 2)]).values(status=RunStatus.FAILED, attempt=2))
    db.commit()
    after = client.get(f"{API}/experiments/{exp['id']}/results").json()["data"]
    assert after == before and all(row["repetitions"] == 3 for row in after)
    q = client.get(f"{API}/experiments/{exp['id']}/quality").json()
    assert ids[(1, 2)] in {r["run_id"] for r in q["runs"]}
