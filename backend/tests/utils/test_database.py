"""The test database: a module starts with every table empty, ids going on where they were."""

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from backend.core.config import settings
from backend.models import Testbed, TestbedKind
from backend.tests.utils.database import empty_tables


def _add(db: Session, name: str) -> int:
    testbed = Testbed(name=name, kind=TestbedKind.LOCAL, description="")
    db.add(testbed)
    db.commit()
    return testbed.id


def test_empty_tables_removes_every_row_and_ids_go_on(db: Session) -> None:
    first = _add(db, "to-be-emptied")
    db.close()  # no open transaction: the truncation would wait for its lock
    empty_tables(settings.DATABASE_URL)
    assert db.scalar(select(func.count()).select_from(Testbed)) == 0
    # The same unique name again, and a later id: nothing of the old row is left or reused.
    assert _add(db, "to-be-emptied") > first
