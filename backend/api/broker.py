"""What a route answers when the message broker does not, written once: every queued action
checks the broker before it commits anything (a 503 "cannot <verb>: <why>; nothing was
queued", the transaction rolled back), and if the message itself then cannot be sent, the row
is put back where it was (or marked failed) before the 503, so no row waits for a message that
was never sent."""

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from fastapi import HTTPException, status
from sqlalchemy.orm import Session

from backend.core.queue import BrokerUnavailable, check_broker

RESPONSES: dict[int | str, dict[str, Any]] = {
    503: {"description": "The message broker (Redis) is not reachable"}
}


def unavailable(verb: str, exc: BrokerUnavailable, outcome: str) -> HTTPException:
    return HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, f"cannot {verb}: {exc}; {outcome}")


@contextmanager
def nothing_queued_without_broker(verb: str, session: Session | None = None) -> Iterator[None]:
    """Checks the broker, then runs the block (the route's conditional updates, not yet
    committed); a broker that does not answer, then or in the block, is the 503 and the
    session's changes are rolled back."""
    try:
        check_broker()
        yield
    except BrokerUnavailable as exc:
        if session is not None:
            session.rollback()
        raise unavailable(verb, exc, "nothing was queued") from exc


def require_broker(verb: str) -> None:
    """The 503 now, before anything is committed, unless the broker answers."""
    with nothing_queued_without_broker(verb):
        return


def send_or_put_back(
    session: Session,
    verb: str,
    send: Callable[[], None],
    put_back: Callable[[BrokerUnavailable], None],
    outcome: str,
) -> None:
    """Sends the message of a committed change; if it cannot be sent, `put_back` undoes the
    change (the state it came from, or failed with the broker's reason), which is committed
    before the 503 saying `outcome`."""
    try:
        send()
    except BrokerUnavailable as exc:
        put_back(exc)
        session.commit()
        raise unavailable(verb, exc, outcome) from exc
