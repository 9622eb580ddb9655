"""Issue 30: Start of the largest allowed grid (20,000 runs) answers before the runs' messages
are sent; a maintenance-queue task sends them in the background, and the experiment's
`runs_unsent` counts down to 0. Cancel cancels every run, also those not sent yet, and
withdraws their messages from the queue (issue 41)."""

import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from backend.core import queue
from backend.core.config import settings
from backend.tests.utils.experiment import create_random_experiment
from backend.tests.utils.processes import CeleryWorkerProcess

API = "/api/v1/experiments"


def _messages_of(run_ids: set[int]) -> dict[int, int | None]:
    """run id -> dispatch of the messages waiting in the runs queue for these runs."""
    return {i: d for i, d in queue.waiting_messages() if i in run_ids}


@pytest.mark.timeout(600)
def test_start_of_a_large_grid_sends_in_the_background(client: TestClient, tmp_path: Path) -> None:
    exp = create_random_experiment(
        client,
        factors={"clients_per_thread": list(range(1, 51)), "workers": list(range(1, 41))},
        repetitions=10,
        run_time_s=5,
        warmup_s=1,
        cooldown_s=1,
    )
    assert exp["preview"]["runs"] == settings.GRID_MAX_RUNS == 20_000
    r = client.post(f"{API}/{exp['id']}/start")
    assert r.status_code == 202, r.text
    body = r.json()
    assert body["queued"] == 20_000 and body["already_done"] == 0
    # The request sent a first batch only; the rest waits for the background task.
    assert 0 < body["unsent"] < 20_000
    runs = client.get(f"{API}/{exp['id']}/runs", params={"limit": 1000})
    assert runs.json()["count"] == 20_000  # every run is queued in the database already
    run_ids = set()
    for skip in range(0, 20_000, 1000):
        page = client.get(f"{API}/{exp['id']}/runs", params={"skip": skip, "limit": 1000})
        run_ids |= {x["id"] for x in page.json()["data"]}
    try:
        assert len(_messages_of(run_ids)) == 20_000 - body["unsent"]
        assert client.get(f"{API}/{exp['id']}").json()["runs_unsent"] == body["unsent"]

        sender = CeleryWorkerProcess(log_dir=tmp_path, beat=True)
        sender.start()
        try:
            seen = [body["unsent"]]
            deadline = time.monotonic() + 300
            while seen[-1] > 0:
                assert time.monotonic() < deadline, f"runs_unsent went {seen}: {sender.log()}"
                time.sleep(0.5)
                seen.append(client.get(f"{API}/{exp['id']}").json()["runs_unsent"])
        finally:
            sender.stop()
        assert "mcscope.experiments.dispatch[" in sender.log_path.read_text()
        # Every run has exactly one message, numbered 1 (sent once, never twice).
        messages = _messages_of(run_ids)
        assert len(messages) == 20_000 and set(messages.values()) == {1}

        cancel_at = time.monotonic()
        r = client.post(f"{API}/{exp['id']}/cancel")
        assert r.status_code == 200 and r.json() == {"cancelled": 20_000, "stopping": 0}
        # Issue 41: Cancel withdrew every message; a worker has none of them to drop.
        print(f"cancel of 20,000 sent runs: {time.monotonic() - cancel_at:.2f} s")
        assert _messages_of(run_ids) == {}
        # Resume, and cancel while the background task has not sent the runs yet: every run is
        # cancelled, sent or not, and nothing is left to send.
        r = client.post(f"{API}/{exp['id']}/start")
        assert r.status_code == 202 and r.json()["unsent"] > 0, r.text
        r = client.post(f"{API}/{exp['id']}/cancel")
        assert r.json() == {"cancelled": 20_000, "stopping": 0}
        after = client.get(f"{API}/{exp['id']}").json()
        assert after["run_counts"]["cancelled"] == 20_000 and after["runs_unsent"] == 0
        assert _messages_of(run_ids) == {}
    finally:
        queue.withdraw_runs(run_ids)  # whatever a failure left: later tests' workers skip none
