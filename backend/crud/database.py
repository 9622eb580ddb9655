"""The database itself: whether it answers."""

from sqlalchemy import text
from sqlalchemy.orm import Session


def ping(*, session: Session) -> None:
    """A round trip to the database; raises when it does not answer."""
    session.execute(text("SELECT 1"))
