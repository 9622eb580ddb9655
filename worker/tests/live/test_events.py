"""The server-sent event stream relays what the worker publishes to Redis, and only what the
worker of its own database publishes."""

import json
import os
import subprocess
import sys
import threading
import time
from typing import Any

import redis
from fastapi.testclient import TestClient
from sqlalchemy.engine import make_url

from backend.core.config import REPO_ROOT, settings
from backend.core.live import experiment_channel
from backend.tests.utils.experiment import create_random_experiment
from worker.live import publish

# Another instance's worker on the same Redis: its own database, the same experiment ids.
_OTHER_WORKER = """
import sys, time
from worker.live import publish
while True:
    publish.run_state(int(sys.argv[1]), 99, "running")
    time.sleep(0.1)
"""


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


def test_stream_events_ignores_another_database(client: TestClient) -> None:
    exp = create_random_experiment(client)
    other_url = (
        make_url(settings.DATABASE_URL)
        .set(database=f"{make_url(settings.DATABASE_URL).database}_other")
        .render_as_string(hide_password=False)
    )
    # The other instance's own subscriber: proves its worker publishes all along.
    watcher = redis.Redis.from_url(settings.REDIS_URL).pubsub(  # type: ignore[no-untyped-call]
        ignore_subscribe_messages=True
    )
    watcher.subscribe(experiment_channel(exp["id"], other_url))
    other = subprocess.Popen(
        [sys.executable, "-c", _OTHER_WORKER, str(exp["id"])],
        cwd=REPO_ROOT,
        env={**os.environ, "MCSCOPE_DATABASE_URL": other_url},
    )
    stop = threading.Event()

    def own_worker() -> None:
        while not stop.wait(0.2):
            publish.run_state(exp["id"], 7, "running")

    thread = threading.Thread(target=own_worker, daemon=True)
    try:
        other_events: list[dict[str, Any]] = []
        deadline = time.monotonic() + 30  # the other worker's interpreter starting up
        while not other_events and time.monotonic() < deadline:
            if (message := watcher.get_message(timeout=0.5)) is not None:
                other_events.append(json.loads(message["data"]))
        assert other_events, "the other instance's worker published nothing"
        thread.start()
        with client.stream(
            "GET", f"/api/v1/experiments/{exp['id']}/events", params={"max_events": 5}
        ) as r:
            assert r.status_code == 200
            events = [d for e, d in _events(list(r.iter_lines())) if e != "snapshot"]
        stop.set()
        thread.join(5)
        other.terminate()
        other.wait(10)
        # Both workers stopped: everything published is buffered in the subscriber by now.
        while (message := watcher.get_message(timeout=0.5)) is not None:
            other_events.append(json.loads(message["data"]))
    finally:
        stop.set()
        if thread.is_alive():
            thread.join(5)
        if other.poll() is None:
            other.terminate()
            other.wait(10)
        watcher.close()
    assert len(events) == 5
    assert {d["run_id"] for d in events} == {7}
    assert {d["run_id"] for d in other_events} == {99}
    # The other worker published to the same experiment id while this stream was relaying.
    first, last = events[0]["ts"], events[-1]["ts"]
    assert any(first <= d["ts"] <= last for d in other_events)
