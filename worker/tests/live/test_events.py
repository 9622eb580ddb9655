"""The server-sent event stream relays what the worker publishes to Redis."""

import json
import threading
from typing import Any

from fastapi.testclient import TestClient

from backend.tests.utils.experiment import create_random_experiment
from worker.live import publish


def _events(lines: list[str]) -> list[tuple[str, dict[str, Any]]]:
    out, event = [], ""
    for line in lines:
        if line.startswith("event: "):
            event = line[len("event: ") :]
        elif line.startswith("data: "):
            out.append((event, json.loads(line[len("data: ") :])))
    return out


def test_stream_events_relays_published_events(client: TestClient) -> None:
    exp = create_random_experiment(client)
    stop = threading.Event()

    def publisher() -> None:
        # Repeats until the stream ends: the subscription starts at some unknown moment.
        while not stop.wait(0.2):
            publish.run_state(exp["id"], 7, "running")
            publish.progress(exp["id"], 7, "client:0", 3, 1234.5, 250.0, 6)

    thread = threading.Thread(target=publisher, daemon=True)
    thread.start()
    try:
        with client.stream(
            "GET", f"/api/v1/experiments/{exp['id']}/events", params={"max_events": 4}
        ) as r:
            assert r.status_code == 200
            assert r.headers["content-type"].startswith("text/event-stream")
            events = _events(list(r.iter_lines()))
    finally:
        stop.set()
        thread.join(5)
    assert events[0][0] == "snapshot" and events[0][1]["runs"] == {}
    kinds = {e for e, _ in events[1:]}
    assert kinds == {"run", "progress"}
    progress = next(d for e, d in events if e == "progress")
    assert progress["source"] == "client:0" and progress["ops_per_sec"] == 1234.5
    assert all(d["experiment_id"] == exp["id"] for _, d in events)


def test_stream_events_unknown_experiment(client: TestClient) -> None:
    r = client.get("/api/v1/experiments/999999/events")
    assert r.status_code == 404
    assert r.json()["detail"] == "Experiment not found"
