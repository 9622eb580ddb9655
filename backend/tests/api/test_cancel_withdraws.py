"""Issue 41 item 5: Cancel takes its runs' messages out of the runs queue, so the next
experiment's runs are not queued behind thousands of messages the worker would only drop; a
batch a sender was sending across the Cancel is taken back too. No worker listens here: what
waits in the queue is read from Redis (the real worker's view is worker/tests/runs/
test_cancel_queue.py)."""

import json

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from backend.core import queue
from backend.crud.dispatch import Message, send_unsent
from backend.crud.run import queue_runs
from backend.models import Experiment
from backend.tests.utils.experiment import create_random_experiment

API = "/api/v1/experiments"


def _run_ids(client: TestClient, experiment_id: int) -> set[int]:
    page = client.get(f"{API}/{experiment_id}/runs", params={"limit": 1000}).json()
    return {r["id"] for r in page["data"]}


def _waiting_in_order() -> list[int]:
    """Run ids of the execute messages in the runs queue, next to be taken first."""
    with queue.producer.connection_for_write() as conn:
        raw = conn.default_channel.client.lrange(queue.RUNS_QUEUE, 0, -1)
    found = (queue._run_message(json.loads(m)) for m in raw)
    return [m[0] for m in reversed([m for m in found if m is not None])]


def test_cancel_withdraws_its_messages_and_keeps_the_others(client: TestClient) -> None:
    cancelled = create_random_experiment(
        client, factors={"clients_per_thread": list(range(1, 9))}, repetitions=1
    )
    kept = create_random_experiment(client, factors={"clients_per_thread": [1, 2]}, repetitions=1)
    for exp in (cancelled, kept):
        assert client.post(f"{API}/{exp['id']}/start").status_code == 202
    mine, theirs = _run_ids(client, cancelled["id"]), _run_ids(client, kept["id"])
    before = _waiting_in_order()
    assert mine | theirs <= set(before)

    r = client.post(f"{API}/{cancelled['id']}/cancel")
    assert r.status_code == 200 and r.json() == {"cancelled": 8, "stopping": 0}
    after = _waiting_in_order()
    assert not mine & set(after), after
    # The other experiment's messages stay, in their order.
    assert after == [i for i in before if i not in mine]
    # Its runs are still sent (dispatch 1) and a worker would run them.
    assert {i for i, d in queue.waiting_messages() if d == 1} >= theirs
    client.post(f"{API}/{kept['id']}/cancel")
    assert not theirs & set(_waiting_in_order())


def test_a_batch_sent_across_a_cancel_is_taken_back(client: TestClient, db: Session) -> None:
    """The race Cancel cannot see: a sender marked a batch sent, Cancel committed and withdrew
    (nothing of it yet), then the batch reached Redis. The sender takes it back itself."""
    created = create_random_experiment(
        client, factors={"clients_per_thread": list(range(1, 7))}, repetitions=1
    )
    exp = db.get(Experiment, created["id"])
    assert exp is not None
    queued, _ = queue_runs(session=db, experiment=exp)  # queued, unsent: as Start leaves them
    db.commit()
    batches: list[list[Message]] = []

    def cancel_then_send(messages: list[Message]) -> None:
        batches.append(messages)
        r = client.post(f"{API}/{exp.id}/cancel")
        assert r.json() == {"cancelled": 6, "stopping": 0}
        queue.enqueue_runs(messages)
        assert {i for i, _ in messages} <= {i for i, _ in queue.waiting_messages()}

    sent = send_unsent(db, cancel_then_send, experiment_id=exp.id, withdraw=queue.withdraw_runs)
    assert sent == 6 and [i for i, _ in batches[0]] == sorted(queued)
    assert not set(queued) & {i for i, _ in queue.waiting_messages()}
