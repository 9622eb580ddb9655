"""The Azure engine's lab moves (backend.crud.azure_lab) on real rows: each is a conditional
UPDATE that moves a lab once and says whether it did, and none commits (the engine does)."""

import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime

import pytest
from sqlalchemy import delete
from sqlalchemy.orm import Session

from backend.crud.azure_group import record_groups_deleted
from backend.crud.azure_lab import (
    claim_lab,
    fail_creation,
    failed_groups,
    requeue_creation,
    stop_ready_lab,
)
from backend.models import AzureLab, AzureLabStatus

MakeLab = Callable[..., AzureLab]


@pytest.fixture()
def make_lab(db: Session) -> Iterator[MakeLab]:
    """Adds labs under unique names (the database is the session's) and removes them after."""
    made: list[int] = []

    def make(status: AzureLabStatus, group: str | None = None) -> AzureLab:
        name = f"crud-{uuid.uuid4().hex[:8]}"
        row = AzureLab(
            name=name,
            spec={},
            status=status.value,
            progress=[],
            resource_group=group or f"mcscope-{name}",
        )
        db.add(row)
        db.commit()
        made.append(row.id)
        return row

    yield make
    db.rollback()
    db.execute(delete(AzureLab).where(AzureLab.id.in_(made)))
    db.commit()


def test_a_claim_moves_a_queued_lab_once(db: Session, make_lab: MakeLab) -> None:
    lab = make_lab(AzureLabStatus.QUEUED)
    assert claim_lab(session=db, lab_id=lab.id, worker="here:1")
    db.rollback()  # not committed: the lab is queued still
    db.refresh(lab)
    assert (lab.status, lab.attempt) == (AzureLabStatus.QUEUED.value, 0)
    assert claim_lab(session=db, lab_id=lab.id, worker="here:1")
    db.commit()
    assert not claim_lab(session=db, lab_id=lab.id, worker="here:2")
    db.refresh(lab)
    assert (lab.status, lab.worker, lab.attempt) == ("creating", "here:1", 1)
    assert lab.heartbeat_at is not None


def test_an_orphan_moves_only_in_the_attempt_looked_at(db: Session, make_lab: MakeLab) -> None:
    lab = make_lab(AzureLabStatus.QUEUED)
    assert claim_lab(session=db, lab_id=lab.id, worker="gone:1")
    db.commit()
    # A second worker's claim (attempt 2) came between the janitor's look and its move.
    assert not requeue_creation(session=db, lab_id=lab.id, attempt=2, note="x")
    assert not fail_creation(session=db, lab_id=lab.id, attempt=2, error="x")
    assert requeue_creation(session=db, lab_id=lab.id, attempt=1, note="resuming")
    db.commit()
    db.refresh(lab)
    assert (lab.status, lab.error, lab.heartbeat_at) == ("queued", "resuming", None)
    assert not fail_creation(session=db, lab_id=lab.id, attempt=1, error="x")  # not creating


def test_only_a_ready_lab_is_stopped(db: Session, make_lab: MakeLab) -> None:
    ready = make_lab(AzureLabStatus.READY)
    creating = make_lab(AzureLabStatus.CREATING)
    assert not stop_ready_lab(session=db, resource_group=creating.resource_group)
    assert stop_ready_lab(session=db, resource_group=ready.resource_group)
    db.commit()
    assert not stop_ready_lab(session=db, resource_group=ready.resource_group)
    db.refresh(ready)
    assert ready.status == AzureLabStatus.STOPPED.value


def test_a_failed_group_a_live_lab_reuses_is_left_alone(db: Session, make_lab: MakeLab) -> None:
    failed = make_lab(AzureLabStatus.FAILED)
    reused = make_lab(AzureLabStatus.FAILED)
    make_lab(AzureLabStatus.QUEUED, reused.resource_group)
    groups = failed_groups(session=db)
    assert failed.resource_group in groups and reused.resource_group not in groups
    assert record_groups_deleted(session=db, resource_groups=[failed.resource_group], at=_now())
    db.commit()
    assert failed.resource_group not in failed_groups(session=db)
    assert (
        record_groups_deleted(session=db, resource_groups=[failed.resource_group], at=_now()) == 0
    )


def _now() -> datetime:
    return datetime.now(UTC)
