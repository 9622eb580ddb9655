"""POST /api/v1/rehearsals on the real API: the refusals, each a 422 saying why before anything
is queued (a plan over the host limit, a size with no bandwidth on the chosen basis, a machine
without root or tc: the capability check faked at its boundary, the probe's inputs), and a
valid request queued as a rehearsal whose build message reaches the maintenance queue. The
build itself (namespaces on this machine) is the worker's load test,
worker/tests/rehearsal/test_rehearsal_lifecycle.py."""

import base64
import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import redis
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from backend.core.config import settings
from backend.core.queue import MAINTENANCE_QUEUE, REHEARSAL_BUILD_TASK, REHEARSAL_DELETE_TASK
from backend.models import Rehearsal, Testbed, TestbedKind
from backend.rehearsal import capabilities
from backend.rehearsal.fidelity import LIKE_THE_CLOUD, UNLIKE_THE_CLOUD
from backend.tests.utils.azure_plans import plan_request
from backend.tests.utils.experiment import create_random_experiment, random_name

API = "/api/v1/rehearsals"


def _body(**over: Any) -> dict[str, Any]:
    """A plan of eight hosts (three servers, a middleware, three clients, a jump host)."""
    eight = {
        "servers": {"count": 3, "size": "Standard_A1_v2"},
        "middlewares": {"count": 1, "size": "Standard_A8_v2"},
        "clients": {"count": 3, "size": "Standard_A2_v2"},
        "jump_host": True,
    }
    return plan_request(random_name("reh").lower().replace("_", "-"), **{**eight, **over})


def _messages(task: str) -> list[int]:
    """Rehearsal ids of `task`'s messages in this session's maintenance queue (taken out)."""
    r = redis.Redis.from_url(settings.REDIS_URL, decode_responses=True)
    ids = []
    for raw in r.lrange(MAINTENANCE_QUEUE, 0, -1):
        assert isinstance(raw, str)
        msg = json.loads(raw)
        if msg["headers"]["task"] == task:
            ids.append(int(json.loads(base64.b64decode(msg["body"]))[0][0]))
            r.lrem(MAINTENANCE_QUEUE, 1, raw)
    return ids


def _ids(db: Session) -> set[int]:
    db.expire_all()
    return set(db.scalars(select(Rehearsal.id)))


