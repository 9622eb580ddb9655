"""Saved views CRUD: create, list, read, replace, delete; 422s name the field, 404s."""

from fastapi.testclient import TestClient
from sqlalchemy import update
from sqlalchemy.orm import Session

from backend.models import SavedView
from backend.tests.utils.experiment import random_name

API = "/api/v1/views"

STATE = {
    "experiment_ids": [3, 1],
    "base_experiment_id": 1,
    "metric": "response_time_us",
    "x": "clients_per_thread",
    "group_by": "workers",
    "band": "ci",
    "source": "middleware",
    "request_type": "get",
    "only_differences": True,
    "brush": {"workers": [[19.8, 40.0]], "throughput_per_s": [[0.0, 500.0], [900.0, 1200.5]]},
}


def test_create_read_list_update_delete(client: TestClient) -> None:
    name = random_name("view")
    r = client.post(API, json={"name": f"  {name} ", "state": STATE})
    assert r.status_code == 201, r.text
    view = r.json()
    assert view["name"] == name
    # Stored exactly, defaults filled in for what the caller left out.
    assert view["state"] == {
        **STATE,
        "configuration_ids": [],
        "base_configuration_id": None,
        "role": None,
        "window_start_s": None,
        "window_end_s": None,
    }
    assert client.get(f"{API}/{view['id']}").json() == view
    listed = client.get(API).json()
    assert listed["count"] >= 1 and listed["data"][0]["id"] == view["id"]

    new_state = {**STATE, "band": "se", "configuration_ids": [7, 9], "base_configuration_id": 9}
    r = client.put(f"{API}/{view['id']}", json={"name": name, "state": new_state})
    assert r.status_code == 200 and r.json()["state"]["band"] == "se"
    assert client.get(f"{API}/{view['id']}").json()["state"]["configuration_ids"] == [7, 9]

    assert client.delete(f"{API}/{view['id']}").status_code == 204
    r = client.get(f"{API}/{view['id']}")
    assert r.status_code == 404 and r.json()["detail"] == "View not found"


def test_not_found(client: TestClient) -> None:
    body = {"name": random_name("view"), "state": STATE}
    for r in (
        client.get(f"{API}/987654321"),
        client.put(f"{API}/987654321", json=body),
        client.delete(f"{API}/987654321"),
    ):
        assert r.status_code == 404 and r.json()["detail"] == "View not found"


def _loc(r: object) -> list[list[object]]:
    return [e["loc"] for e in r.json()["detail"]]  # type: ignore[attr-defined]


def test_bad_input_is_422_naming_the_field(client: TestClient) -> None:
    name = random_name("view")
    assert client.post(API, json={"name": name, "state": STATE}).status_code == 201
    r = client.post(API, json={"name": name, "state": STATE})
    assert r.status_code == 422 and _loc(r) == [["body", "name"]]
    assert "already exists" in r.json()["detail"][0]["msg"]
    r = client.post(API, json={"name": "   ", "state": STATE})
    assert r.status_code == 422 and _loc(r) == [["body", "name"]]
    r = client.post(API, json={"name": random_name(), "state": {**STATE, "band": "iqr"}})
    assert r.status_code == 422 and _loc(r) == [["body", "state", "band"]]
    # A process role only on the process side; the one kept is stored.
    r = client.post(API, json={"name": random_name(), "state": {**STATE, "role": "server"}})
    assert r.status_code == 422 and _loc(r) == [["body", "state", "role"]]
    process = {**STATE, "source": "process", "role": "server"}
    r = client.post(API, json={"name": random_name(), "state": process})
    assert r.status_code == 201 and r.json()["state"]["role"] == "server"
    r = client.post(API, json={"name": random_name(), "state": {**STATE, "colour": "red"}})
    assert r.status_code == 422 and _loc(r) == [["body", "state", "colour"]]
    r = client.post(API, json={"name": random_name(), "state": {**STATE, "experiment_ids": ["x"]}})
    assert r.status_code == 422 and _loc(r) == [["body", "state", "experiment_ids", 0]]
    r = client.post(API, json={"name": random_name()})
    assert r.status_code == 422 and _loc(r) == [["body", "state"]]
    r = client.post(
        API, json={"name": random_name(), "state": {**STATE, "brush": {"workers": [[40, 20]]}}}
    )
    assert r.status_code == 422 and _loc(r)[0][:4] == ["body", "state", "brush", "workers"]


def test_rename_onto_another_name_is_422(client: TestClient) -> None:
    a = client.post(API, json={"name": random_name("view"), "state": STATE}).json()
    b = client.post(API, json={"name": random_name("view"), "state": STATE}).json()
    r = client.put(f"{API}/{b['id']}", json={"name": a["name"], "state": STATE})
    assert r.status_code == 422 and _loc(r) == [["body", "name"]]
    # Keeping one's own name is fine.
    r = client.put(f"{API}/{b['id']}", json={"name": b["name"], "state": STATE})
    assert r.status_code == 200


def test_a_stored_state_that_no_longer_validates_is_still_listed(
    client: TestClient, db: Session
) -> None:
    # A view saved before a Compare field was renamed (or edited by hand) must not fail the
    # list for every view: it is served without the fields that no longer validate.
    r = client.post(API, json={"name": random_name("old view"), "state": STATE})
    assert r.status_code == 201, r.text
    view_id = r.json()["id"]
    old = {**STATE, "metric": "renamed_metric", "retired_field": 1}
    db.execute(update(SavedView).where(SavedView.id == view_id).values(state=old))
    db.commit()
    listed = client.get(API, params={"limit": 1000})
    assert listed.status_code == 200, listed.text
    row = next(v for v in listed.json()["data"] if v["id"] == view_id)
    assert row["state"]["metric"] == "throughput_per_s"  # the default
    assert "retired_field" not in row["state"] and row["state"]["band"] == "ci"
    one = client.get(f"{API}/{view_id}")
    assert one.status_code == 200 and one.json()["state"] == row["state"]
