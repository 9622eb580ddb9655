"""The repetition rule in the worker: after each run ends, the configuration gets its next
repetition until the target is met or the cap is reached (seeded noise stored as the runs'
results, real PostgreSQL and Redis); and once with the real Celery worker on the local
testbed, where a target no real run meets stops every configuration at the cap."""

from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from backend.models import Run, RunStatus
from backend.results.repetition_rule import decide
from backend.schemas.repetition_rule import RepetitionRuleSpec
from backend.tests.utils.experiment import create_random_experiment
from backend.tests.utils.processes import CeleryWorkerProcess
from backend.tests.utils.stored import stored_summary
from worker.runs.repetitions import follow_rule
from worker.tests.utils.experiments import (
    LOCAL_FIXED,
    SHORTEST_RUN,
    all_final,
    runs_of,
    wait_for,
)

API = "/api/v1/experiments"
MAX_N = 10
RULE: dict[str, Any] = {
    "half_width_pct": 5.0,
    "confidence": 0.95,
    "min_repetitions": 3,
    "max_repetitions": MAX_N,
}
# Noise per configuration (clients_per_thread level): quiet, 6 % and 30 % of 10,000 ops/s.
NOISE = {1: 100.0, 2: 600.0, 4: 3000.0}
SEEDS = {1: 1, 2: 5, 4: 3}


def _samples(level: int) -> list[float]:
    rng = np.random.default_rng(SEEDS[level])
    return [float(x) for x in rng.normal(10_000.0, NOISE[level], size=MAX_N)]


def _expected_n(samples: list[float]) -> int:
    rule = RepetitionRuleSpec.model_validate(RULE)
    n = rule.min_repetitions
    while decide(samples[:n], runs=n, pending=0, rule=rule).add_run:
        n += 1
    return n


def _finish(db: Session, run: Run, value: float) -> None:
    """What a run's pipeline leaves behind: its stable-window summary, then succeeded."""
    db.add(stored_summary(run.id, "client:0", value, 500.0))
    db.execute(update(Run).where(Run.id == run.id).values(status=RunStatus.SUCCEEDED))
    db.commit()


def test_rule_adds_runs_until_target_and_stops_at_cap(client: TestClient, db: Session) -> None:
    exp = create_random_experiment(
        client,
        factors={"clients_per_thread": [1, 2, 4]},
        repetitions=3,
        repetition_rule=RULE,
    )
    r = client.post(f"{API}/{exp['id']}/start")
    assert r.status_code == 202 and r.json()["queued"] == 9
    samples = {level: _samples(level) for level in NOISE}
    added = 0
    while queued := [r for r in runs_of(db, exp["id"]) if r.status == RunStatus.QUEUED]:
        for run in queued:  # as the worker ends them: one at a time, then the rule
            level = run.configuration.values["clients_per_thread"]
            _finish(db, run, samples[level][run.repetition])
            added += len(follow_rule(run.id))
    runs = runs_of(db, exp["id"])
    n = {level: 0 for level in NOISE}
    for run in runs:
        n[run.configuration.values["clients_per_thread"]] += 1
    expected = {level: _expected_n(samples[level]) for level in NOISE}
    assert n == expected == {1: 3, 2: 7, 4: 10}
    assert added == sum(expected.values()) - 9
    # Repetition numbers run on without gaps, and a redelivered message adds nothing.
    for level in NOISE:
        reps = sorted(
            r.repetition for r in runs if r.configuration.values["clients_per_thread"] == level
        )
        assert reps == list(range(expected[level]))
    assert all(follow_rule(r.id) == [] for r in runs)
    rows = client.get(f"{API}/{exp['id']}/results").json()["data"]
    why = {row["values"]["clients_per_thread"]: row["repetitions_reason"] for row in rows}
    assert why[1].startswith("target met at n=3, half-width")
    assert why[2].startswith("target met at n=7, half-width")
    assert why[4].startswith("stopped at maximum 10, half-width")


