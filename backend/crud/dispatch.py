"""Which queued runs need a queue message, and the right to send one.

A queued run's message is in one of three states, read from the run's columns plus the
messages waiting in the runs queue (never from the broker's unacked messages: a killed worker's
stay there for the visibility timeout, 6 h):

- unsent (`sent_at` None): Start's sender sends it (backend.core.queue.enqueue_dispatch), or
  recovery once it is RESEND_AFTER_S old (that sender died);
- sent, waiting in the queue (`held_by` None): live while the queue holds (run, dispatch); one
  sent RESEND_AFTER_S ago and not there was lost (Redis restarted);
- held by a worker process (`held_by` host:pid, `due_at` when it runs it, set when the worker
  received it: a countdown retry waits in the worker until then): live while that process is
  alive (same host: its PID) and due_at + LEASE_GRACE_S has not passed (any host).

Sending is a conditional UPDATE that bumps `dispatch`: two senders never send the same run
twice, and a message carrying an older number is dropped by the worker (its claim is
conditional on the number), so re-sending a run whose old message surfaces later is harmless.
"""

import socket
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from sqlalchemy import and_, func, or_, select, tuple_, update
from sqlalchemy.orm import Session

from backend.core.config import settings
from backend.core.processes import owner_dead
from backend.models import Run, RunStatus

Message = tuple[int, int]  # (run id, dispatch number)
Enqueue = Callable[[list[Message]], None]
# Removes the waiting messages of these runs from the queue (backend.core.queue.withdraw_runs).
Withdraw = Callable[[list[int]], int]
# Runs marked sent per transaction, then sent: a crash between the two leaves at most this
# many for recovery to re-send.
SEND_BATCH = 500

_SENT = {"dispatch": Run.dispatch + 1, "sent_at": func.now(), "held_by": None, "due_at": None}
_UNSENT = {"sent_at": None, "held_by": None, "due_at": None}


def _mark_sent(session: Session, where: Any) -> list[Message]:
    rows = session.execute(
        update(Run)
        .where(where, Run.status == RunStatus.QUEUED)
        .values(**_SENT)
        .returning(Run.id, Run.dispatch)
    ).all()
    session.commit()
    return sorted((int(i), int(d)) for i, d in rows)  # ids ascend in queue order


def mark_sent(session: Session, run_ids: list[int]) -> list[Message]:
    """Number a new message for each of these queued runs; commits. Send what it returns."""
    return _mark_sent(session, Run.id.in_(run_ids)) if run_ids else []


def claim_unsent(
    session: Session, *, experiment_id: int | None, limit: int, older_than_s: float | None
) -> list[Message]:
    """Mark up to `limit` unsent queued runs sent, in queue order; commits. Rows another
    sender has locked are skipped, so senders at once share the work."""
    ids = select(Run.id).where(Run.status == RunStatus.QUEUED, Run.sent_at.is_(None))
    if experiment_id is not None:
        ids = ids.where(Run.experiment_id == experiment_id)
    if older_than_s is not None:
        ids = ids.where(Run.updated_at < func.now() - timedelta(seconds=older_than_s))
    picked = list(
        session.scalars(ids.order_by(Run.id).limit(limit).with_for_update(skip_locked=True))
    )
    if not picked:
        session.commit()
        return []
    return _mark_sent(session, Run.id.in_(picked))


def send_unsent(
    session: Session,
    enqueue: Enqueue,
    *,
    experiment_id: int | None = None,
    older_than_s: float | None = None,
    limit: int | None = None,
    progress: Callable[[int], None] | None = None,
    withdraw: Withdraw | None = None,
) -> int:
    """Send unsent queued runs (of one experiment, or all) in batches; how many were sent.
    With `withdraw`, a batch's runs cancelled while it was being sent have their messages
    taken back. Raises BrokerUnavailable: the batch marked sent is then re-sent by recovery."""
    sent = 0
    while limit is None or sent < limit:
        size = SEND_BATCH if limit is None else min(SEND_BATCH, limit - sent)
        messages = claim_unsent(
            session, experiment_id=experiment_id, limit=size, older_than_s=older_than_s
        )
        if not messages:
            break
        enqueue(messages)
        if withdraw is not None:
            _take_back_cancelled(session, messages, withdraw)
        sent += len(messages)
        if progress is not None:
            progress(sent)
    return sent


