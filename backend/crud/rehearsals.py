"""Rehearsals: listing them, the hosts and names live ones hold, moving one to deleting with
a conditional UPDATE (two clicks move it once), and the one a testbed was built by (a
rehearsal testbed whose hosts were torn down takes no new runs)."""

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from backend.domain.rehearsal_states import DELETABLE, LIVE, RehearsalStatus
from backend.models import Rehearsal, Testbed, TestbedKind


def rehearsal_of(session: Session, testbed_id: int) -> Rehearsal | None:
    """The rehearsal that registered this testbed (None: not a rehearsal testbed)."""
    return session.scalar(
        select(Rehearsal).where(Rehearsal.testbed_id == testbed_id).order_by(Rehearsal.id.desc())
    )


def gone_rehearsal(session: Session, testbed_id: int) -> str | None:
    """Why runs cannot start on this testbed when it is a rehearsal whose hosts are gone (or
    going); None when they can."""
    testbed = session.get(Testbed, testbed_id)
    if testbed is None or testbed.kind is not TestbedKind.REHEARSAL:
        return None
    row = rehearsal_of(session, testbed_id)
    if row is not None and row.status == RehearsalStatus.READY.value:
        return None
    state = "gone" if row is None else row.status
    return (
        f"testbed {testbed.name!r} is a rehearsal whose hosts are {state}: "
        "rehearse the plan again (New Azure testbed, Rehearse locally)"
    )


def list_rehearsals(*, session: Session, skip: int, limit: int) -> tuple[list[Rehearsal], int]:
    """The rehearsals of one page, newest first, and how many there are."""
    rows = session.scalars(
        select(Rehearsal).order_by(Rehearsal.id.desc()).offset(skip).limit(limit)
    ).all()
    count = session.scalar(select(func.count()).select_from(Rehearsal)) or 0
    return list(rows), count


def live_host_count(*, session: Session) -> int:
    """How many hosts the live rehearsals hold (the machine-wide limit counts them)."""
    rows = session.scalars(
        select(Rehearsal.hosts).where(Rehearsal.status.in_([s.value for s in LIVE]))
    ).all()
    return sum(len(h) for h in rows)


def live_rehearsal_named(*, session: Session, name: str) -> int | None:
    """The id of a live rehearsal of this name, if any."""
    return session.scalar(
        select(Rehearsal.id).where(
            Rehearsal.name == name, Rehearsal.status.in_([s.value for s in LIVE])
        )
    )


def used_tags(*, session: Session) -> set[str]:
    """Every tag a rehearsal of this database holds."""
    return set(session.scalars(select(Rehearsal.tag)))


def start_deleting(*, session: Session, rehearsal_id: int) -> bool:
    """Move the rehearsal to deleting if its state allows it; whether it moved (not
    committed)."""
    moved = session.execute(
        update(Rehearsal)
        .where(
            Rehearsal.id == rehearsal_id,
            Rehearsal.status.in_([s.value for s in DELETABLE]),
        )
        .values(status=RehearsalStatus.DELETING.value, heartbeat_at=func.now())
    ).rowcount  # type: ignore[attr-defined]
    return bool(moved)


def set_rehearsal_status(*, session: Session, rehearsal_id: int, status: str) -> None:
    """Put the rehearsal back in `status` (a task that could not be sent; not committed)."""
    session.execute(update(Rehearsal).where(Rehearsal.id == rehearsal_id).values(status=status))