def test_factorial_cells_stop_together_and_keep_the_analysis(
    client: TestClient, db: Session
) -> None:
    # A 2^2 design whose cells, alone, would stop at 3, about 7, 10 and 3 repetitions.
    exp = create_random_experiment(
        client,
        factors={"clients_per_thread": [1, 2], "workers": [8, 16]},
        repetitions=3,
        repetition_rule=RULE,
    )
    noisy = {(1, 8): 1, (2, 8): 2, (1, 16): 4, (2, 16): 1}  # the NOISE level of each cell
    samples = {cell: _samples(level) for cell, level in noisy.items()}

    def cell(run: Run) -> tuple[int, int]:
        v = run.configuration.values
        return (v["clients_per_thread"], v["workers"])

    assert client.post(f"{API}/{exp['id']}/start").json()["queued"] == 12
    while queued := [r for r in runs_of(db, exp["id"]) if r.status == RunStatus.QUEUED]:
        for run in queued:
            _finish(db, run, samples[cell(run)][run.repetition])
            follow_rule(run.id)
    runs = runs_of(db, exp["id"])
    n = {c: sum(cell(r) == c for r in runs) for c in noisy}
    alone = {c: _expected_n(samples[c]) for c in noisy}
    assert sorted(alone.values()) == [3, 3, 7, 10]
    assert n == dict.fromkeys(noisy, MAX_N)  # the loud cell's n, in every cell
    rows = client.get(f"{API}/{exp['id']}/results").json()["data"]
    why = {(r["values"]["clients_per_thread"], r["values"]["workers"]): r for r in rows}
    assert why[(1, 16)]["repetitions_reason"].startswith("stopped at maximum 10, half-width")
    assert why[(1, 8)]["repetitions_reason"].startswith("target met at n=10, half-width")
    r = client.get(f"/api/v1/analysis/experiments/{exp['id']}/factorial")
    assert r.status_code == 200, r.text
    assert r.json()["replications"] == MAX_N


def test_rule_waits_for_pending_runs_and_adds_nothing_after_cancel(
    client: TestClient, db: Session
) -> None:
    exp = create_random_experiment(
        client, factors={"clients_per_thread": [1]}, repetitions=3, repetition_rule=RULE
    )
    client.post(f"{API}/{exp['id']}/start")
    first, second, third = runs_of(db, exp["id"])
    _finish(db, first, 10_000.0)
    assert follow_rule(first.id) == []  # two still queued
    client.post(f"{API}/{exp['id']}/cancel")
    for run in (second, third):
        db.execute(update(Run).where(Run.id == run.id).values(status=RunStatus.CANCELLED))
    db.commit()
    assert all(follow_rule(r.id) == [] for r in (first, second, third))
    assert len(runs_of(db, exp["id"])) == 3


@pytest.mark.integration
@pytest.mark.timeout(600)
def test_real_worker_adds_repetitions_up_to_the_cap(
    client: TestClient, db: Session, local_sshd: None, celery_worker: CeleryWorkerProcess
) -> None:
    # A target no real measurement meets (0.001 % of the mean): the worker adds runs to the cap.
    rule: dict[str, Any] = {
        **RULE,
        "half_width_pct": 0.001,
        "min_repetitions": 2,
        "max_repetitions": 3,
    }
    exp = create_random_experiment(
        client,
        factors={"clients_per_thread": [1]},
        fixed=LOCAL_FIXED,
        repetitions=2,
        repetition_rule=rule,
        **SHORTEST_RUN,  # the claim is the rule's bookkeeping, not the load
    )
    r = client.post(f"{API}/{exp['id']}/start")
    assert r.status_code == 202 and r.json()["queued"] == 2, r.text
    runs = wait_for(db, exp["id"], lambda rs: len(rs) == 3 and all_final(rs), timeout_s=400)
    assert [(r.repetition, r.status, r.error) for r in runs] == [
        (k, RunStatus.SUCCEEDED, None) for k in range(3)
    ]
    rows = client.get(f"{API}/{exp['id']}/results").json()["data"]
    (row,) = rows
    assert row["repetitions"] == 3
    assert row["repetitions_reason"].startswith("stopped at maximum 3, half-width")
    assert db.scalars(select(Run).where(Run.experiment_id == exp["id"])).all()
