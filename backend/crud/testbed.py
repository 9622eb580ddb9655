"""Testbeds: listing them, finding one by name, whether experiments use one."""

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from backend.models import Experiment, Testbed


def list_testbeds(*, session: Session) -> list[Testbed]:
    """Every testbed, oldest first."""
    return list(session.scalars(select(Testbed).order_by(Testbed.id)))


def testbed_id_by_name(*, session: Session, name: str) -> int | None:
    """The id of the testbed named `name`, if any."""
    return session.scalar(select(Testbed.id).where(Testbed.name == name))


def experiments_using(*, session: Session, testbed_id: int) -> int:
    """How many experiments run on the testbed."""
    return session.scalar(select(func.count()).where(Experiment.testbed_id == testbed_id)) or 0
