"""The New Azure testbed page's API against the fake ARM with the real SDK: the plan (every
resource in the order the worker then creates them, the quota, the price per hour and to the
expiry with each price's date and source, a size without a price said so), a quota too small
named with its numbers, and a lab created, stopped, started and deleted through the API by a
real Celery worker pointed at the fake by the settings."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete
from sqlalchemy.orm import Session

from backend.azure import provisioning
from backend.azure.arm import Arm
from backend.azure.lab_spec import LabSpec
from backend.core.config import settings
from backend.models import AzureLab, AzureLabStatus, Testbed, VmPrice
from backend.tests.utils.azure_plans import plan_request
from backend.tests.utils.processes import CeleryWorkerProcess
from infra.tests.fake_arm import SUBSCRIPTION, TOKEN, FakeArm

# Reaches the test hosts but runs no load on them: with the load-free tests (conftest.py).
pytestmark = [pytest.mark.integration, pytest.mark.hosts_without_load]

NAME = "azact"


@pytest.fixture()
def lab_name() -> str:
    return NAME


@pytest.fixture()
def forget_labs(db: Session) -> Iterator[list[str]]:
    """Names of labs the test makes: after it (passed or not), their rows and testbeds are
    removed, so a later test may plan a lab of the same name (the plan refuses a testbed name
    in use) whatever the order."""
    names: list[str] = []
    yield names
    db.rollback()
    db.execute(delete(AzureLab).where(AzureLab.name.in_(names)))
    db.execute(delete(Testbed).where(Testbed.name.in_(names)))  # its hosts cascade
    db.commit()


def _env(fake: FakeArm) -> dict[str, str]:
    """The settings that point the engine (API and worker alike) at the fake."""
    return {
        "MCSCOPE_AZURE_SUBSCRIPTION_ID": SUBSCRIPTION,
        "MCSCOPE_AZURE_ARM_URL": fake.base_url,
        "MCSCOPE_AZURE_CA_BUNDLE": str(fake.cert),
        "MCSCOPE_AZURE_ACCESS_TOKEN": TOKEN,
        "MCSCOPE_AZURE_POLLING_INTERVAL_S": "0.05",
    }


@pytest.fixture()
def body(small_lab: LabSpec, fake_arm: FakeArm, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    key = Path(small_lab.ssh_private_key_path)
    monkeypatch.setattr(settings, "SSH_KEY_DIR", key.parent)
    monkeypatch.setattr(settings, "AZURE_SUBSCRIPTION_ID", SUBSCRIPTION)
    monkeypatch.setattr(settings, "AZURE_ARM_URL", fake_arm.base_url)
    monkeypatch.setattr(settings, "AZURE_CA_BUNDLE", fake_arm.cert)
    monkeypatch.setattr(settings, "AZURE_ACCESS_TOKEN", TOKEN)
    monkeypatch.setattr(settings, "AZURE_POLLING_INTERVAL_S", 0.05)
    return plan_request(
        NAME,
        key_path=key.name,
        subnet_prefix=str(fake_arm.hosts.allowed),
        jump_host=True,
        expires_in_hours=2,
        budget=1.0,
    )


@pytest.fixture()
def worker(fake_arm: FakeArm, tmp_path: Path, database: str) -> Iterator[CeleryWorkerProcess]:
    """A real worker on the Azure queue (lab tasks), pointed at the fake by its environment."""
    proc = CeleryWorkerProcess(
        log_dir=tmp_path, beat=True, env=_env(fake_arm), queue_suffix=".azure"
    )
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


def _put_price(client: TestClient, size: str, price: float) -> None:
    r = client.put(f"/api/v1/prices/westeurope/{size}", json={"price_per_hour": price})
    assert r.status_code == 200, r.text


def _wait(
    client: TestClient, lab_id: int, state: str, worker: CeleryWorkerProcess
) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        lab: dict[str, Any] = client.get(f"/api/v1/azure-labs/{lab_id}").json()
        if lab["status"] == state:
            return lab
        assert lab["status"] != "failed", lab["error"]
        time.sleep(0.2)
    raise AssertionError(f"lab {lab_id} never became {state}: {lab}\n{worker.log()}")


def test_plan_lists_resources_quota_and_prices(
    client: TestClient, db: Session, fake_arm: FakeArm, body: dict[str, Any]
) -> None:
    # The jump host's size must start unpriced (other modules of the session price it).
    db.execute(delete(VmPrice).where(VmPrice.size == "Standard_B2s"))
    db.commit()
    _put_price(client, "Standard_A1_v2", 0.05)
    _put_price(client, "Standard_A2_v2", 0.1)
    r = client.post("/api/v1/azure-labs/plan", json=body)
    assert r.status_code == 200, r.text
    plan = r.json()
    labels = [res["label"] for res in plan["resources"]]
    assert labels == [
        "resource group mcscope-azact",
        "network security group mcscope-nsg",
        "virtual network mcscope-vnet",
        "public IP azact-jump-ip",
        "network interface azact-jump-nic",
        "network interface azact-server-1-nic",
        "network interface azact-middleware-1-nic",
        "network interface azact-client-1-nic",
        "virtual machine azact-jump",
        "virtual machine azact-server-1",
        "virtual machine azact-middleware-1",
        "virtual machine azact-client-1",
    ]
    vms = [(r["name"], r["role"], r["size"]) for r in plan["resources"] if r["size"]]
    assert vms[0] == ("azact-jump", "jump", "Standard_B2s")
    # 1 + 2 + 2 Av2 vCPUs, 2 B-series for the jump host; the fake's limit is 100 each.
    quota = {q["family"]: (q["needed"], q["used"], q["limit"]) for q in plan["quota"]["lines"]}
    assert quota == {
        "standardAv2Family": (5, 0, 100),
        "standardBSFamily": (2, 0, 100),
        "cores": (7, 0, 100),
    }
    assert plan["quota"]["checked"] and plan["quota"]["error"] is None
    # The jump host's size has no price: no total is guessed, the size is named.
    assert plan["per_hour"]["per_hour"] is None
    assert plan["per_hour"]["unpriced"] == ["westeurope/Standard_B2s"]
    priced = {v["size"]: v["price"] for v in plan["per_hour"]["vms"]}
    assert priced["Standard_A2_v2"]["price_per_hour"] == 0.1
    assert priced["Standard_A2_v2"]["source"] == "user" and priced["Standard_A2_v2"]["fetched_at"]
    assert fake_arm.requests("PUT") == []  # nothing created

    _put_price(client, "Standard_B2s", 0.04)
    plan = client.post("/api/v1/azure-labs/plan", json=body).json()
    per_hour = 0.05 + 0.1 + 0.1 + 0.04
    assert plan["per_hour"]["per_hour"] == pytest.approx(per_hour)
    assert plan["until_expiry"]["amount"] == pytest.approx(2 * per_hour)
    assert plan["until_expiry"]["hours"] == 2 and plan["over_budget"] is False
    over = client.post("/api/v1/azure-labs/plan", json={**body, "budget": 0.5}).json()
    assert over["over_budget"] is True


def test_plan_names_the_family_short_of_quota(
    client: TestClient, fake_arm: FakeArm, body: dict[str, Any]
) -> None:
    fake_arm.set_quota("standardAv2Family", 4)
    plan = client.post("/api/v1/azure-labs/plan", json=body).json()
    assert plan["quota"]["error"] == (
        "not enough vCPU quota in westeurope: standardAv2Family: needs 5 vCPUs, 0 of 4 in use"
        " (4 free)"
    )
    assert [q["fits"] for q in plan["quota"]["lines"] if q["family"] == "standardAv2Family"] == [
        False
    ]


def test_expiry_above_the_setting_names_the_field(
    client: TestClient, body: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(settings, "AZURE_MAX_EXPIRY_HOURS", 8.0)
    for path in ("/api/v1/azure-labs/plan", "/api/v1/azure-labs"):
        r = client.post(path, json={**body, "expires_in_hours": 9})
        assert r.status_code == 422, r.text
        (item,) = r.json()["detail"]
        assert item["loc"] == ["body", "expires_in_hours"] and "at most 8 h" in item["msg"]
    defaults = client.get("/api/v1/azure-labs/defaults").json()
    assert (defaults["default_expiry_hours"], defaults["max_expiry_hours"]) == (4.0, 8.0)
    assert [t["name"] for t in defaults["templates"]] == ["reports", "two-middlewares", "custom"]
    assert (defaults["templates"][0]["clients"], defaults["templates"][0]["servers"]) == (3, 3)


def test_create_stop_start_delete_through_a_worker(
    forget_labs: list[str],
    client: TestClient,
    arm: Arm,
    fake_arm: FakeArm,
    body: dict[str, Any],
    worker: CeleryWorkerProcess,
) -> None:
    body = {**body, "jump_host": False}
    forget_labs.append(NAME)
    r = client.post("/api/v1/azure-labs", json=body)
    assert r.status_code == 202, r.text
    lab = r.json()
    lab = _wait(client, lab["id"], "ready", worker)
    # The page's per-resource progress: what was planned is what was created, in order.
    assert lab["progress"] == lab["planned"] and len(lab["planned"]) == 9

    r = client.post(f"/api/v1/azure-labs/{lab['id']}/start")
    assert (r.status_code, r.json()["detail"]) == (409, "cannot start a lab that is ready")
    r = client.post(f"/api/v1/azure-labs/{lab['id']}/stop")
    assert (r.status_code, r.json()["status"]) == (202, "stopping")
    _wait(client, lab["id"], "stopped", worker)
    assert {s.power_state for s in provisioning.status(arm, "mcscope-azact")} == {"deallocated"}

    r = client.post(f"/api/v1/azure-labs/{lab['id']}/start")
    assert r.status_code == 202, r.text
    _wait(client, lab["id"], "ready", worker)
    assert {s.power_state for s in provisioning.status(arm, "mcscope-azact")} == {"running"}

    r = client.request("DELETE", f"/api/v1/azure-labs/{lab['id']}", json={"name": "azac"})
    assert r.status_code == 422
    (item,) = r.json()["detail"]
    assert item["loc"] == ["body", "name"] and "type the lab's name 'azact'" in item["msg"]
    assert client.get(f"/api/v1/azure-labs/{lab['id']}").json()["status"] == "ready"
    r = client.request("DELETE", f"/api/v1/azure-labs/{lab['id']}", json={"name": NAME})
    assert (r.status_code, r.json()["status"]) == (202, "deleting")
    done = _wait(client, lab["id"], "deleted", worker)
    assert done["deleted_at"] is not None
    assert fake_arm.resource_ids() == []
    r = client.post(f"/api/v1/azure-labs/{lab['id']}/stop")
    assert (r.status_code, r.json()["detail"]) == (409, "cannot stop a lab that is deleted")


def test_a_lab_the_janitor_deleted_cannot_be_stopped(
    forget_labs: list[str], client: TestClient, db: Session
) -> None:
    forget_labs.append("gone")
    row = AzureLab(
        name="gone",
        spec={},
        status=AzureLabStatus.READY.value,
        progress=[],
        resource_group="mcscope-gone",
        deleted_at=datetime.now(UTC),
    )
    db.add(row)
    db.commit()
    r = client.post(f"/api/v1/azure-labs/{row.id}/stop")
    assert (r.status_code, r.json()["detail"]) == (409, "cannot stop a lab that is deleted")
    db.refresh(row)
    assert row.status == AzureLabStatus.READY.value