def _take_back_cancelled(session: Session, messages: list[Message], withdraw: Withdraw) -> None:
    """A Cancel that committed between this batch's marking and its sending withdrew nothing of
    it (backend.api.routes.experiment_runs): withdraw those messages now. Read after the
    sending, so either that Cancel's withdrawal or this read sees them."""
    ids = [i for i, _ in messages]
    cancelled = session.scalars(
        select(Run.id).where(Run.id.in_(ids), Run.status == RunStatus.CANCELLED)
    ).all()
    session.commit()  # ends the read's transaction: the sender holds no snapshot open
    if cancelled:
        withdraw(list(cancelled))


def unsent_count(session: Session, experiment_ids: list[int]) -> dict[int, int]:
    """Queued runs whose message is not sent yet, per experiment (zeros included)."""
    out = dict.fromkeys(experiment_ids, 0)
    rows = session.execute(
        select(Run.experiment_id, func.count())
        .where(
            Run.experiment_id.in_(experiment_ids),
            Run.status == RunStatus.QUEUED,
            Run.sent_at.is_(None),
        )
        .group_by(Run.experiment_id)
    ).all()
    out.update({int(e): int(n) for e, n in rows})
    return out


def stuck_runs(
    session: Session,
    waiting: Callable[[], set[tuple[int, int | None]]],
    *,
    experiment_id: int | None = None,
) -> list[Message]:
    """Queued runs sent but without a live message (module docstring); `waiting` lists the
    messages in the runs queue and is called only when there are candidates. Reads only; the
    caller's transaction stays open."""
    now = session.scalar(select(func.now()))
    assert now is not None
    lost_before = now - timedelta(seconds=settings.RESEND_AFTER_S)
    lapsed_before = now - timedelta(seconds=settings.LEASE_GRACE_S)
    here = f"{socket.gethostname()}:"
    query = select(Run.id, Run.dispatch, Run.held_by, Run.due_at).where(
        Run.status == RunStatus.QUEUED,
        Run.sent_at.is_not(None),
        or_(
            and_(Run.held_by.is_(None), Run.sent_at < lost_before),
            and_(
                Run.held_by.is_not(None),
                or_(Run.due_at.is_(None), Run.due_at < lapsed_before, Run.held_by.startswith(here)),
            ),
        ),
    )
    if experiment_id is not None:
        query = query.where(Run.experiment_id == experiment_id)
    rows = session.execute(query).all()
    candidates = [
        (int(run_id), int(dispatch))
        for run_id, dispatch, holder, due in rows
        if holder is None or due is None or due < lapsed_before or owner_dead(holder)
    ]
    if not candidates:
        return []
    listed = waiting()
    return [(i, d) for i, d in candidates if (i, d) not in listed and (i, None) not in listed]


def resend(session: Session, stuck: list[Message], enqueue: Enqueue) -> list[int]:
    """A new message for each stuck (run, dispatch) still in that state; the run ids sent."""
    if not stuck:
        return []
    messages = _mark_sent(session, tuple_(Run.id, Run.dispatch).in_(stuck))
    if messages:
        enqueue(messages)
    return [i for i, _ in messages]


def release(session: Session, stuck: list[Message]) -> int:
    """Mark stuck runs unsent, for Start's sender; not committed. How many."""
    if not stuck:
        return 0
    done: int = session.execute(
        update(Run)
        .where(tuple_(Run.id, Run.dispatch).in_(stuck), Run.status == RunStatus.QUEUED)
        .values(**_UNSENT)
    ).rowcount  # type: ignore[attr-defined]  # UPDATE gives a CursorResult
    return done
