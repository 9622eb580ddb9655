"""The liveness rule of a queued run's message (backend.crud.dispatch), case by case on real
rows: who holds it, until when, and what waits in the queue; and sending never twice."""

import os
import socket
import subprocess
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import update
from sqlalchemy.orm import Session

from backend.core.config import settings
from backend.crud.dispatch import Message, claim_unsent, resend, stuck_runs
from backend.models import Run
from worker.tests.utils.experiments import LOCAL_FIXED, create_queued_experiment

HERE = socket.gethostname()


def _dead_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def _set(db: Session, run_id: int, **values: object) -> None:
    db.execute(update(Run).where(Run.id == run_id).values(**values))
    db.commit()


@pytest.fixture()
def runs(db: Session) -> list[int]:
    """Eight queued runs, each sent once (dispatch 1)."""
    _, ids = create_queued_experiment(
        db, factors={"clients_per_thread": [1, 2, 3, 4, 5, 6, 7, 8]}, fixed=LOCAL_FIXED
    )
    sent = claim_unsent(db, experiment_id=None, limit=100, older_than_s=None)
    assert [i for i, _ in sent if i in ids] == ids
    return ids


def test_stuck_runs_by_holder_deadline_and_queue(db: Session, runs: list[int]) -> None:
    now = datetime.now(UTC)
    old = now - timedelta(seconds=settings.RESEND_AFTER_S + 60)
    lapsed = now - timedelta(seconds=settings.LEASE_GRACE_S + 60)
    soon = now + timedelta(seconds=100)
    cases: dict[str, tuple[dict[str, object], bool]] = {
        # name: (columns, expected stuck)
        "held here by a live process, due later": (
            {"held_by": f"{HERE}:{os.getpid()}", "due_at": soon},
            False,
        ),
        "held here by a dead process (a killed worker's countdown retry)": (
            {"held_by": f"{HERE}:{_dead_pid()}", "due_at": soon},
            True,
        ),
        "held on another host, due later": ({"held_by": "elsewhere:1", "due_at": soon}, False),
        "held on another host, past due + grace": (
            {"held_by": "elsewhere:1", "due_at": lapsed},
            True,
        ),
        "held here by a live process, past due + grace": (
            {"held_by": f"{HERE}:{os.getpid()}", "due_at": lapsed},
            True,
        ),
        "sent long ago, waiting in the queue": ({"sent_at": old}, False),
        "sent long ago, not in the queue (Redis restarted)": ({"sent_at": old}, True),
        "sent just now, not in the queue yet": ({}, False),
    }
    for run_id, (values, _) in zip(runs, cases.values(), strict=True):
        _set(db, run_id, **values)
    names = list(cases)
    in_queue = runs[names.index("sent long ago, waiting in the queue")]
    asked: list[bool] = []

    def waiting() -> set[tuple[int, int | None]]:
        asked.append(True)
        # The waiting run's current message, and an older message of the lost one.
        lost = runs[names.index("sent long ago, not in the queue (Redis restarted)")]
        return {(in_queue, 1), (lost, 0)}

    stuck = {i for i, _ in stuck_runs(db, waiting)}
    got = {name: runs[k] in stuck for k, name in enumerate(names)}
    assert got == {name: expected for name, (_, expected) in cases.items()}
    assert asked  # the queue was read, since there were candidates


def test_resend_numbers_a_new_message_once(db: Session, runs: list[int]) -> None:
    sent: list[list[Message]] = []
    stuck = [(runs[0], 1), (runs[1], 1)]
    assert resend(db, stuck, sent.append) == runs[:2]
    assert sent == [[(runs[0], 2), (runs[1], 2)]]
    # A second recoverer with the same (now stale) judgment sends nothing.
    assert resend(db, stuck, sent.append) == []
    assert len(sent) == 1
