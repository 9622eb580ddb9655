"""Build a rehearsal recorded in the database and register it as a testbed; tear one down.

The build task takes the rehearsal's id, claims it (queued to building, a conditional UPDATE),
checks this machine again (the API checked its own), builds the hosts through
backend.rehearsal.build while recording each name on the row, then registers them as the hosts
of a `rehearsal` testbed, each with the host key its sshd serves pinned as supplied. A build
that fails tears down what it made and says why on its row.

A teardown (Delete, the expiry, the janitor) first ends the testbed's queued and running runs
(their worker lets go at its next heartbeat instead of reaching for the hosts), then removes
everything the row records, and marks the rehearsal deleted only when nothing is left."""

import logging
from datetime import UTC, datetime

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from backend.core.db import SessionLocal
from backend.core.processes import process_identity
from backend.crud.network import request_measurement
from backend.crud.testbed import SuppliedHost, register_with_supplied_keys
from backend.domain.rehearsal_states import RehearsalStatus
from backend.models import (
    Experiment,
    Rehearsal,
    Run,
    RunStatus,
    Testbed,
    TestbedKind,
)
from backend.rehearsal.build import BuiltHost, build, teardown
from backend.rehearsal.capabilities import missing_capability
from backend.rehearsal.topology import RehearsalHost
from worker.live import publish
from worker.runs.lifecycle import TESTBED_DELETED

__all__ = ["TESTBED_DELETED", "build_rehearsal", "delete_rehearsal", "tear_down"]

logger = logging.getLogger(__name__)

MAX_ERROR = 4000
_UNFINISHED = (RunStatus.QUEUED, RunStatus.RUNNING)


def _claim(session: Session, rehearsal_id: int, worker: str) -> bool:
    claimed = session.execute(
        update(Rehearsal)
        .where(Rehearsal.id == rehearsal_id, Rehearsal.status == RehearsalStatus.QUEUED.value)
        .values(
            status=RehearsalStatus.BUILDING.value, worker=worker, heartbeat_at=datetime.now(UTC)
        )
    ).rowcount  # type: ignore[attr-defined]
    session.commit()
    return bool(claimed)


def _register(session: Session, row: Rehearsal, network: str, built: list[BuiltHost]) -> Testbed:
    return register_with_supplied_keys(
        session=session,
        name=row.name,
        kind=TestbedKind.REHEARSAL,
        description=f"Rehearsal of an Azure plan on this machine: namespace hosts on {network}",
        hosts=[
            SuppliedHost(
                name=b.planned.name,
                role=b.planned.role,
                address=b.address,
                ssh_user=b.ssh_user,
                key_path=b.key_path,
                host_key=b.host_key,
                size=b.planned.size,
                link_cap_mbit_s=b.planned.mbit_s,
                link_cap_basis=b.planned.basis,
            )
            for b in built
        ],
    )


def _fail(session: Session, row: Rehearsal, error: str) -> None:
    """Tear down what the build made, then record why it failed (and anything left)."""
    left = teardown(list(row.made))
    if left:
        error += f"; not removed yet (the janitor retries): {', '.join(left)}"
    row.made = left
    row.status = RehearsalStatus.FAILED.value
    row.error = error[:MAX_ERROR]
    session.commit()
    logger.warning("rehearsal.failed", extra={"rehearsal_id": row.id, "error": row.error})


def build_rehearsal(rehearsal_id: int) -> None:
    """Carry out one rehearsal's build; one not queued (taken, done) is left alone."""
    worker = process_identity()
    with SessionLocal() as session:
        if not _claim(session, rehearsal_id, worker):
            logger.info("rehearsal.not_queued", extra={"rehearsal_id": rehearsal_id})
            return
        row = session.get(Rehearsal, rehearsal_id)
        assert row is not None  # claimed just now
        _build_claimed(session, row)


def _build_claimed(session: Session, row: Rehearsal) -> None:
    missing = missing_capability()
    if missing is not None:
        _fail(session, row, f"this machine cannot build namespace hosts: {missing}")
        return
    hosts = [RehearsalHost(**h) for h in row.hosts]

    def record(item: str) -> None:
        row.made = [*row.made, item]
        row.heartbeat_at = datetime.now(UTC)
        session.commit()

    try:
        network, built = build(row.tag, hosts, record)
    except Exception as exc:  # any step: tear down, and say which
        logger.exception("rehearsal.build_failed", extra={"rehearsal_id": row.id})
        _fail(session, row, f"building the hosts failed: {exc}")
        return
    row.network = network
    try:
        testbed = _register(session, row, network, built)
    except IntegrityError:
        session.rollback()
        _fail(session, row, f"a testbed named {row.name!r} already exists")
        return
    row.status = RehearsalStatus.READY.value
    row.testbed_id = testbed.id
    session.commit()
    logger.info("rehearsal.ready", extra={"rehearsal_id": row.id, "testbed_id": testbed.id})
    # Built: its round trips between roles, measured by the maintenance worker.
    request_measurement(session=session, testbed=testbed, bandwidth=False)


def end_runs(session: Session, testbed_id: int | None, reason: str) -> list[int]:
    """Fail the queued and running runs on this testbed with `reason`; their ids."""
    if testbed_id is None:
        return []
    experiments = select(Experiment.id).where(Experiment.testbed_id == testbed_id)
    ended = session.execute(
        update(Run)
        .where(Run.experiment_id.in_(experiments), Run.status.in_(_UNFINISHED))
        .values(status=RunStatus.FAILED, error=reason, finished_at=func.now())
        .returning(Run.id, Run.experiment_id)
    ).all()
    session.commit()
    for run_id, experiment_id in ended:
        publish.run_state(experiment_id, run_id, RunStatus.FAILED.value, reason)
    return sorted(r for r, _ in ended)


def tear_down(
    session: Session,
    row: Rehearsal,
    reason: str,
    done: RehearsalStatus = RehearsalStatus.DELETED,
    error: str | None = None,
) -> bool:
    """End the testbed's runs with `reason` and remove everything recorded. True when nothing
    is left: the rehearsal is then `done` (deleted, or failed with `error`); else it stays
    `deleting` saying what is left, for the janitor's next pass."""
    ended = end_runs(session, row.testbed_id, reason)
    left = teardown(list(row.made))
    row.made = left
    if left:
        row.status = RehearsalStatus.DELETING.value
        row.error = f"not removed yet (the janitor retries): {', '.join(left)}"[:MAX_ERROR]
    else:
        row.status, row.error = done.value, error
        if done is RehearsalStatus.DELETED:
            row.deleted_at = datetime.now(UTC)
    session.commit()
    logger.warning(
        "rehearsal.torn_down",
        extra={"rehearsal_id": row.id, "runs_ended": ended, "left": left, "why": reason},
    )
    return not left


def delete_rehearsal(rehearsal_id: int, reason: str) -> None:
    """Tear down a rehearsal the API moved to `deleting`."""
    with SessionLocal() as session:
        row = session.get(Rehearsal, rehearsal_id)
        if row is None or row.status != RehearsalStatus.DELETING.value:
            logger.info("rehearsal.not_deleting", extra={"rehearsal_id": rehearsal_id})
            return
        row.worker, row.heartbeat_at = process_identity(), datetime.now(UTC)
        session.commit()
        tear_down(session, row, reason)
