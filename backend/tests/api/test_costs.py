"""Money on an Azure testbed through the API: prices set by hand with their date and source, a
size without a price reported as unpriced, the design preview's cost from seeded prices, the
budget refusal at start (422 with the numbers) and the cost accrued from seeded times."""

import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from backend import models
from backend.crud.prices import set_price
from backend.models import AzureLab, AzureLabStatus, Host, HostRole, PriceSource
from backend.tests.utils.experiment import create_random_experiment, experiment_payload

API = "/api/v1"
REGION = "westeurope"
# Made-up prices (per VM and hour) seeded for the tests.
PRICES = {"Standard_A1_v2": 0.05, "Standard_A2_v2": 0.10, "Standard_B2s": 0.04}
PRICED_AT = datetime(2026, 11, 1, 9, 30, tzinfo=UTC)
# One A1_v2 server, one A2_v2 middleware, one A2_v2 client and the B2s jump host.
PER_HOUR = 0.05 + 0.10 + 0.10 + 0.04

MakeTestbed = Callable[..., models.Testbed]


@pytest.fixture()
def seeded_prices(db: Session) -> None:
    for size, price in PRICES.items():
        set_price(db, REGION, size, price, "USD", PriceSource.RETAIL_API, PRICED_AT)
    db.commit()


@pytest.fixture()
def azure_testbed(db: Session) -> MakeTestbed:
    """An Azure testbed made as a lab would make it: hosts with size and region, and the lab
    row (jump host, budget, times)."""

    def make(
        client_size: str = "Standard_A2_v2",
        budget: float | None = None,
        created_ago: timedelta = timedelta(hours=1),
        deleted_ago: timedelta | None = None,
    ) -> models.Testbed:
        name = f"az-{uuid.uuid4().hex[:8]}"
        testbed = models.Testbed(name=name, kind=models.TestbedKind.AZURE, description="")
        sizes = [
            (HostRole.SERVER, "Standard_A1_v2"),
            (HostRole.MIDDLEWARE, "Standard_A2_v2"),
            (HostRole.CLIENT, client_size),
        ]
        testbed.hosts = [
            Host(
                name=f"{name}-{role.value}-1",
                role=role,
                address=f"10.42.1.{i + 5}",
                ssh_user="mcscope",
                ssh_port=22,
                key_path="/nonexistent/key",
                size=size,
                region=REGION,
            )
            for i, (role, size) in enumerate(sizes)
        ]
        db.add(testbed)
        db.flush()
        now = datetime.now(UTC)
        db.add(
            AzureLab(
                name=name,
                spec={"region": REGION, "jump_host": {"enabled": True, "size": "Standard_B2s"}},
                status=AzureLabStatus.READY.value,
                progress=[],
                resource_group=f"mcscope-{name}",
                testbed_id=testbed.id,
                budget=budget,
                created_at=now - created_ago,
                deleted_at=None if deleted_ago is None else now - deleted_ago,
            )
        )
        db.commit()
        return testbed

    return make


def test_a_price_set_by_hand_says_its_date_and_source(client: TestClient) -> None:
    before = datetime.now(UTC)
    r = client.put(f"{API}/prices/northeurope/Standard_D2s_v5", json={"price_per_hour": 0.12})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["source"] == "user" and body["currency"] == "USD"
    assert body["price_per_hour"] == 0.12
    assert datetime.fromisoformat(body["fetched_at"]) >= before
    listed = client.get(f"{API}/prices", params={"region": "northeurope"}).json()["data"]
    assert [(p["size"], p["source"]) for p in listed] == [("Standard_D2s_v5", "user")]


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("westeurope/Standard_A2_v2", {"price_per_hour": -1}, "price_per_hour"),
        ("westeurope/Standard_A2_v2", {"price_per_hour": 1, "currency": "dollars"}, "currency"),
        ("westeurope/A2;rm", {"price_per_hour": 1}, "size"),
        ("West Europe/Standard_A2_v2", {"price_per_hour": 1}, "region"),
    ],
)
def test_a_bad_price_is_a_422_naming_the_field(
    client: TestClient, path: str, body: dict[str, Any], field: str
) -> None:
    r = client.put(f"{API}/prices/{path}", json=body)
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["loc"][-1] == field


def test_preview_shows_the_cost_on_an_azure_testbed(
    client: TestClient, seeded_prices: None, azure_testbed: MakeTestbed
) -> None:
    testbed = azure_testbed()
    r = client.post(f"{API}/experiments/preview", json=experiment_payload(testbed_id=testbed.id))
    assert r.status_code == 200, r.text
    body = r.json()
    cost = body["cost"]
    assert cost["unpriced"] == [] and cost["currency"] == "USD"
    assert cost["per_hour"] == pytest.approx(PER_HOUR)
    assert cost["hours"] == pytest.approx(body["estimated_seconds"] / 3600)
    assert cost["amount"] == pytest.approx(PER_HOUR * body["estimated_seconds"] / 3600)
    lines = {(v["size"], v["count"]): v["price"] for v in cost["vms"]}
    assert set(lines) == {
        ("Standard_A1_v2", 1),
        ("Standard_A2_v2", 2),
        ("Standard_B2s", 1),
    }
    for price in lines.values():
        assert price["source"] == "retail-api"
        assert datetime.fromisoformat(price["fetched_at"]) == PRICED_AT
    # The stored experiment shows the same estimate.
    exp = create_random_experiment(client, testbed_id=testbed.id)
    assert exp["preview"]["cost"]["amount"] == pytest.approx(cost["amount"])


