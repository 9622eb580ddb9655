"""Testbed endpoints."""

from fastapi.testclient import TestClient

from backend.tests.utils.experiment import create_random_experiment, random_name

API = "/api/v1/testbeds"


def _host(name: str, role: str = "server") -> dict[str, object]:
    return {
        "name": name,
        "role": role,
        "address": "10.0.0.4",
        "ssh_user": "azureuser",
        "key_path": "/root/.ssh/id_ed25519",
    }


def test_create_and_read_testbed(client: TestClient) -> None:
    r = client.post(
        API,
        json={
            "name": random_name("tb"),
            "kind": "azure",
            "hosts": [_host("server1"), _host("client1", "client")],
        },
    )
    assert r.status_code == 201, r.text
    tb = r.json()
    assert [h["role"] for h in tb["hosts"]] == ["server", "client"]
    assert client.get(f"{API}/{tb['id']}").json()["name"] == tb["name"]


def test_testbed_bad_input(client: TestClient) -> None:
    r = client.post(API, json={"name": random_name("tb"), "hosts": [_host("a"), _host("a")]})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "hosts"]
    bad = {**_host("b"), "address": "1.2.3.4; rm -rf /"}
    r = client.post(API, json={"name": random_name("tb"), "hosts": [bad]})
    assert r.status_code == 422
    assert r.json()["detail"][0]["loc"] == ["body", "hosts", 0, "address"]


def test_testbed_in_use_cannot_be_deleted(client: TestClient) -> None:
    tb = client.post(API, json={"name": random_name("tb"), "hosts": []}).json()
    create_random_experiment(client, testbed_id=tb["id"])
    r = client.delete(f"{API}/{tb['id']}")
    assert r.status_code == 409 and r.json()["detail"] == "Testbed is used by experiments"
