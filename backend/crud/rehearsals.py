"""Rehearsals read by other routes: the one a testbed was built by (a rehearsal testbed whose
hosts were torn down takes no new runs)."""

from sqlalchemy import select
from sqlalchemy.orm import Session

from backend.domain.rehearsal_states import RehearsalStatus
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
