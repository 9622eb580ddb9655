"""register: the VMs' private addresses go to the REAL API (TestClient on PostgreSQL) as an
azure testbed, and GET /api/v1/testbeds shows them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from infra.azure.__main__ import main
from infra.azure.lab import build_testbed_payload, host_key_lines, register, up
from infra.azure.runner import AzRunner
from infra.azure.spec import LabSpec


@pytest.fixture(autouse=True)
def key_folder(keys: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    # The API accepts key paths under its key folder only: make it the test keys' folder.
    from backend.core.config import settings

    monkeypatch.setattr(settings, "SSH_KEY_DIR", keys[0].parent)


@pytest.fixture(autouse=True)
def no_key_reads(monkeypatch: pytest.MonkeyPatch, database: str) -> Iterator[None]:
    """The fake VMs' addresses (10.42.1.x) exist nowhere: their keys are not read (no traffic
    leaves this machine), and no later API start resumes reading them."""
    from sqlalchemy import update

    from backend.core.db import SessionLocal
    from backend.core.host_scans import UNDER_WAY, scanner
    from backend.models import Host

    monkeypatch.setattr(scanner, "submit", lambda hosts: None)
    yield
    with SessionLocal() as session:
        session.execute(
            update(Host).where(Host.scan_status.in_(UNDER_WAY)).values(scan_status=None)
        )
        session.commit()


def _spec(example_data: dict[str, Any], name: str) -> LabSpec:
    # Testbed names are unique in the database the module's tests share.
    return LabSpec.model_validate({**example_data, "name": name})


def test_register_posts_every_role_host(
    client: TestClient, example_data: dict[str, Any], fake_az: Any, tmp_path: Path
) -> None:
    spec = _spec(example_data, "azlab")
    up(spec, AzRunner(), tmp_path)
    body = register(spec, AzRunner(), client=client)
    assert body["kind"] == "azure"

    listed = client.get("/api/v1/testbeds")
    assert listed.status_code == 200
    tb = next(t for t in listed.json()["data"] if t["name"] == "azlab")
    assert tb["kind"] == "azure"
    assert tb["description"].startswith("Azure lab: 3 memcached servers")
    ips = {v["name"]: v["ip"] for v in fake_az.vms()}
    hosts = {h["name"]: h for h in tb["hosts"]}
    assert sorted(hosts) == sorted(
        [f"azlab-server-{i}" for i in (1, 2, 3)]
        + ["azlab-middleware-1", "azlab-middleware-2"]
        + [f"azlab-client-{i}" for i in (1, 2, 3)]
    )  # the jump host is not an mcscope host
    for name, h in hosts.items():
        assert h["role"] == name.split("-")[1]
        assert h["address"] == ips[name]
        assert h["address"].startswith("10.42.1.")
        assert h["ssh_user"] == "mcscope"
        assert h["ssh_port"] == 22
        assert h["key_path"] == spec.ssh_private_key_path
    # Only the key's path travels; its contents never do.
    assert "PRIVATE KEY" not in listed.text
    calls = fake_az.calls()
    assert [
        "vm",
        "list-ip-addresses",
        "--resource-group",
        "mcscope-lab",
        "--output",
        "json",
    ] in calls


def test_register_twice_is_refused_by_the_api(
    client: TestClient, example_data: dict[str, Any], fake_az: Any, tmp_path: Path
) -> None:
    spec = _spec(example_data, "azlab-twice")
    up(spec, AzRunner(), tmp_path)
    register(spec, AzRunner(), client=client)
    with pytest.raises(RuntimeError, match="422.*already exists"):
        register(spec, AzRunner(), client=client)
    names = [t["name"] for t in client.get("/api/v1/testbeds").json()["data"]]
    assert names.count("azlab-twice") == 1


def test_register_before_up_names_the_missing_vms(
    client: TestClient, example_data: dict[str, Any], fake_az: Any
) -> None:
    spec = _spec(example_data, "azlab-empty")
    with pytest.raises(
        LookupError, match="no private IP for azlab-empty-server-1, .*run `up` first"
    ):
        register(spec, AzRunner(), client=client)
    names = [t["name"] for t in client.get("/api/v1/testbeds").json()["data"]]
    assert "azlab-empty" not in names


def test_payload_without_middleware(example_data: dict[str, Any]) -> None:
    # The no-middleware baseline: servers and clients only.
    data = {
        **example_data,
        "description": "",
        "roles": {**example_data["roles"], "middleware": {"count": 0, "size": "Standard_A8_v2"}},
    }
    spec = LabSpec.model_validate(data)
    ips = {f"lab-{r}-{i}": f"10.42.1.{i}" for r in ("server", "client") for i in (1, 2, 3)}
    payload = build_testbed_payload(spec, ips)
    assert {h["role"] for h in payload["hosts"]} == {"server", "client"}
    assert payload["description"] == (
        "Azure lab mcscope-lab in westeurope: 3 server, 0 middleware, 3 client"
    )


def test_cli_register_reports_an_unreachable_api(
    example_data: dict[str, Any],
    fake_az: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    spec = LabSpec.model_validate(example_data)
    up(spec, AzRunner(), tmp_path)
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(example_data))
    # Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
    code = main(["register", "--spec", str(path), "--api-url", "http://127.0.0.1:9"])
    assert code == 1
    assert capsys.readouterr().err.startswith("error: ")


def test_register_prints_each_pinned_key_or_why_not() -> None:
    body = {
        "hosts": [
            {"name": "lab-server-1", "address": "10.42.1.4",
             "host_key_fingerprint": "ssh-ed25519 SHA256:abc", "scan_status": "read"},
            {"name": "lab-client-1", "address": "10.42.1.5", "host_key_fingerprint": None,
             "scan_status": "failed",
             "scan_error": "no SSH host key could be read from 10.42.1.5:22"},
            {"name": "lab-client-2", "address": "10.42.1.6", "host_key_fingerprint": None,
             "scan_status": "pinning"},
        ]
    }  # fmt: skip
    server, client, later = host_key_lines(body)
    assert "lab-server-1" in server and server.endswith("ssh-ed25519 SHA256:abc")
    assert "NOT PINNED: no SSH host key could be read from 10.42.1.5:22" in client
    assert later.endswith("being read: see the Testbeds page")
