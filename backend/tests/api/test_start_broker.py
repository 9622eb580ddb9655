"""Start with the message broker down: 503 with a clear message, and nothing left queued."""

import socket

import pytest
from celery import Celery
from fastapi.testclient import TestClient

from backend.core import queue
from backend.tests.utils.experiment import create_random_experiment

API = "/api/v1/experiments"


def _unused_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_start_with_broker_down_answers_503_and_queues_nothing(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    down = Celery("down", broker=f"redis://127.0.0.1:{_unused_port()}/0")
    down.conf.broker_transport_options = queue.producer.conf.broker_transport_options
    down.conf.broker_connection_timeout = queue.BROKER_TIMEOUT_S
    monkeypatch.setattr(queue, "producer", down)
    exp = create_random_experiment(client)
    r = client.post(f"{API}/{exp['id']}/start")
    assert r.status_code == 503, r.text
    detail = r.json()["detail"]
    assert "message broker" in detail and "not reachable" in detail
    assert "nothing was queued" in detail
    assert client.get(f"{API}/{exp['id']}/runs").json()["count"] == 0
