"""Testbed endpoints."""

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from backend.core.config import settings
from backend.models import Run
from backend.tests.utils.experiment import create_random_experiment, random_name

API = "/api/v1/testbeds"
# A valid host key, given so that registering these made-up hosts reads no key (no traffic).
GIVEN_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl"


@pytest.fixture(autouse=True)
def key_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A key folder holding one (placeholder) private key, id_ed25519."""
    folder = tmp_path / "keys"
    folder.mkdir()
    (folder / "id_ed25519").write_text("-----BEGIN OPENSSH PRIVATE KEY-----\nplaceholder\n")
    monkeypatch.setattr(settings, "SSH_KEY_DIR", folder)
    yield folder


def _host(name: str, role: str = "server", **over: object) -> dict[str, object]:
    return {
        "name": name,
        "role": role,
        "address": "10.0.0.4",
        "ssh_user": "azureuser",
        "key_path": "id_ed25519",
        "host_key": GIVEN_KEY,
        **over,
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


def test_key_path_must_be_a_small_regular_file_in_the_key_folder(
    client: TestClient, key_dir: Path, tmp_path: Path
) -> None:
    ok = client.post(API, json={"name": random_name("tb"), "hosts": [_host("a")]})
    assert ok.status_code == 201, ok.text
    assert ok.json()["hosts"][0]["key_path"] == str((key_dir / "id_ed25519").resolve())
    outside = tmp_path / "elsewhere"
    outside.write_text("key")
    (key_dir / "link").symlink_to(outside)
    (key_dir / "big").write_bytes(b"x" * (settings.SSH_KEY_MAX_BYTES + 1))
    (key_dir / "sub").mkdir()
    bad = {
        "/etc/shadow": "under the key folder",
        "/dev/zero": "under the key folder",
        "../elsewhere": "under the key folder",
        "link": "under the key folder",
        "big": "bytes",
        "sub": "not a regular file",
        "missing": "cannot be read",
    }
    for path, reason in bad.items():
        r = client.post(
            API, json={"name": random_name("tb"), "hosts": [_host("a"), _host("b", key_path=path)]}
        )
        assert r.status_code == 422, (path, r.text)
        detail = r.json()["detail"][0]
        assert detail["loc"] == ["body", "hosts", 1, "key_path"], path
        assert reason in detail["msg"], (path, detail["msg"])


def test_address_is_an_ip_or_a_host_name(client: TestClient) -> None:
    # Names resolve at registration: only names /etc/hosts knows, so no DNS query leaves.
    for good in ("10.0.0.4", "::1", "localhost", "192.168.1.20", "fd00::4"):
        r = client.post(API, json={"name": random_name("tb"), "hosts": [_host("a", address=good)]})
        assert r.status_code == 201, (good, r.text)
    for bad in ("-oProxyCommand=sh", "a..b", "host_name", "10.0.0.999", "-1.2.3.4", "a" * 64):
        r = client.post(API, json={"name": random_name("tb"), "hosts": [_host("a", address=bad)]})
        assert r.status_code == 422, bad
        assert r.json()["detail"][0]["loc"] == ["body", "hosts", 0, "address"], bad


def test_tools_found_on_testbeds_from_recorded_runs(client: TestClient, db: Session) -> None:
    tb = client.post(API, json={"name": random_name("tb"), "hosts": [_host("s1")]}).json()
    exp = create_random_experiment(
        client, factors={"workers": [8]}, repetitions=2, testbed_id=tb["id"]
    )
    client.post(f"/api/v1/experiments/{exp['id']}/start")
    client.post(f"/api/v1/experiments/{exp['id']}/cancel")
    old, new = db.scalars(select(Run).where(Run.experiment_id == exp["id"]).order_by(Run.id))
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    old.tool_versions, old.started_at = {"memcached": "1.6.20", "memaslap": "1.0"}, t0
    new.tool_versions = {"memcached": "1.6.21"}
    new.started_at = t0 + timedelta(hours=1)
    db.commit()
    tools = [t for t in client.get(f"{API}/tools").json()["data"] if t["testbed_id"] == tb["id"]]
    # The newest run's version wins; a tool only the older run saw is still listed.
    assert [(t["tool"], t["version"], t["run_id"]) for t in tools] == [
        ("memaslap", "1.0", old.id),
        ("memcached", "1.6.21", new.id),
    ]