def test_a_size_without_a_price_is_reported_unpriced(
    client: TestClient, seeded_prices: None, azure_testbed: MakeTestbed
) -> None:
    testbed = azure_testbed(client_size="Standard_F2s_v2")
    r = client.post(f"{API}/experiments/preview", json=experiment_payload(testbed_id=testbed.id))
    assert r.status_code == 200, r.text
    cost = r.json()["cost"]
    assert cost["unpriced"] == ["westeurope/Standard_F2s_v2"]
    assert cost["amount"] is None and cost["per_hour"] is None
    unpriced = [v for v in cost["vms"] if v["price"] is None]
    assert [v["size"] for v in unpriced] == ["Standard_F2s_v2"]


def test_no_cost_on_a_testbed_that_is_not_on_azure(client: TestClient) -> None:
    r = client.post(f"{API}/experiments/preview", json=experiment_payload())
    assert r.status_code == 200, r.text
    assert r.json()["cost"] is None


def test_start_over_the_remaining_budget_is_a_422_with_the_numbers(
    client: TestClient, seeded_prices: None, azure_testbed: MakeTestbed
) -> None:
    # 2 hours accrued at 0.29/h = 0.58 of a 0.60 budget: 0.02 left, less than the estimate.
    testbed = azure_testbed(budget=0.60, created_ago=timedelta(hours=2))
    exp = create_random_experiment(client, testbed_id=testbed.id)
    r = client.post(f"{API}/experiments/{exp['id']}/start")
    assert r.status_code == 422, r.text
    err = r.json()["detail"][0]
    assert err["loc"] == ["body", "testbed_id"]
    numbers = err["input"]
    assert numbers["budget"] == 0.60 and numbers["currency"] == "USD"
    assert numbers["accrued"] == pytest.approx(2 * PER_HOUR, abs=0.001)
    assert numbers["remaining"] == pytest.approx(0.60 - numbers["accrued"])
    assert numbers["estimate"] == pytest.approx(exp["preview"]["cost"]["amount"])
    assert numbers["estimate"] > numbers["remaining"]
    assert "exceeds the testbed's remaining budget" in err["msg"]
    assert client.get(f"{API}/experiments/{exp['id']}/runs").json()["count"] == 0


def test_start_with_an_unpriced_vm_and_a_budget_is_refused(
    client: TestClient, seeded_prices: None, azure_testbed: MakeTestbed
) -> None:
    testbed = azure_testbed(client_size="Standard_F2s_v2", budget=1000)
    exp = create_random_experiment(client, testbed_id=testbed.id)
    r = client.post(f"{API}/experiments/{exp['id']}/start")
    assert r.status_code == 422, r.text
    assert "no price for westeurope/Standard_F2s_v2" in r.json()["detail"][0]["msg"]


def test_start_within_the_budget_is_queued(
    client: TestClient, seeded_prices: None, azure_testbed: MakeTestbed
) -> None:
    testbed = azure_testbed(budget=1000)
    exp = create_random_experiment(client, testbed_id=testbed.id)
    r = client.post(f"{API}/experiments/{exp['id']}/start")
    assert r.status_code == 202, r.text
    client.post(f"{API}/experiments/{exp['id']}/cancel")


def test_accrued_cost_counts_from_the_lab_request_to_its_deletion(
    client: TestClient, seeded_prices: None, azure_testbed: MakeTestbed
) -> None:
    testbed = azure_testbed(
        budget=10, created_ago=timedelta(hours=10), deleted_ago=timedelta(hours=4)
    )
    r = client.get(f"{API}/testbeds/{testbed.id}")
    assert r.status_code == 200, r.text
    money = r.json()["cost"]
    since = datetime.fromisoformat(money["since"])
    until = datetime.fromisoformat(money["until"])
    assert until - since == timedelta(hours=6)
    assert money["accrued"]["hours"] == pytest.approx(6)
    assert money["accrued"]["amount"] == pytest.approx(6 * PER_HOUR)
    assert money["budget"] == 10
    assert money["remaining"] == pytest.approx(10 - 6 * PER_HOUR)
    assert "upper bound" in money["accrued"]["counted"]
    listed = {t["id"]: t for t in client.get(f"{API}/testbeds").json()["data"]}
    assert listed[testbed.id]["cost"]["accrued"]["amount"] == pytest.approx(6 * PER_HOUR)


def test_accrued_cost_of_a_live_testbed_runs_to_now(
    client: TestClient, seeded_prices: None, azure_testbed: MakeTestbed
) -> None:
    testbed = azure_testbed(created_ago=timedelta(hours=3))
    money = client.get(f"{API}/testbeds/{testbed.id}").json()["cost"]
    # Bound: the seconds between seeding and the request.
    assert money["accrued"]["hours"] == pytest.approx(3, abs=0.01)
    assert money["remaining"] is None and money["budget"] is None
