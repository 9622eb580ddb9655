"""POST /api/v1/azure-labs on the real API: a valid request is committed as a queued lab and
its creation task is sent to the broker; the worker's task body (run here on the fake ARM)
makes it a testbed the API then shows. Bad values are 422s naming the request field."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest
import redis
from fastapi.testclient import TestClient

from backend.azure import provisioning
from backend.azure.arm import Arm, connect
from backend.azure.lab_creation import create_lab
from backend.azure.lab_spec import LabSpec
from backend.core.config import settings
from backend.core.queue import AZURE_CREATE_LAB_TASK, AZURE_QUEUE
from backend.tests.utils.azure_plans import plan_request
from infra.tests.conftest import fake_options
from infra.tests.fake_arm import SUBSCRIPTION, FakeArm, FakeCredential

# Reaches the test hosts but runs no load on them: with the load-free tests (conftest.py).
pytestmark = pytest.mark.hosts_without_load


@pytest.fixture()
def lab_name() -> str:
    return "azroute"


@pytest.fixture()
def body(small_lab: LabSpec, fake_arm: FakeArm, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    key = Path(small_lab.ssh_private_key_path)
    monkeypatch.setattr(settings, "SSH_KEY_DIR", key.parent)
    return plan_request(
        "azroute", key_path=key.name, subnet_prefix=str(fake_arm.hosts.allowed), owner="alice"
    )


def _take_lab_messages() -> list[int]:
    """Lab ids of the creation messages in this session's maintenance queue (taken out)."""
    r = redis.Redis.from_url(settings.REDIS_URL, decode_responses=True)
    ids = []
    for raw in r.lrange(AZURE_QUEUE, 0, -1):
        assert isinstance(raw, str)  # decoded
        msg = json.loads(raw)
        if msg["headers"]["task"] == AZURE_CREATE_LAB_TASK:
            ids.append(int(json.loads(base64.b64decode(msg["body"]))[0][0]))
            r.lrem(AZURE_QUEUE, 1, raw)
    return ids


@pytest.mark.integration
def test_post_queues_a_lab_the_worker_turns_into_a_testbed(
    client: TestClient, arm: Arm, fake_arm: FakeArm, body: dict[str, Any]
) -> None:
    r = client.post("/api/v1/azure-labs", json=body)
    assert r.status_code == 202, r.text
    lab = r.json()
    assert (lab["status"], lab["resource_group"], lab["testbed_id"]) == (
        "queued",
        "mcscope-azroute",
        None,
    )
    assert _take_lab_messages() == [lab["id"]]
    assert fake_arm.requests() == []  # the API itself creates nothing on Azure

    # What the worker does with that message.
    create_lab(
        lab["id"], arm_for=lambda: connect(SUBSCRIPTION, FakeCredential(), fake_options(fake_arm))
    )
    r = client.get(f"/api/v1/azure-labs/{lab['id']}")
    assert r.status_code == 200
    done = r.json()
    assert done["status"] == "ready" and done["error"] is None
    assert len(done["progress"]) == 9 and done["expires_at"] is not None
    tags = provisioning.group_tags(arm, "mcscope-azroute")
    assert tags is not None and tags["mcscope-owner"] == "alice"
    testbed = client.get(f"/api/v1/testbeds/{done['testbed_id']}").json()
    assert (testbed["name"], testbed["kind"]) == ("azroute", "azure")
    assert [(h["name"], h["role"], h["host_key_source"]) for h in testbed["hosts"]] == [
        ("azroute-server-1", "server", "supplied"),
        ("azroute-middleware-1", "middleware", "supplied"),
        ("azroute-client-1", "client", "supplied"),
    ]
    listed = client.get("/api/v1/azure-labs").json()
    assert listed["data"][0]["id"] == lab["id"]

    # The testbed name is now taken.
    r = client.post("/api/v1/azure-labs", json=body)
    assert r.status_code == 422
    assert r.json()["detail"][0]["loc"] == ["body", "name"]
    provisioning.delete(arm, "mcscope-azroute")


@pytest.mark.parametrize(
    ("change", "loc", "words"),
    [
        ({"key_path": "../../etc/passwd"}, ["body", "key_path"], "under the key folder"),
        ({"servers": {"count": 1, "size": "Basic_A1"}}, ["body", "servers", "size"], "retired"),
        ({"clients": {"count": 0, "size": "Standard_A2_v2"}}, ["body", "clients"], "at least 1"),
        ({"ssh_source_cidr": "0.0.0.0/0"}, ["body", "ssh_source_cidr"], "whole internet"),
        ({"subnet_prefix": "10.42.1.7/24"}, ["body", "subnet_prefix"], "CIDR"),
        ({"zone": "4"}, ["body", "zone"], "'1', '2' or '3'"),
    ],
)
def test_bad_values_name_the_field(
    client: TestClient,
    body: dict[str, Any],
    change: dict[str, Any],
    loc: list[str],
    words: str,
) -> None:
    r = client.post("/api/v1/azure-labs", json={**body, **change})
    assert r.status_code == 422, r.text
    (item,) = r.json()["detail"]
    assert item["loc"] == loc
    assert words in item["msg"]
    assert _take_lab_messages() == []


def test_a_public_key_that_is_none_names_key_path(
    client: TestClient, body: dict[str, Any], login_keys: tuple[Path, Path]
) -> None:
    bad = login_keys[0].with_name("not_a_key")
    bad.write_text("-----BEGIN OPENSSH PRIVATE KEY-----\n")
    bad.with_suffix(".pub").write_text("hello\n")
    r = client.post("/api/v1/azure-labs", json={**body, "key_path": bad.name})
    assert r.status_code == 422, r.text
    (item,) = r.json()["detail"]
    assert item["loc"] == ["body", "key_path"] and "not an OpenSSH public key" in item["msg"]


def test_unknown_lab_is_404(client: TestClient) -> None:
    r = client.get("/api/v1/azure-labs/999999")
    assert (r.status_code, r.json()["detail"]) == (404, "Azure lab not found")