def test_refused_without_root(
    client: TestClient, db: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(capabilities, "_uid", lambda: 1000)
    before = _ids(db)
    r = client.post(API, json=_body())
    assert r.status_code == 422, r.text
    (err,) = r.json()["detail"]
    assert err["msg"].startswith("this machine cannot rehearse: needs root"), err
    assert "uid 1000" in err["msg"]
    assert _ids(db) == before and _messages(REHEARSAL_BUILD_TASK) == []


def test_refused_without_tc(
    client: TestClient, db: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = capabilities._which
    monkeypatch.setattr(capabilities, "_which", lambda p: None if p == "tc" else real(p))
    before = _ids(db)
    r = client.post(API, json=_body())
    assert r.status_code == 422, r.text
    assert "needs `tc`" in r.json()["detail"][0]["msg"]
    assert _ids(db) == before


def test_refused_over_the_host_limit(
    client: TestClient, db: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(settings, "REHEARSAL_MAX_HOSTS", 6)
    # 3 + 1 + 3 role VMs; the jump host is not rehearsed, so 7 hosts, not 8.
    before = _ids(db)
    r = client.post(API, json=_body())
    assert r.status_code == 422, r.text
    (err,) = r.json()["detail"]
    assert err["loc"] == ["body", "servers"]
    assert err["msg"].startswith("7 hosts to rehearse: this machine takes at most 6"), err
    assert _ids(db) == before


def test_refused_for_a_size_without_bandwidth_on_the_basis(client: TestClient, db: Session) -> None:
    # Standard_A4_v2 had no Basic predecessor the reports measured; Azure publishes 1,000.
    before = _ids(db)
    r = client.post(API, json=_body(middlewares={"count": 1, "size": "Standard_A4_v2"}))
    assert r.status_code == 422, r.text
    (err,) = r.json()["detail"]
    assert err["loc"] == ["body", "middlewares.size"]
    assert "no measured network bandwidth is known for Standard_A4_v2" in err["msg"]
    assert "the published basis has one" in err["msg"]
    assert _ids(db) == before


def test_bad_request_fields_are_the_plans_422s(client: TestClient) -> None:
    r = client.post(API, json=_body(bandwidth_basis="guessed"))
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "bandwidth_basis"]
    r = client.post(API, json=_body(servers={"count": 0, "size": "Standard_A1_v2"}))
    assert r.status_code == 422 and r.json()["detail"][0]["loc"][:2] == ["body", "servers"]


def test_registering_the_kind_by_hand_is_refused(client: TestClient) -> None:
    r = client.post("/api/v1/testbeds", json={"name": random_name("tb"), "kind": "rehearsal"})
    assert r.status_code == 422, r.text
    (err,) = r.json()["detail"]
    assert err["loc"] == ["body", "kind"] and "Rehearse locally" in err["msg"]


def test_queued_then_deleted_before_its_build(client: TestClient, db: Session) -> None:
    body = _body(bandwidth_basis="published")
    r = client.post(API, json=body)
    assert r.status_code == 202, r.text
    made = r.json()
    assert made["status"] == "queued" and made["actions"] == ["delete"]
    assert [(h["name"], h["role"], h["size"], h["mbit_s"]) for h in made["hosts"]] == [
        (f"{body['name']}-server-1", "server", "Standard_A1_v2", 250),
        (f"{body['name']}-server-2", "server", "Standard_A1_v2", 250),
        (f"{body['name']}-server-3", "server", "Standard_A1_v2", 250),
        (f"{body['name']}-middleware-1", "middleware", "Standard_A8_v2", 2000),
        (f"{body['name']}-client-1", "client", "Standard_A2_v2", 500),
        (f"{body['name']}-client-2", "client", "Standard_A2_v2", 500),
        (f"{body['name']}-client-3", "client", "Standard_A2_v2", 500),
    ]
    assert {h["basis"] for h in made["hosts"]} == {"published"}
    assert made["like_the_cloud"] == list(LIKE_THE_CLOUD)
    assert made["unlike_the_cloud"] == list(UNLIKE_THE_CLOUD)
    assert any("CPUs are this machine's" in s for s in made["unlike_the_cloud"])
    assert _messages(REHEARSAL_BUILD_TASK) == [made["id"]]
    # The same name again while it lives: refused on `name`.
    again = client.post(API, json=body)
    assert again.status_code == 422 and again.json()["detail"][0]["loc"] == ["body", "name"]

    wrong = client.request("DELETE", f"{API}/{made['id']}", json={"name": "other"})
    assert wrong.status_code == 422 and wrong.json()["detail"][0]["loc"] == ["body", "name"]
    gone = client.request("DELETE", f"{API}/{made['id']}", json={"name": body["name"]})
    assert gone.status_code == 202 and gone.json()["status"] == "deleting"
    assert _messages(REHEARSAL_DELETE_TASK) == [made["id"]]
    twice = client.request("DELETE", f"{API}/{made['id']}", json={"name": body["name"]})
    assert twice.status_code == 409 and "deleting" in twice.json()["detail"]
    listed = client.get(API).json()
    assert listed["count"] == len(_ids(db)) and made["id"] in {r["id"] for r in listed["data"]}


def test_unknown_rehearsal_is_404(client: TestClient) -> None:
    assert client.get(f"{API}/999999").status_code == 404
    r = client.request("DELETE", f"{API}/999999", json={"name": "x"})
    assert r.status_code == 404 and r.json()["detail"] == "rehearsal not found"


def test_start_on_a_torn_down_rehearsal_is_refused(client: TestClient, db: Session) -> None:
    testbed = Testbed(name=random_name("rehtb"), kind=TestbedKind.REHEARSAL, description="")
    db.add(testbed)
    db.flush()
    row = Rehearsal(
        name=testbed.name,
        status="ready",
        hosts=[],
        tag="ab12",
        made=[],
        expires_at=datetime.now(UTC) + timedelta(hours=1),
        testbed_id=testbed.id,
    )
    db.add(row)
    db.commit()
    exp = create_random_experiment(client, testbed_id=testbed.id)
    # Ready: Start is not refused for the testbed (the broker may still answer 503 or 202).
    ok = client.post(f"/api/v1/experiments/{exp['id']}/start")
    assert ok.status_code != 422, ok.text
    client.post(f"/api/v1/experiments/{exp['id']}/cancel")
    row.status, row.deleted_at = "deleted", datetime.now(UTC)
    db.commit()
    r = client.post(f"/api/v1/experiments/{exp['id']}/start")
    assert r.status_code == 422, r.text
    (err,) = r.json()["detail"]
    assert err["loc"] == ["body", "testbed_id"]
    assert err["msg"] == (
        f"testbed {testbed.name!r} is a rehearsal whose hosts are deleted: "
        "rehearse the plan again (New Azure testbed, Rehearse locally)"
    )
