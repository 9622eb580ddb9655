"""Factories for experiment payloads and stored experiments."""

import uuid
from typing import Any

from fastapi.testclient import TestClient


def random_name(prefix: str = "exp") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def experiment_payload(**overrides: Any) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "name": random_name(),
        "description": "two by two",
        "template": "custom",
        "factors": {"clients_per_thread": [1, 4], "workers": [8, 16]},
        "fixed": {"servers": 2, "ratio": "0:1", "value_size": 128},
        "repetitions": 2,
        "run_time_s": 30,
        "warmup_s": 5,
        "cooldown_s": 5,
    }
    payload.update(overrides)
    return payload


def create_random_experiment(client: TestClient, **overrides: Any) -> dict[str, Any]:
    r = client.post("/api/v1/experiments", json=experiment_payload(**overrides))
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body
