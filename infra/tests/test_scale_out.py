"""Scale out as users will: two Azure testbeds (from the fake ARM, their VMs namespace hosts)
run two small experiments at the same time, each run driven by one of two real Celery worker
processes sharing the database and Redis. The per-testbed lock holds: on each testbed the runs
follow one another, none overlapping, each in its first attempt."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from backend.azure import provisioning
from backend.azure.arm import Arm
from backend.azure.lab_spec import LabSpec
from backend.core.queue import enqueue_runs
from backend.crud.dispatch import mark_sent
from backend.models import Run, RunStatus
from backend.tests.utils.processes import CeleryWorkerProcess
from infra.tests.fake_arm import FakeArm
from infra.tests.labs import SMALL_EXPERIMENT, ready_lab
from worker.tests.utils.experiments import (
    SHORTEST_RUN,
    all_final,
    create_queued_experiment,
    wait_for,
)

# What happens to runs, not what their load measures (two testbeds' runs never overlap on one
# testbed): run last in the load lane, beside the browser tests (backend/tests/utils/load_lane.py).
pytestmark = [pytest.mark.integration, pytest.mark.load_not_measured]

FIXED = SMALL_EXPERIMENT


@pytest.fixture()
def lab_name() -> str:
    return "azscale1"


def _ready(db: Session, fake: FakeArm, spec: LabSpec) -> int:
    row = ready_lab(db, fake, spec)
    assert row.testbed_id is not None
    return row.testbed_id


def _no_overlap(runs: list[Run]) -> None:
    spans = sorted((r.started_at, r.finished_at, r.id) for r in runs)
    for (_, end, before), (start, _, after) in zip(spans, spans[1:], strict=False):
        assert end is not None and start is not None
        assert end <= start, f"runs {before} and {after} overlap on one testbed"


@pytest.mark.timeout(600)
def test_two_azure_testbeds_run_two_experiments_at_once(
    db: Session, arm: Arm, fake_arm: FakeArm, small_lab: LabSpec, tmp_path: Path
) -> None:
    other = small_lab.model_copy(update={"name": "azscale2", "resource_group": "mcscope-az2"})
    testbeds = [_ready(db, fake_arm, small_lab), _ready(db, fake_arm, other)]
    exps = []
    for testbed_id in testbeds:
        exp, run_ids = create_queued_experiment(
            db,
            factors={"clients_per_thread": [2, 4]},
            fixed=FIXED,
            testbed_id=testbed_id,
            **SHORTEST_RUN,  # dispatch and the per-testbed lock, not the load
        )
        exps.append((exp.id, run_ids))
    env = {"MCSCOPE_SSH_KEY_DIR": str(Path(small_lab.ssh_private_key_path).parent)}
    workers = [CeleryWorkerProcess(tmp_path, env=env) for _ in range(2)]
    try:
        for w in workers:
            w.start()
        # Interleaved (a1, b1, a2, b2): each worker's first message is on its own testbed.
        order = [i for pair in zip(exps[0][1], exps[1][1], strict=True) for i in pair]
        enqueue_runs(sorted(mark_sent(db, order), key=lambda m: order.index(m[0])))
        runs = [wait_for(db, exp_id, all_final, timeout_s=400) for exp_id, _ in exps]
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n" + "\n".join(w.log() for w in workers)) from None
    finally:
        for w in workers:
            w.stop()
    every = [r for rs in runs for r in rs]
    assert [r.status for r in every] == [RunStatus.SUCCEEDED] * 4, [r.error for r in every]
    assert {r.attempt for r in every} == {1}
    for rs in runs:
        _no_overlap(rs)
    # At the same time: a run on one testbed overlapped a run on the other.
    assert any(
        a.started_at is not None
        and b.finished_at is not None
        and a.finished_at is not None
        and b.started_at is not None
        and a.started_at < b.finished_at
        and b.started_at < a.finished_at
        for a in runs[0]
        for b in runs[1]
    )
    assert len({r.worker for r in every}) == 2  # both workers drove runs
    for spec in (small_lab, other):
        assert provisioning.delete(arm, spec.resource_group)
    assert fake_arm.resource_ids() == []
