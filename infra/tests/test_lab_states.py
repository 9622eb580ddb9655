"""An Azure lab in every state: the actions it allows come from the one transition table, a
failed creation can always be deleted (at once when it made nothing, without a subscription),
and a failed action puts the lab back in the state it was in, never a state it was not in."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from backend.azure.arm import Arm
from backend.azure.lab_power import delete_lab, stop_lab
from backend.core.config import settings
from backend.domain.azure_lab_states import LAB_TRANSITIONS, AzureLabStatus, LabAction
from backend.models import AzureLab, VmPrice
from backend.tests.utils.azure_plans import plan_request


def _lab(db: Session, name: str, status: AzureLabStatus, progress: list[str]) -> AzureLab:
    row = AzureLab(
        name=name,
        spec={},
        status=status.value,
        progress=progress,
        resource_group=f"mcscope-{name}",
        error="creating failed: no subscription" if status is AzureLabStatus.FAILED else None,
    )
    db.add(row)
    db.commit()
    return row


def _no_azure() -> Arm:
    raise RuntimeError("no Azure subscription is configured (MCSCOPE_AZURE_SUBSCRIPTION_ID)")


def test_served_actions_follow_the_table(client: TestClient, db: Session) -> None:
    expected = {
        AzureLabStatus.READY: ["stop", "delete"],
        AzureLabStatus.STOPPED: ["start", "delete"],
        AzureLabStatus.FAILED: ["delete"],
        AzureLabStatus.CREATING: [],
        AzureLabStatus.DELETING: [],
    }
    for status, actions in expected.items():
        row = _lab(db, f"act-{status.value}", status, ["virtual network x"])
        served = client.get(f"/api/v1/azure-labs/{row.id}").json()
        assert (served["status"], served["actions"]) == (status.value, actions)
    row = _lab(db, "act-gone", AzureLabStatus.READY, [])
    row.deleted_at = datetime.now(UTC)
    db.commit()
    assert client.get(f"/api/v1/azure-labs/{row.id}").json()["actions"] == []


def test_the_states_table_is_served(client: TestClient) -> None:
    rows = client.get("/api/v1/azure-labs/states").json()["data"]
    by_action = {r["action"]: r for r in rows if r["action"]}
    assert set(by_action) == {a.value for a in LabAction}
    assert by_action["delete"]["from_states"] == sorted(["ready", "stopped", "failed"])
    assert (by_action["stop"]["during"], by_action["stop"]["to"]) == ("stopping", "stopped")
    assert any(r["from_states"] == ["creating"] and r["to"] == "failed" for r in rows)
    assert any(r["to"] is None and "back in the state it was in" in r["meaning"] for r in rows)


def test_a_failed_creation_that_made_nothing_is_deleted_at_once(
    client: TestClient, db: Session
) -> None:
    row = _lab(db, "nothing-made", AzureLabStatus.FAILED, [])
    r = client.request("DELETE", f"/api/v1/azure-labs/{row.id}", json={"name": "nothing-made"})
    assert r.status_code == 202, r.text
    assert (r.json()["status"], r.json()["actions"]) == ("deleted", [])
    assert r.json()["deleted_at"] is not None
    db.refresh(row)
    assert row.status == AzureLabStatus.DELETED.value


def test_a_failed_delete_goes_back_to_the_state_it_came_from(db: Session) -> None:
    # The API moved each lab to deleting and sent the task with the state it was in.
    for before in (AzureLabStatus.FAILED, AzureLabStatus.STOPPED, AzureLabStatus.READY):
        row = _lab(db, f"back-{before.value}", AzureLabStatus.DELETING, ["virtual network x"])
        delete_lab(row.id, before.value, arm_for=_no_azure)
        db.refresh(row)
        assert row.status == before.value  # not "ready" for a failed or a stopped lab
        assert row.error is not None and row.error.startswith("deleting failed:")
        assert "no Azure subscription" in row.error
        assert row.deleted_at is None


def test_an_old_message_without_its_state_falls_back_to_the_usual_one(db: Session) -> None:
    row = _lab(db, "old-message", AzureLabStatus.STOPPING, ["virtual network x"])
    stop_lab(row.id, None, arm_for=_no_azure)
    db.refresh(row)
    assert row.status == LAB_TRANSITIONS[LabAction.STOP].usual_from.value == "ready"


def test_the_budget_currency_is_the_prices_currency(client: TestClient, db: Session) -> None:
    """The New Azure testbed page labels the budget with the suggested region's prices'
    currency; USD (the Retail Prices API's default) when none is stored."""
    region = client.get("/api/v1/azure-labs/defaults").json()["region"]
    # Prices are shared by every test of this database: this test leaves them as it found them.
    kept = [
        {c: getattr(p, c) for c in ("region", "size", "price_per_hour", "currency", "source")}
        | {"fetched_at": p.fetched_at}
        for p in db.scalars(select(VmPrice).where(VmPrice.region == region))
    ]
    db.execute(delete(VmPrice).where(VmPrice.region == region))
    db.commit()
    try:
        assert client.get("/api/v1/azure-labs/defaults").json()["currency"] == "USD"
        r = client.put(
            f"/api/v1/prices/{region}/Standard_A2_v2",
            json={"price_per_hour": 0.1, "currency": "EUR"},
        )
        assert r.status_code == 200, r.text
        assert client.get("/api/v1/azure-labs/defaults").json()["currency"] == "EUR"
    finally:
        db.execute(delete(VmPrice).where(VmPrice.region == region))
        db.add_all(VmPrice(**row) for row in kept)
        db.commit()


def test_the_plan_shows_before_the_key_exists_and_flags_it(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Show plan answers without the SSH key file (it showed nothing until one existed) and
    says the key is missing; create still refuses, naming key_path."""
    monkeypatch.setattr(settings, "SSH_KEY_DIR", tmp_path)
    monkeypatch.setattr(settings, "AZURE_SUBSCRIPTION_ID", None)
    body = plan_request("nokey", key_path="id_missing", expires_in_hours=2)
    r = client.post("/api/v1/azure-labs/plan", json=body)
    assert r.status_code == 200, r.text
    plan = r.json()
    assert plan["resources"] and plan["resource_group"] == "mcscope-nokey"
    assert "id_missing" in plan["key_missing"] and "create needs this key" in plan["key_missing"]
    created = client.post("/api/v1/azure-labs", json=body)
    assert created.status_code == 422
    assert created.json()["detail"][0]["loc"] == ["body", "key_path"]
    # With the key in place the plan says nothing about it.
    (tmp_path / "id_missing").write_text("private")
    (tmp_path / "id_missing.pub").write_text("ssh-ed25519 AAAA test")
    assert client.post("/api/v1/azure-labs/plan", json=body).json()["key_missing"] is None
